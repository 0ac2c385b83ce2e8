import { createHash, timingSafeEqual } from "node:crypto";
import { AppError } from "@loupe/errors";
import type { TokenStore } from "./token-store.js";

/** Who is calling, as their credentials say. */
export interface Principal {
  tenant: string;
  /** May change its tenant's rules and delete its whole tenant. */
  admin: boolean;
  /** The deployment's operator (LOUPE_ADMIN_TOKEN): may manage every tenant's tokens. */
  operator: boolean;
  /** The apps (sources) the token may act for; empty = any. */
  sources: readonly string[];
}

/** `off`: every caller is tenant `local`; `tokens`: the tenant comes from a bearer token. */
export type AuthMode = "off" | "tokens";

/** Authenticates a call from its metadata (gRPC) or headers (HTTP), lowercase keys. */
export interface Authenticator {
  readonly mode: AuthMode;
  /**
   * The caller's principal.
   * @throws AppError `unauthenticated` (no token, or an unknown, expired or revoked one)
   */
  principal(metadata: Readonly<Record<string, string | undefined>>): Promise<Principal>;
}

/** The tenant of every caller when auth is off (and the operator's own). */
export const LOCAL_TENANT = "local";

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/** Whether a presented secret equals the expected one, compared by digest in constant time (revealing neither). */
export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/** The bearer token of a call: `authorization: Bearer …`, else `x-loupe-token` (the vendor proxy's, whose authorization is the vendor's). */
export function bearerTokenOf(metadata: Readonly<Record<string, string | undefined>>): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(metadata["authorization"] ?? "");
  return match?.[1] ?? (metadata["x-loupe-token"]?.trim() || undefined);
}

/**
 * The authenticator of a deployment. With auth off every caller is an admin of `local`. With
 * tokens, `operatorToken` (LOUPE_ADMIN_TOKEN) is the operator (admin of `local`), any other
 * token must be one of `tokens`.
 */
export function createAuthenticator(mode: AuthMode, operatorToken: string | undefined, tokens: TokenStore): Authenticator {
  const operator = operatorToken === undefined || operatorToken === "" ? undefined : operatorToken;
  return {
    mode,
    async principal(metadata) {
      if (mode === "off") return { tenant: LOCAL_TENANT, admin: true, operator: true, sources: [] };
      const token = bearerTokenOf(metadata);
      if (token === undefined) throw new AppError("unauthenticated", "a token is required: authorization: Bearer <token> (x-loupe-token for the vendor proxy)");
      if (operator !== undefined && sameSecret(token, operator)) return { tenant: LOCAL_TENANT, admin: true, operator: true, sources: [] };
      const record = await tokens.verify(token);
      if (record === undefined) throw new AppError("unauthenticated", "unknown, expired or revoked token");
      return { tenant: record.tenant, admin: record.admin, operator: false, sources: record.sources };
    },
  };
}

/**
 * Refuses a call naming an app (`source`) its token may not act for (a token made with --source).
 * @throws AppError `permission_denied`
 */
export function requireSourceScope(principal: Principal, source: unknown): void {
  if (principal.sources.length === 0 || typeof source !== "string" || source === "") return;
  if (!principal.sources.some((allowed) => allowed.toLowerCase() === source.toLowerCase())) {
    throw new AppError("permission_denied", `this token may act for ${principal.sources.join(", ")} only [source=${source.slice(0, 80)}]`);
  }
}

/**
 * Refuses a caller that is not an admin of its tenant.
 * @throws AppError `permission_denied`
 */
export function requireAdmin(principal: Principal, what: string): void {
  if (!principal.admin) throw new AppError("permission_denied", `${what} needs an admin token of the tenant`);
}
