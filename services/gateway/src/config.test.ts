import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { DEFAULT_GRPC_PORT, loadConfig } from "./config.js";

describe("gateway loadConfig()", () => {
  it("has defaults that serve embedded mode", () => {
    const config = loadConfig({});
    assert.equal(config.grpcPort, DEFAULT_GRPC_PORT);
    assert.equal(config.httpPort, 8080);
    assert.equal(config.maxResultBytes, 64 * 1024 * 1024);
    assert.equal(config.archiveTimeoutMs, 2000);
    assert.equal(config.natsUrl, undefined);
    assert.equal(config.puts, "archive");
  });

  it("reads who writes saved results (LOUPE_GATEWAY_PUTS), refusing anything but archive or direct", () => {
    assert.equal(loadConfig({ LOUPE_GATEWAY_PUTS: "direct" }).puts, "direct");
    assert.throws(
      () => loadConfig({ LOUPE_GATEWAY_PUTS: "s3" }),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument" && error.message.includes("LOUPE_GATEWAY_PUTS"),
    );
  });

  it("reports every bad variable at once", () => {
    const env = { LOUPE_GRPC_PORT: "70000", LOUPE_HTTP_PORT: "http", LOUPE_ARCHIVE_ADDR: "nowhere", LOUPE_NATS_URL: "http://x", LOUPE_MAX_RESULT_BYTES: "-1" };
    assert.throws(
      () => loadConfig(env),
      (error: unknown) =>
        isAppError(error) &&
        error.code === "invalid_argument" &&
        ["LOUPE_GRPC_PORT", "LOUPE_HTTP_PORT", "LOUPE_ARCHIVE_ADDR", "LOUPE_NATS_URL", "LOUPE_MAX_RESULT_BYTES"].every((name) => error.message.includes(name)),
    );
  });
});
