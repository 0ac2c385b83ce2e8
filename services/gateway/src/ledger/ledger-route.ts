import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError } from "@loupe/errors";
import { LEDGER_KINDS, type Ledger, type LedgerKind, type LedgerQuery } from "@loupe/ledger";
import { httpStatusOf, sendHttpError, type HttpRoute } from "@loupe/runtime";
import type { Authenticator } from "../auth/authenticator.js";
import { httpPrincipal } from "../auth/http-principal.js";
import { DEFAULT_LEDGER_LIMIT, MAX_LEDGER_LIMIT } from "./ledger-handlers.js";

const ROUTE = /^\/api\/teams\/([^/]+)\/ledger\/?$/;

/** A query parameter's time: RFC 3339 or milliseconds since the epoch. */
function timeOf(name: string, value: string | null): number | undefined {
  if (value === null || value === "") return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) throw new AppError("invalid_argument", `${name} is not a time (RFC 3339 or ms since the epoch) [${name}=${value}]`);
  return ms;
}

/**
 * The ledger's query string as a query.
 * @throws AppError `invalid_argument` naming the bad parameter
 */
export function ledgerQueryFromSearch(search: URLSearchParams): LedgerQuery {
  const limitText = search.get("limit") ?? "";
  const limit = limitText === "" ? DEFAULT_LEDGER_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LEDGER_LIMIT)
    throw new AppError("invalid_argument", `limit must be a whole number from 1 to ${String(MAX_LEDGER_LIMIT)} [limit=${limitText}]`);
  const kinds = (search.get("kinds") ?? "")
    .split(",")
    .filter((kind) => kind !== "")
    .map((kind) => {
      if (!(LEDGER_KINDS as readonly string[]).includes(kind))
        throw new AppError("invalid_argument", `unknown ledger kind [kind=${kind}, known=${LEDGER_KINDS.join("|")}]`);
      return kind as LedgerKind;
    });
  const sinceMs = timeOf("since", search.get("since"));
  const untilMs = timeOf("until", search.get("until"));
  if (sinceMs !== undefined && untilMs !== undefined && sinceMs > untilMs) throw new AppError("invalid_argument", "since is after until");
  const text = (name: string): string => search.get(name) ?? "";
  return {
    limit,
    ...(text("session_id") === "" ? {} : { sessionId: text("session_id") }),
    ...(text("source") === "" ? {} : { source: text("source") }),
    ...(sinceMs === undefined ? {} : { sinceMs }),
    ...(untilMs === undefined ? {} : { untilMs }),
    ...(kinds.length === 0 ? {} : { kinds }),
    ...(text("cursor") === "" ? {} : { cursor: text("cursor") }),
  };
}

/**
 * `GET /api/teams/{team}/ledger?session_id=…&source=…&since=…&until=…&kinds=projection,cut&cursor=…&limit=…`:
 * the team's ledger, newest first, as `{ "entries": [ { "time", "kind", "source", "session_id", "result_id",
 * "rule_version", "projector_version", "tokens_before", "tokens_after", "handle_json", "detail" } ], "next_cursor" }`.
 * Another team answers 404, as one that does not exist.
 */
export function createLedgerRoute(ledger: Ledger, auth: Authenticator): HttpRoute {
  return async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://loupe");
    const match = ROUTE.exec(url.pathname);
    if (!match || request.method !== "GET") return false;
    try {
      const principal = await httpPrincipal(auth, request);
      let team: string | undefined;
      try {
        team = decodeURIComponent(match[1] ?? "");
      } catch {
        team = undefined;
      }
      if (team !== principal.tenant) throw new AppError("not_found", "no such team");
      const page = await ledger.list(principal.tenant, ledgerQueryFromSearch(url.searchParams));
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          entries: page.entries.map((entry) => ({
            time: new Date(entry.timeMs).toISOString(),
            kind: entry.kind,
            source: entry.source,
            session_id: entry.sessionId,
            result_id: entry.resultId,
            rule_version: entry.ruleVersion,
            projector_version: entry.projectorVersion,
            tokens_before: entry.tokensBefore,
            tokens_after: entry.tokensAfter,
            handle_json: entry.handleJson,
            detail: entry.detail,
          })),
          next_cursor: page.nextCursor,
        }),
      );
    } catch (error) {
      if (httpStatusOf(error) === 500) throw error;
      sendHttpError(response, error);
    }
    return true;
  };
}
