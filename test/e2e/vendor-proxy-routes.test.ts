import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { freePort, startVendorServer, type VendorServer } from "@loupe/testing";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";

const long = numberedLines(1500);
const geminiBody = (tool: string) =>
  JSON.stringify({
    contents: [
      { role: "user", parts: [{ text: "run the tests" }] },
      { role: "model", parts: [{ functionCall: { name: tool, args: { command: "make test" } } }] },
      { role: "user", parts: [{ functionResponse: { name: tool, response: { output: long } } }] },
    ],
  });

describe("vendor proxy routes: only known vendor routes, each to its own vendor, errors in the vendor's shape", () => {
  const vendors: Record<"anthropic" | "openai" | "gemini", VendorServer> = {} as never;
  let loupe: EmbeddedLoupe;
  const base = () => `http://127.0.0.1:${String(loupe.httpPort)}`;
  const total = () => Object.values(vendors).reduce((sum, vendor) => sum + vendor.received.length, 0);

  before(async () => {
    for (const name of ["anthropic", "openai", "gemini"] as const) vendors[name] = await startVendorServer();
    loupe = await startEmbeddedLoupe({
      LOUPE_ANTHROPIC_BASE_URL: vendors.anthropic.url,
      LOUPE_OPENAI_BASE_URL: vendors.openai.url,
      LOUPE_GEMINI_BASE_URL: vendors.gemini.url,
    });
    const rule = await fetch(`${base()}/api/teams/local/source-limits?source=gemini-cli`, {
      method: "PUT",
      body: JSON.stringify({ keep_limit_chars: 8000, keep_tools: { values: ["run_shell_command"] } }),
    });
    assert.equal(rule.status, 200);
  });
  after(async () => {
    await loupe.stop();
    for (const vendor of Object.values(vendors)) await vendor.close();
  });

  it("answers a mistyped Loupe call 404 and sends nothing to any vendor", async () => {
    const before = total();
    for (const path of ["/v1/project/", "/v1/recovr", "/v1/messages/batches", "/v1beta/files"]) {
      const answer = await fetch(`${base()}${path}`, {
        method: "POST",
        headers: { authorization: "Bearer k", "x-api-key": "k" },
        body: JSON.stringify({ result: { parts: [{ text: "secret tool output" }] } }),
      });
      assert.equal(answer.status, 404, path);
      const body = (await answer.json()) as { code: string; message: string };
      assert.equal(body.code, "not_found");
      assert.match(body.message, /no Loupe endpoint and no proxied vendor route/);
    }
    assert.equal(total(), before, "no request left Loupe");
  });

  it("speaks Gemini (v1beta and v1): to the Gemini upstream only, its key with it, results cut per the app's rule", async () => {
    for (const path of [
      "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
      "/v1/models/gemini-2.5-pro:generateContent",
      "/v1beta/models/gemini-2.5-pro:countTokens",
    ]) {
      const answer = await fetch(`${base()}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-goog-api-key": "g-key", "x-loupe-source": "gemini-cli" },
        body: geminiBody("run_shell_command"),
      });
      assert.equal(answer.status, 200, path);
      const received = vendors.gemini.received.at(-1);
      assert.equal(received?.path, path);
      assert.equal(received?.headers["x-goog-api-key"], "g-key");
      const sent = JSON.parse(received?.body.toString("utf8") ?? "{}") as {
        contents: Array<{ parts: Array<{ functionResponse?: { response: { output: string } } }> }>;
      };
      assert.match(sent.contents[2]?.parts[0]?.functionResponse?.response.output ?? "", /\n\[loupe: lines [\d,]+–[\d,]+ of 1,500 omitted/);
    }
    assert.equal(vendors.openai.received.length + vendors.anthropic.received.length, 0, "no Gemini request reached another vendor");
    const models = await fetch(`${base()}/v1beta/models`, { headers: { "x-goog-api-key": "g-key" } });
    assert.equal(models.status, 200);
    assert.equal(vendors.gemini.received.at(-1)?.path, "/v1beta/models");
  });

  it("never sends one vendor's credentials to another", async () => {
    await fetch(`${base()}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer o-key", "x-goog-api-key": "g-key", "x-api-key": "a-key" },
      body: JSON.stringify({ model: "gpt", messages: [{ role: "user", content: "hi" }] }),
    });
    const received = vendors.openai.received.at(-1);
    assert.equal(received?.headers["authorization"], "Bearer o-key");
    assert.equal(received?.headers["x-goog-api-key"], undefined);
    assert.equal(received?.headers["x-api-key"], undefined);
    await fetch(`${base()}/v1/models?key=g-key`);
    assert.equal(vendors.gemini.received.at(-1)?.path, "/v1/models?key=g-key", "a model list with Gemini's key parameter goes to Gemini");
  });

  it("forwards a body it cannot read as it is, so the vendor answers in its own words", async () => {
    const answer = await fetch(`${base()}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "a-key", "anthropic-version": "2023-06-01", "x-loupe-source": "gemini-cli" },
      body: "{not json",
    });
    assert.equal(answer.status, 400);
    const body = (await answer.json()) as { type: string; error: { type: string } };
    assert.equal(body.type, "error");
    assert.equal(vendors.anthropic.received.at(-1)?.body.toString("utf8"), "{not json");
  });

  it("answers an unreachable upstream in the vendor's error shape", async () => {
    const closed = `http://127.0.0.1:${String(await freePort())}`;
    const offline = await startEmbeddedLoupe({
      LOUPE_ANTHROPIC_BASE_URL: closed,
      LOUPE_OPENAI_BASE_URL: closed,
      LOUPE_GEMINI_BASE_URL: closed,
      LOUPE_MAX_RESULT_BYTES: "4096",
    });
    try {
      const url = `http://127.0.0.1:${String(offline.httpPort)}`;
      const anthropic = await fetch(`${url}/v1/messages`, { method: "POST", headers: { "x-api-key": "k" }, body: "{}" });
      assert.equal(anthropic.status, 502);
      assert.deepEqual(Object.keys(((await anthropic.json()) as { error: object }).error), ["type", "message"]);
      const openai = await fetch(`${url}/v1/responses`, { method: "POST", body: "{}" });
      assert.equal(((await openai.json()) as { error: { type: string } }).error.type, "server_error");
      const gemini = await fetch(`${url}/v1beta/models/m:generateContent`, { method: "POST", body: "x".repeat(10_000) });
      assert.equal(gemini.status, 413);
      assert.equal(((await gemini.json()) as { error: { status: string } }).error.status, "INVALID_ARGUMENT");
    } finally {
      await offline.stop();
    }
  });

  it("says when the app's keep_tools cannot cut anything of its requests (the answer header and the rule's GET)", async () => {
    await fetch(`${base()}/api/teams/local/source-limits?source=codex`, { method: "PUT", body: JSON.stringify({ keep_limit_chars: 8000 }) });
    const body = JSON.stringify({
      model: "gpt",
      input: [
        { type: "function_call", call_id: "c1", name: "exec_command", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: long },
      ],
    });
    const answer = await fetch(`${base()}/v1/responses`, { method: "POST", headers: { authorization: "Bearer o", "x-loupe-source": "codex" }, body });
    assert.match(answer.headers.get("x-loupe-warning") ?? "", /names none of this app's tools \(exec_command\)/);
    assert.equal(vendors.openai.received.at(-1)?.body.toString("utf8"), body, "nothing was cut");
    const rule = (await (await fetch(`${base()}/api/teams/local/source-limits?source=codex`)).json()) as {
      recent_tools: string[];
      keep_tools_matched: boolean;
      warning: string;
    };
    assert.deepEqual(rule.recent_tools, ["exec_command"]);
    assert.equal(rule.keep_tools_matched, false);
    assert.match(rule.warning, /add the shell tool's name to keep_tools/);
  });
});
