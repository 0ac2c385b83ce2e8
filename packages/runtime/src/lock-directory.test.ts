import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { lockDirectory } from "./index.js";

const options = { fileName: "test.lock", label: "test dir" };
const refused = (pattern: RegExp) => (error: unknown) => isAppError(error) && error.code === "failed_precondition" && pattern.test(error.message);

describe("lockDirectory()", () => {
  it("holds a directory for one owner at a time and releases it", async () => {
    const directory = await mkdtemp(join(tmpdir(), "loupe-lock-"));
    try {
      const unlock = await lockDirectory(directory, options);
      assert.equal((await readFile(join(directory, "test.lock"), "utf8")).trim(), String(process.pid));
      await assert.rejects(lockDirectory(directory, options), refused(/already open in this process/));
      await unlock();
      const again = await lockDirectory(directory, options);
      await again();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("refuses a directory a live process holds and takes over a lock whose process is gone", async () => {
    const directory = await mkdtemp(join(tmpdir(), "loupe-lock-"));
    try {
      await writeFile(join(directory, "test.lock"), String(process.ppid));
      await assert.rejects(lockDirectory(directory, options), refused(/test dir is in use by another process/));
      await writeFile(join(directory, "test.lock"), "2147483646");
      const unlock = await lockDirectory(directory, options);
      await unlock();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
