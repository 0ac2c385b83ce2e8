import type { IncomingMessage } from "node:http";
import type { Authenticator, Principal } from "./authenticator.js";

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * The principal of an HTTP request: `authorization: Bearer …` or `x-loupe-token`; for the vendor
 * proxy (`vendor`), whose `authorization` header is the vendor's key, `x-loupe-token` only.
 * @throws AppError `unauthenticated`
 */
export function httpPrincipal(auth: Authenticator, request: IncomingMessage, vendor = false): Promise<Principal> {
  const token = first(request.headers["x-loupe-token"]);
  return auth.principal({ ...(vendor ? {} : { authorization: first(request.headers.authorization) }), "x-loupe-token": token });
}
