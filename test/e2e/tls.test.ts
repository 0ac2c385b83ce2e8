import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { get } from "node:https";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createLoupeClient } from "@loupe/client";
import { isAppError } from "@loupe/errors";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { runLoupeCommand } from "../support/run-loupe-command.js";

// scripts/install-tools.sh installs openssl where it is missing.
const openssl = spawnSync("openssl", ["version"]).status === 0;

describe("TLS on the public ports (LOUPE_TLS_CERT_FILE, LOUPE_TLS_KEY_FILE)", { skip: openssl ? false : "openssl is not installed" }, () => {
  let loupe: EmbeddedLoupe;
  let cert: Buffer;

  before(async () => {
    loupe = await startEmbeddedLoupe({}, async (dataDir) => {
      // A self-signed certificate for 127.0.0.1, made by the openssl command line.
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-days",
          "1",
          "-subj",
          "/CN=127.0.0.1",
          "-addext",
          "subjectAltName=IP:127.0.0.1,DNS:localhost",
          "-keyout",
          join(dataDir, "key.pem"),
          "-out",
          join(dataDir, "cert.pem"),
        ],
        { stdio: "ignore" },
      );
      return { LOUPE_TLS_CERT_FILE: join(dataDir, "cert.pem"), LOUPE_TLS_KEY_FILE: join(dataDir, "key.pem") };
    });
    cert = readFileSync(join(loupe.dataDir, "cert.pem"));
  });
  after(() => loupe.stop());

  it("serves gRPC over TLS to a client that trusts the certificate, and refuses plaintext", async () => {
    const secure = createLoupeClient({ address: `127.0.0.1:${String(loupe.grpcPort)}`, tls: cert });
    const plain = createLoupeClient({ address: `127.0.0.1:${String(loupe.grpcPort)}`, retries: 0, timeoutMs: 3000 });
    try {
      const answer = await secure.project({
        sessionId: "tls",
        result: { toolName: "bash", parts: [{ content: { case: "text", value: "hello over tls\n" } }] },
      });
      assert.equal(answer.parts[0]?.content.case === "text" ? answer.parts[0].content.value : "", "hello over tls\n");
      await assert.rejects(
        plain.project({ sessionId: "tls", result: { toolName: "bash", parts: [{ content: { case: "text", value: "x" } }] } }),
        (error: unknown) => isAppError(error),
      );
    } finally {
      secure.close();
      plain.close();
    }
  });

  it("serves HTTPS, and the CLI reaches Loupe through LOUPE_TLS_CA_FILE", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      get({ host: "127.0.0.1", port: loupe.httpPort, path: "/healthz", ca: cert }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on("error", reject);
    });
    assert.equal(status, 200);
    const run = await runLoupeCommand(["project", "--tool", "bash"], "from the cli\n", {
      LOUPE_ADDR: `127.0.0.1:${String(loupe.grpcPort)}`,
      LOUPE_TLS_CA_FILE: join(loupe.dataDir, "cert.pem"),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "from the cli\n");
  });

  it("the post-tool hook and loupe exec reach Loupe over HTTPS (LOUPE_HTTP_URL https://…, LOUPE_TLS_CA_FILE)", async () => {
    const env = { LOUPE_HTTP_URL: `https://127.0.0.1:${String(loupe.httpPort)}`, LOUPE_TLS_CA_FILE: join(loupe.dataDir, "cert.pem") };
    const exec = await runLoupeCommand(["exec", "--", "seq 1 20000"], "", env);
    assert.equal(exec.code, 0, exec.stderr);
    assert.match(exec.stdout, /^\[loupe\] \$ seq 1 20000 · exit 0/);
    // Without the certificate to trust, the hook cannot verify Loupe's: it leaves the output alone and says why.
    const payload = {
      session_id: "tls",
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "x" },
      tool_response: { stdout: "x\n".repeat(20000), stderr: "" },
    };
    const untrusted = await runLoupeCommand(["hook", "post-tool-use"], JSON.stringify(payload), { LOUPE_HTTP_URL: env.LOUPE_HTTP_URL, LOUPE_TLS_CA_FILE: "" });
    assert.equal(untrusted.code, 0);
    assert.equal(untrusted.stdout, "");
    assert.match(untrusted.stderr, /projection failed \[addr=https:\/\/127\.0\.0\.1:\d+, .*(self.signed|certificate)/);
  });
});
