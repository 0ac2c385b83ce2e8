import { createHmac } from "node:crypto";

/**
 * The id of a saved result: an HMAC of tenant, session and revision, so the
 * same result in the same session always gets the same id (views stay
 * byte-identical, invariant 1) while ids stay unguessable without the secret.
 */
export function resultIdFor(secret: string, tenant: string, sessionId: string, revision: string): string {
  const digest = createHmac("sha256", secret).update(`${tenant}\u0000${sessionId}\u0000${revision}`).digest("base64url");
  return `r_${digest.slice(0, 32)}`;
}
