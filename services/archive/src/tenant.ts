import { AppError } from "@loupe/errors";

/** The metadata key the gateway sets on every archive call. */
export const TENANT_METADATA_KEY = "x-loupe-tenant";
/** The tenant until authentication exists. */
export const DEFAULT_TENANT = "local";

const TENANT_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/**
 * The tenant of an archive call: the `x-loupe-tenant` metadata set by the
 * gateway (the archive is internal), `local` when absent.
 * @throws AppError `invalid_argument` for a malformed tenant
 */
export function tenantFromMetadata(metadata: Readonly<Record<string, string>>): string {
  const tenant = metadata[TENANT_METADATA_KEY] ?? DEFAULT_TENANT;
  if (!TENANT_PATTERN.test(tenant)) throw new AppError("invalid_argument", `malformed tenant [tenant=${tenant.slice(0, 80)}]`);
  return tenant;
}
