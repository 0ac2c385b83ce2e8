import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { loadConfig } from "./config.js";

describe("archive loadConfig()", () => {
  it("defaults to the filesystem under ./.loupe", () => {
    const config = loadConfig({});
    assert.equal(config.backend, "auto");
    assert.equal(config.dataDir, "./.loupe");
    assert.equal(config.retentionDays, 7);
    assert.equal(config.sweepIntervalMs, 3_600_000);
  });

  it("reads the sweep interval, 0 turning the sweeper off", () => {
    assert.equal(loadConfig({ LOUPE_SWEEP_INTERVAL_MS: "0" }).sweepIntervalMs, 0);
    assert.equal(loadConfig({ LOUPE_SWEEP_INTERVAL_MS: "60000" }).sweepIntervalMs, 60_000);
    assert.throws(
      () => loadConfig({ LOUPE_SWEEP_INTERVAL_MS: "-1" }),
      (error: unknown) => isAppError(error) && error.message.includes("LOUPE_SWEEP_INTERVAL_MS"),
    );
  });

  it("reads the largest content kept in its record: 64 KiB by default, 0 for none, at most 256 KiB", () => {
    assert.equal(loadConfig({}).inlineMaxBytes, 65_536);
    assert.equal(loadConfig({ LOUPE_ARCHIVE_INLINE_BYTES: "0" }).inlineMaxBytes, 0);
    assert.throws(
      () => loadConfig({ LOUPE_ARCHIVE_INLINE_BYTES: String(256 * 1024 + 1) }),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument" && error.message.includes("LOUPE_ARCHIVE_INLINE_BYTES"),
    );
  });

  it("reads the S3 settings", () => {
    const config = loadConfig({
      LOUPE_ARCHIVE_BACKEND: "s3",
      LOUPE_S3_ENDPOINT: "http://127.0.0.1:7480",
      LOUPE_S3_BUCKET: "b",
      LOUPE_S3_FORCE_PATH_STYLE: "false",
    });
    assert.deepEqual(config.s3, { endpoint: "http://127.0.0.1:7480", bucket: "b", region: "us-east-1", forcePathStyle: false, requestTimeoutMs: 60_000 });
  });

  it("reports every bad variable at once", () => {
    assert.throws(
      () => loadConfig({ LOUPE_ARCHIVE_BACKEND: "tape", LOUPE_RETENTION_DAYS: "0", LOUPE_GRPC_PORT: "x" }),
      (error: unknown) =>
        isAppError(error) && ["LOUPE_ARCHIVE_BACKEND", "LOUPE_RETENTION_DAYS", "LOUPE_GRPC_PORT"].every((name) => error.message.includes(name)),
    );
  });
});

describe("archive loadConfig() retention per tenant", () => {
  it("reads tenant=days pairs and reports bad ones", () => {
    assert.deepEqual(loadConfig({ LOUPE_RETENTION_DAYS_BY_TENANT: "team-a=3, team_b=30" }).retentionDaysByTenant, { "team-a": 3, team_b: 30 });
    assert.throws(
      () => loadConfig({ LOUPE_RETENTION_DAYS_BY_TENANT: "team-a=0,Bad=3,x" }),
      (error: unknown) => isAppError(error) && (error.message.match(/LOUPE_RETENTION_DAYS_BY_TENANT/g) ?? []).length === 3,
    );
  });
});
