import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { corpusFiles } from "./eval-args.js";

describe("corpusFiles()", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-eval-args-"));
    await mkdir(join(dir, "trajs/django__django-1"), { recursive: true });
    await mkdir(join(dir, "nested"), { recursive: true });
    await mkdir(join(dir, "empty/inner"), { recursive: true });
    await writeFile(join(dir, "b.jsonl.gz"), "");
    await writeFile(join(dir, "a.jsonl"), "");
    await writeFile(join(dir, "notes.md"), "");
    await writeFile(join(dir, "trajs/django__django-1/django__django-1.traj.json"), "{}");
    await writeFile(join(dir, "nested/skipped.jsonl"), "");
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("takes a folder's own jsonl files and the trajectories anywhere under it, named by their path under the folder", async () => {
    assert.deepEqual(await corpusFiles([dir]), [
      join(dir, "a.jsonl"),
      join(dir, "b.jsonl.gz"),
      { path: join(dir, "trajs/django__django-1/django__django-1.traj.json"), name: "trajs/django__django-1/django__django-1.traj.json" },
    ]);
  });

  it("takes a file as it is, and refuses a path that does not exist or a folder with nothing to read", async () => {
    assert.deepEqual(await corpusFiles([join(dir, "notes.md")]), [join(dir, "notes.md")]);
    await assert.rejects(corpusFiles([join(dir, "missing")]), (error: unknown) => isAppError(error) && error.code === "not_found");
    await assert.rejects(corpusFiles([join(dir, "empty")]), (error: unknown) => isAppError(error) && error.code === "invalid_argument");
  });
});
