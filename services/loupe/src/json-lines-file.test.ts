import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { openJsonLinesFile } from "./json-lines-file.js";

describe("openJsonLinesFile", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-json-lines-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes each batch of records as they come, one JSON object a line, and replaces what the file held", async () => {
    const path = join(dir, "views.jsonl");
    const first = await openJsonLinesFile("--views", path);
    first.write([{ a: 1 }]);
    await first.close();
    const file = await openJsonLinesFile("--views", path);
    file.write([{ a: 2 }, { b: "x\ny" }]);
    file.write([]);
    file.write([{ c: null }]);
    await file.close();
    assert.equal(await readFile(path, "utf8"), '{"a":2}\n{"b":"x\\ny"}\n{"c":null}\n');
  });

  it("refuses a path it cannot write before anything is done, naming the flag and the path", async () => {
    const path = join(dir, "missing", "misses.jsonl");
    await assert.rejects(openJsonLinesFile("--misses", path), (error: unknown) => {
      assert.ok(isAppError(error) && error.code === "invalid_argument", String(error));
      assert.match(error.message, /--misses file cannot be written \[path=.*missing.*misses\.jsonl/);
      return true;
    });
  });
});
