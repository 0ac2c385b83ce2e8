import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { startLoupeProcess } from "@loupe/testing";
import { startEmbeddedLoupe } from "../support/embedded-loupe.js";

describe("the loupe command", () => {
  it("stops at start-up with one message listing every bad variable", async () => {
    const loupe = startLoupeProcess(["serve"], { LOUPE_GRPC_PORT: "not-a-port", LOUPE_MAX_RESULT_BYTES: "huge", LOUPE_ARCHIVE_TIMEOUT_MS: "0" });
    assert.equal(await loupe.exited, 1);
    const output = loupe.lines.join("\n");
    for (const name of ["LOUPE_GRPC_PORT", "LOUPE_MAX_RESULT_BYTES", "LOUPE_ARCHIVE_TIMEOUT_MS"]) assert.match(output, new RegExp(name));
    assert.match(output, /3 problem\(s\)/);
  });

  it("says in one line, without a stack, when a continuation is malformed or Loupe cannot be reached", async () => {
    for (const [args, message] of [
      [["recover", "{bad"], /^loupe: the continuation is not JSON: pass it as the view printed it/],
      [["recover", '{"resultid":"r_x"}'], /^loupe: the continuation is not a Recover request \[.*"resultid" is unknown/],
      [["recover", '{"result_id":"r_x","start_line":1}', "--budget", "lots"], /^loupe: --budget must be a whole number/],
      [["recover", '{"result_id":"r_x","start_line":1}', "--addr", "127.0.0.1:1"], /^loupe: cannot reach Loupe at 127\.0\.0\.1:1: start it \(loupe serve\)/],
      [["project", "--file", "/nonexistent/output.log"], /^loupe: --file cannot be read \[file=\/nonexistent\/output\.log, error=ENOENT\]/],
      [
        ["project", "--file", "/dev/null", "--intent-file", "/nonexistent/intent.txt"],
        /^loupe: --intent-file cannot be read \[file=\/nonexistent\/intent\.txt, error=ENOENT\]/,
      ],
    ] as const) {
      const loupe = startLoupeProcess(args, {});
      assert.equal(await loupe.exited, 1, args.join(" "));
      assert.match(loupe.lines.join("\n"), message);
      assert.equal(loupe.lines.filter((line) => line.trim() !== "").length, 1, loupe.lines.join("\n"));
    }
  });

  it("refuses an unknown command with usage and exit code 2", async () => {
    const loupe = startLoupeProcess(["frobnicate"], {});
    assert.equal(await loupe.exited, 2);
    assert.match(loupe.lines.join("\n"), /unknown command "frobnicate"[\s\S]*usage: loupe/);
  });
});

describe("the loupe command's logs", () => {
  it("say the embedded archive is called in process (no port, no socket), and log a caller's error at info, not error", async () => {
    const loupe = await startEmbeddedLoupe();
    try {
      const archive = JSON.parse(await loupe.process.waitFor(/"archive started"/)) as Record<string, unknown>;
      assert.equal(archive["grpcPort"], undefined);
      assert.equal(archive["grpcAddress"], undefined);
      assert.equal(archive["grpc"], "in-process");
      await assert.rejects(
        loupe.client.recover({ resultId: "r_0123456789abcdefghijABCDEFGHIJ_-", startLine: 1, endLine: 2 }),
        (error: unknown) => isAppError(error) && error.code === "not_found",
      );
      const failed = JSON.parse(await loupe.process.waitFor(/"gateway call failed"/)) as Record<string, unknown>;
      assert.equal(failed["level"], "info");
      assert.equal(failed["code"], "not_found");
    } finally {
      await loupe.stop();
    }
  });
});
