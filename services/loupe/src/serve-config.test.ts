import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { loadServeConfig } from "./serve-config.js";

describe("loadServeConfig()", () => {
  it("keeps the archive under the data dir: auto by default, files or an LMDB database when asked", () => {
    assert.equal(loadServeConfig({ LOUPE_DATA_DIR: "/tmp/loupe-x" }).archive.backend, "auto");
    assert.equal(loadServeConfig({ LOUPE_DATA_DIR: "/tmp/loupe-x", LOUPE_ARCHIVE_BACKEND: "fs" }).archive.backend, "fs");
    const lmdb = loadServeConfig({ LOUPE_DATA_DIR: "/tmp/loupe-x", LOUPE_ARCHIVE_BACKEND: "lmdb" });
    assert.equal(lmdb.archive.backend, "lmdb");
    assert.equal(lmdb.archive.dataDir, "/tmp/loupe-x");
  });

  it("refuses an archive off this machine, naming the choices", () => {
    assert.throws(
      () => loadServeConfig({ LOUPE_DATA_DIR: "/tmp/loupe-x", LOUPE_ARCHIVE_BACKEND: "s3" }),
      (error: unknown) =>
        isAppError(error) && error.code === "invalid_argument" && /LOUPE_ARCHIVE_BACKEND/.test(JSON.stringify(error.problems ?? error.message)),
    );
  });
});
