import { AppError } from "@loupe/errors";

const TENANT_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** True for a tenant name: 1 to 63 lowercase letters, digits, "-" or "_", starting with a letter or digit. */
export function isTenantName(tenant: string): boolean {
  return TENANT_NAME.test(tenant);
}

/**
 * Checks a tenant name (see {@link isTenantName}); names starting with "_" are Loupe's own.
 * @throws AppError `invalid_argument`
 */
export function requireTenantName(tenant: string): string {
  if (!isTenantName(tenant)) {
    throw new AppError(
      "invalid_argument",
      `tenant must be 1 to 63 lowercase letters, digits, "-" or "_", starting with a letter or digit [tenant=${tenant.slice(0, 80)}]`,
    );
  }
  return tenant;
}
