import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";
import { createTokenWithCli, runHook, runLoupeCommand } from "../support/run-loupe-command.js";

// The post-tool hook and `loupe exec` call Project over HTTP/JSON (LOUPE_HTTP_URL, or the local default)
// when they can: the same answers as over gRPC, without loading gRPC's client in a process started per call.
const OPERATOR = randomBytes(24).toString("base64url");

const bashPayload = (stdout: string, session: string) => ({
  session_id: session,
  hook_event_name: "PostToolUse",
  tool_name: "Bash",
  tool_input: { command: "./gen.sh" },
  tool_use_id: "toolu_http",
  tool_response: { stdout, stderr: "", interrupted: false, isImage: false },
});

const readPayload = (content: string, session: string) => ({
  session_id: session,
  hook_event_name: "PostToolUse",
  tool_name: "Read",
  tool_input: { file_path: "/w/rows.txt" },
  tool_use_id: "toolu_read",
  tool_response: { type: "text", file: { filePath: "/w/rows.txt", content, numLines: 6000, startLine: 1, totalLines: 6001 } },
});

// Result ids differ between two saves; everything else of the answer must not.
const withoutIds = (stdout: string): string => stdout.replace(/r_[A-Za-z0-9_-]{8,}/g, "r_ID");

describe("the hook and loupe exec over HTTP", () => {
  let loupe: EmbeddedLoupe;
  let http: string;
  let grpc: string;
  let token: string;

  before(async () => {
    loupe = await startEmbeddedLoupe({ LOUPE_AUTH: "tokens", LOUPE_ADMIN_TOKEN: OPERATOR });
    http = `http://127.0.0.1:${String(loupe.httpPort)}`;
    grpc = `127.0.0.1:${String(loupe.grpcPort)}`;
    token = await createTokenWithCli(grpc, OPERATOR, ["--tenant", "team-http"]);
  });
  after(async () => {
    await loupe.stop();
  });

  it("answers a Bash and a Read over HTTP byte for byte as over gRPC", async () => {
    const log = numberedLines(6000);
    for (const payload of [bashPayload(log, "http-same"), readPayload(log, "http-same")]) {
      const overHttp = await runHook("post-tool-use", payload, { LOUPE_HTTP_URL: http, LOUPE_TOKEN: token });
      const overGrpc = await runHook("post-tool-use", payload, { LOUPE_ADDR: grpc, LOUPE_TOKEN: token });
      assert.equal(overHttp.code, 0, overHttp.stderr);
      assert.equal(overHttp.stderr, "");
      assert.match(overHttp.stdout, /\[loupe\] lines [\d,]+–[\d,]+ of 6,000 omitted/);
      assert.equal(withoutIds(overHttp.stdout), withoutIds(overGrpc.stdout));
    }
  });

  it("sends the token: without it Loupe refuses, and the hook leaves the output as it is", async () => {
    const refused = await runHook("post-tool-use", bashPayload(numberedLines(6000), "http-refused"), { LOUPE_HTTP_URL: http, LOUPE_TOKEN: "" });
    assert.equal(refused.code, 0);
    assert.equal(refused.stdout, "");
    assert.match(refused.stderr, new RegExp(`projection failed \\[addr=${http}, timeout_ms=2000, error=HTTP 401: unauthenticated`));
  });

  it("falls back to gRPC when nothing listens on the HTTP port or another server answers there, and says where it tried when neither answers", async () => {
    const closed = "http://127.0.0.1:1";
    const { fallingBack, grpcCaller, httpCaller } = await import("../../services/loupe/src/project-call/project-call.js");
    const env = { ...process.env, LOUPE_TOKEN: token };
    const request = {
      sessionId: "http-fallback",
      source: "test",
      result: { toolName: "bash", argsJson: "", isError: false, parts: [{ kind: "text" as const, value: numberedLines(6000) }] },
    };
    const answer = await fallingBack(httpCaller(closed, { token, ca: undefined }), grpcCaller(env, grpc, 64 << 20)).project(request, 5000);
    assert.match(answer.parts.map((part) => part.value).join(""), /of 6,000 omitted/);
    assert.notEqual(answer.resultId, "");
    // Another server on the port (a development server on 8080): its 404 page is not Loupe's answer, so the other way is taken.
    const other = createServer((_request, response) => response.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>"));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    try {
      const otherUrl = `http://127.0.0.1:${String((other.address() as AddressInfo).port)}`;
      const viaOther = await fallingBack(httpCaller(otherUrl, { token, ca: undefined }), grpcCaller(env, grpc, 64 << 20)).project(request, 5000);
      assert.notEqual(viaOther.resultId, "");
      const alone = await runHook("post-tool-use", bashPayload(numberedLines(6000), "http-other"), { LOUPE_HTTP_URL: otherUrl });
      assert.match(alone.stderr, /projection failed .*HTTP 404: not JSON: <h1>Not Found<\/h1> \(not Loupe's answer\)/);
    } finally {
      other.close();
    }
    const down = await runHook("post-tool-use", bashPayload(numberedLines(6000), "http-down"), { LOUPE_HTTP_URL: closed });
    assert.equal(down.code, 0);
    assert.equal(down.stdout, "");
    assert.match(down.stderr, /projection failed \[addr=http:\/\/127\.0\.0\.1:1, .*ECONNREFUSED/);
  });

  it("loupe exec projects over HTTP and keeps the command's status", async () => {
    const exec = await runLoupeCommand(["exec", "--session", "http-exec", "--", "seq 1 20000; exit 3"], "", { LOUPE_HTTP_URL: http, LOUPE_TOKEN: token });
    assert.equal(exec.code, 3, exec.stderr);
    assert.match(exec.stdout, /^\[loupe\] \$ seq 1 20000; exit 3 · exit 3/);
    assert.match(exec.stdout, /\n20000\n/);
    assert.match(exec.stdout, /\[loupe\] lines [\d,]+–[\d,]+ of 20,000 omitted/);
  });
});
