import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { AppError } from "@loupe/errors";
import type { Ledger } from "@loupe/ledger";
import type { SourceRules } from "@loupe/rules";
import { sendHttpError, type HttpRoute } from "@loupe/runtime";
import type { Authenticator } from "../auth/authenticator.js";
import { httpPrincipal } from "../auth/http-principal.js";

/** The console's files (services/gateway/console), from src/console or dist/console alike. */
const ASSETS = fileURLToPath(new URL("../../console/", import.meta.url));
const SCRIPT = "text/javascript; charset=utf-8";
const FILES: Readonly<Record<string, { file: string; type: string }>> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/console/console.css": { file: "console.css", type: "text/css; charset=utf-8" },
  ...Object.fromEntries(["console", "api", "dom", "overview", "pages"].map((name) => [`/console/${name}.js`, { file: `${name}.js`, type: SCRIPT }])),
};
/** Everything the page loads comes from here: no other origin, no inline script. */
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
};

function sendJson(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
  response.end(JSON.stringify(body));
}

/**
 * The console, served on the gateway's HTTP port: the page and its script and style at `/` and
 * `/console/…` (open: they hold no data; every datum comes from the API with the caller's token), plus
 * what only the console needs — `GET /api/whoami` (the token's team and whether it is admin) and
 * `GET /api/teams/{team}/sources` (the apps with a rule, and those the ledger has seen lately).
 */
export function createConsoleRoute(options: { auth: Authenticator; rules: SourceRules; ledger: Ledger }): HttpRoute {
  return async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://loupe.invalid").pathname;
    if (request.method !== "GET" && request.method !== "HEAD") return false;
    const asset = FILES[path];
    if (asset !== undefined) {
      const body = await readFile(ASSETS + asset.file);
      response.writeHead(200, { "content-type": asset.type, ...SECURITY_HEADERS });
      response.end(request.method === "HEAD" ? undefined : body);
      return true;
    }
    const sources = /^\/api\/teams\/([^/]+)\/sources\/?$/.exec(path);
    if (path !== "/api/whoami" && sources === null) return false;
    try {
      const principal = await httpPrincipal(options.auth, request);
      if (sources === null) {
        sendJson(response, { team: principal.tenant, admin: principal.admin });
        return true;
      }
      let team: string | undefined;
      try {
        team = decodeURIComponent(sources[1] ?? "");
      } catch {
        team = undefined;
      }
      if (team !== principal.tenant) throw new AppError("not_found", "no such team");
      const seen = await options.ledger.list(principal.tenant, { limit: 500 });
      const names = new Set([...(await options.rules.list(principal.tenant)), ...seen.entries.map((entry) => entry.source)]);
      names.delete("");
      sendJson(response, { sources: [...names].sort() });
    } catch (error) {
      sendHttpError(response, error);
    }
    return true;
  };
}
