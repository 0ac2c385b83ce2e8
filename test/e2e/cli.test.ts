import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startLoupeProcess } from "@loupe/testing";

describe("the loupe command", () => {
  it("stops at start-up with one message listing every bad variable", async () => {
    const loupe = startLoupeProcess(["serve"], { LOUPE_GRPC_PORT: "not-a-port", LOUPE_MAX_RESULT_BYTES: "huge", LOUPE_ARCHIVE_TIMEOUT_MS: "0" });
    assert.equal(await loupe.exited, 1);
    const output = loupe.lines.join("\n");
    for (const name of ["LOUPE_GRPC_PORT", "LOUPE_MAX_RESULT_BYTES", "LOUPE_ARCHIVE_TIMEOUT_MS"]) assert.match(output, new RegExp(name));
    assert.match(output, /3 problem\(s\)/);
  });

  it("refuses an unknown command with usage and exit code 2", async () => {
    const loupe = startLoupeProcess(["frobnicate"], {});
    assert.equal(await loupe.exited, 2);
    assert.match(loupe.lines.join("\n"), /unknown command "frobnicate"[\s\S]*usage: loupe/);
  });
});
