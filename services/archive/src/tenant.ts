import { createHash, timingSafeEqual } from "node:crypto";
import { INTERNAL_TOKEN_METADATA_KEY, TENANT_METADATA_KEY } from "@loupe/archive-client/metadata-keys";
import { isTenantName } from "@loupe/archive-store/content";
import { AppError } from "@loupe/errors";

export { TENANT_METADATA_KEY };
/** The tenant until authentication exists. */
export const DEFAULT_TENANT = "local";

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/**
 * The tenant of an archive call: the `x-loupe-tenant` metadata set by the
 * gateway or the note-worker, `local` when absent. With `internalToken`
 * (LOUPE_INTERNAL_TOKEN) set, only a caller presenting it (in
 * `x-loupe-internal-token`) is believed: anyone else is refused.
 * @throws AppError `unauthenticated` (no or a wrong internal token), `invalid_argument` (a malformed tenant)
 */
export function tenantFromMetadata(metadata: Readonly<Record<string, string>>, internalToken?: string): string {
  if (internalToken !== undefined && internalToken !== "") {
    const presented = metadata[INTERNAL_TOKEN_METADATA_KEY];
    if (presented === undefined || !timingSafeEqual(digest(presented), digest(internalToken))) {
      throw new AppError("unauthenticated", "the archive answers Loupe's own services only (LOUPE_INTERNAL_TOKEN)");
    }
  }
  const tenant = metadata[TENANT_METADATA_KEY] ?? DEFAULT_TENANT;
  if (!isTenantName(tenant)) throw new AppError("invalid_argument", `malformed tenant [tenant=${tenant.slice(0, 80)}]`);
  return tenant;
}
