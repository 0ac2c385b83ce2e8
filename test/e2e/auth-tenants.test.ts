import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createLoupeClient, type LoupeClient } from "@loupe/client";
import { isAppError } from "@loupe/errors";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";
import { createTokenWithCli, runLoupeCommand } from "../support/run-loupe-command.js";

const OPERATOR = randomBytes(24).toString("base64url");
const code = (expected: string) => (error: unknown) => isAppError(error) && error.code === expected;

describe("tenants from tokens (LOUPE_AUTH=tokens): another tenant's ids name nothing", () => {
  let loupe: EmbeddedLoupe;
  let address: string;
  let tokenA: string;
  let tokenB: string;
  let adminA: string;
  let a: LoupeClient;
  let b: LoupeClient;
  const http = (path: string, token: string | undefined, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${String(loupe.httpPort)}${path}`, {
      ...init,
      headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(init.headers as Record<string, string> | undefined) },
    });

  /** `loupe token create` as an operator runs it. */
  const createToken = (...args: string[]): Promise<string> => createTokenWithCli(address, OPERATOR, args);

  before(async () => {
    loupe = await startEmbeddedLoupe({ LOUPE_AUTH: "tokens", LOUPE_ADMIN_TOKEN: OPERATOR });
    address = `127.0.0.1:${String(loupe.grpcPort)}`;
    tokenA = await createToken("--tenant", "team-a");
    adminA = await createToken("--tenant", "team-a", "--admin", "--expires-in", "30");
    tokenB = await createToken("--tenant", "team-b");
    a = createLoupeClient({ address, token: tokenA });
    b = createLoupeClient({ address, token: tokenB });
  });
  after(async () => {
    a.close();
    b.close();
    await loupe.stop();
  });

  it("refuses calls without a valid token (UNAUTHENTICATED, 401) and keeps /healthz open", async () => {
    const anonymous = createLoupeClient({ address });
    try {
      await assert.rejects(
        anonymous.project({ sessionId: "s", result: { toolName: "bash", parts: [{ content: { case: "text", value: "x" } }] } }),
        code("unauthenticated"),
      );
    } finally {
      anonymous.close();
    }
    const forged = createLoupeClient({ address, token: `lp_${"a".repeat(12)}_${"b".repeat(43)}` });
    try {
      await assert.rejects(forged.recover({ resultId: "r_" + "x".repeat(32) }), code("unauthenticated"));
    } finally {
      forged.close();
    }
    assert.equal((await http("/v1/project", undefined, { method: "POST", body: "{}" })).status, 401);
    assert.equal((await http("/healthz", undefined)).status, 200);
  });

  it("gives tenant B exactly what an id that never existed gets, for every id it can form from A's traffic", async () => {
    const saved = await a.project({
      sessionId: "a-session",
      source: "a-app",
      result: { toolName: "bash", parts: [{ content: { case: "text", value: numberedLines(3000) } }] },
    });
    assert.ok(saved.archived && saved.resultId !== "");
    const page = await a.recover({ resultId: saved.resultId, startLine: 1, endLine: 3000, budgetTokens: 200 });
    assert.notEqual(page.nextCursor, "");
    await a.appendTurns({
      sessionId: "a-session",
      source: "a-app",
      turns: [{ seq: 1, role: "user", parts: [{ content: { case: "text", value: "the secret plan of team A" } }] }],
      contextWindowTokens: 100_000,
    });
    await a.putNote({ sessionId: "a-session", text: "A's note", coveredThroughSeq: 1 }).catch(() => undefined);

    // What B gets for A's ids is what it gets for ids that never existed.
    const never = "r_" + randomBytes(24).toString("base64url").slice(0, 32);
    for (const resultId of [saved.resultId, never]) {
      await assert.rejects(b.recover({ resultId, startLine: 1 }), code("not_found"), resultId);
      await assert.rejects(b.recover({ resultId, pattern: "row" }), code("not_found"), resultId);
      await assert.rejects(b.recover({ resultId, jsonPointer: "" }), code("not_found"), resultId);
    }
    await assert.rejects(b.recover({ cursor: page.nextCursor }), code("invalid_argument"), "a cursor of another tenant is refused as malformed");
    const outcome = async (sessionId: string): Promise<string[]> =>
      Promise.all(
        [
          b.readHistory({ sessionId, address: "turn:1" }).then((answer) => `text:${answer.text}`),
          b.searchHistory({ sessionId, query: "secret" }).then((answer) => `hits:${String(answer.hits.length)}`),
          b.getNote({ sessionId }).then((answer) => `note:${answer.note?.text ?? ""}`),
        ].map((call) => call.catch((error: unknown) => (isAppError(error) ? error.code : "other"))),
      );
    assert.deepEqual(await outcome("a-session"), await outcome("never-session"), "A's session cannot be told to exist");
    const deleted = await b.deleteResults({ target: { case: "sessionId", value: "a-session" } });
    assert.equal(deleted.resultsDeleted, 0, "nothing deleted");
    // A's data is untouched.
    const still = await a.recover({ resultId: saved.resultId, startLine: 1, endLine: 1 });
    assert.match(still.parts[0]?.content.case === "text" ? still.parts[0].content.value : "", /row 00001/);
    assert.match((await a.searchHistory({ sessionId: "a-session", query: "secret" })).hits[0]?.address ?? "", /^turn:1$/);
  });

  it("answers another team's REST paths as a team that does not exist, and keeps rules behind the admin scope", async () => {
    assert.equal((await http("/api/teams/team-a/source-limits?source=a-app", tokenB)).status, 404);
    assert.equal((await http("/api/teams/team-nobody/source-limits?source=a-app", tokenB)).status, 404);
    assert.equal((await http("/api/teams/team-a/sessions/a-session", tokenB, { method: "DELETE" })).status, 404);
    assert.equal(
      (await http("/api/teams/team-a/source-limits?source=a-app", tokenA, { method: "PUT", body: JSON.stringify({ keep_limit_chars: 9000 }) })).status,
      403,
    );
    await assert.rejects(a.setSourceLimit({ source: "a-app", limit: { keepLimitChars: 9000 } }), code("permission_denied"));
    const admin = createLoupeClient({ address, token: adminA });
    try {
      await admin.setSourceLimit({ source: "a-app", limit: { keepLimitChars: 9000 } });
      assert.equal((await a.getSourceLimit({ source: "a-app" })).limit?.keepLimitChars, 9000);
      assert.equal((await b.getSourceLimit({ source: "a-app" })).limit?.keepLimitChars, 0, "B sees its own (default) rule for the same app name");
    } finally {
      admin.close();
    }
    assert.equal((await http("/api/teams/team-b", tokenB, { method: "DELETE" })).status, 403, "deleting a whole team needs an admin token");
  });

  it("lets the MCP server's set_app_limit follow the token's scope, and the proxy read x-loupe-token", async () => {
    const mcpFor = async (token: string): Promise<Client> => {
      const client = new Client({ name: "auth-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${String(loupe.httpPort)}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    };
    const member = await mcpFor(tokenA);
    const admin = await mcpFor(adminA);
    try {
      const refused = await member.callTool({ name: "set_app_limit", arguments: { source: "a-app", keep_limit_chars: 12000 } });
      assert.equal(refused.isError, true);
      const allowed = await admin.callTool({ name: "set_app_limit", arguments: { source: "a-app", keep_limit_chars: 12000 } });
      assert.equal(allowed.isError, undefined, JSON.stringify(allowed.content));
    } finally {
      await member.close();
      await admin.close();
    }
    const proxied = await http("/v1/messages", undefined, {
      method: "POST",
      headers: { "x-loupe-source": "a-app", "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(proxied.status, 401, "the proxy needs x-loupe-token when auth is on");
  });

  it("keeps a token made for some apps (--source) to those apps", async () => {
    const scoped = createLoupeClient({ address, token: await createToken("--tenant", "team-a", "--source", "a-app") });
    try {
      const ok = await scoped.project({
        sessionId: "scoped",
        source: "a-app",
        result: { toolName: "bash", parts: [{ content: { case: "text", value: "fine\n" } }] },
      });
      assert.equal(ok.parts.length, 1);
      await assert.rejects(
        scoped.project({ sessionId: "scoped", source: "b-app", result: { toolName: "bash", parts: [{ content: { case: "text", value: "x" } }] } }),
        code("permission_denied"),
      );
      await assert.rejects(scoped.getSourceLimit({ source: "b-app" }), code("permission_denied"));
    } finally {
      scoped.close();
    }
  });

  it("lists tokens without ever printing one, and revokes them", async () => {
    const listed = await runLoupeCommand(["token", "list", "--tenant", "team-a"], "", { LOUPE_ADDR: address, LOUPE_TOKEN: OPERATOR });
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout.trim().split("\n");
    assert.equal(lines.length, 3);
    assert.ok(!listed.stdout.includes(tokenA) && !listed.stdout.includes(adminA), "tokens are never shown again");
    assert.ok(lines.some((line) => / tenant=team-a {2}admin {2}created=\S+ {2}expires=20/.test(line)));
    const refused = await runLoupeCommand(["token", "list"], "", { LOUPE_ADDR: address, LOUPE_TOKEN: tokenA });
    assert.notEqual(refused.code, 0, "only the operator manages tokens");
    // lp_<12-character id>_<secret>: the id may itself hold "_" or "-".
    const id = tokenB.slice(3, 15);
    const revoked = await runLoupeCommand(["token", "revoke", id], "", { LOUPE_ADDR: address, LOUPE_TOKEN: OPERATOR });
    assert.equal(revoked.code, 0, revoked.stderr);
    await assert.rejects(b.getSourceLimit({ source: "a-app" }), code("unauthenticated"));
  });
});
