import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { findCorpusFiles } from "./find-corpus-files.js";

describe("findCorpusFiles()", () => {
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
    await mkdir(join(dir, "sessions/2026/12/07"), { recursive: true });
    await writeFile(join(dir, "sessions/2026/12/07/rollout-2026-12-07T10-00-00-s1.jsonl"), "");
    await mkdir(join(dir, "tmp/work/chats"), { recursive: true });
    await writeFile(join(dir, "tmp/work/chats/session-2026-12-07T10-00-s1.jsonl"), "");
    await writeFile(join(dir, "tmp/work/logs.json"), "");
    await mkdir(join(dir, "-home-me-app/0f3c9a1e-1b2c-4d5e-8f90-a1b2c3d4e5f6/subagents"), { recursive: true });
    await writeFile(join(dir, "-home-me-app/0f3c9a1e-1b2c-4d5e-8f90-a1b2c3d4e5f6.jsonl"), "");
    await writeFile(join(dir, "-home-me-app/0f3c9a1e-1b2c-4d5e-8f90-a1b2c3d4e5f6/subagents/agent-1.jsonl"), "");
    await writeFile(join(dir, "nested/skipped.jsonl"), "");
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("takes a folder's own jsonl files, and the trajectories and saved sessions in its folders, named by their path under it", async () => {
    const under = (name: string): { path: string; name: string } => ({ path: join(dir, name), name });
    assert.deepEqual(await findCorpusFiles([dir]), [
      join(dir, "a.jsonl"),
      join(dir, "b.jsonl.gz"),
      under("-home-me-app/0f3c9a1e-1b2c-4d5e-8f90-a1b2c3d4e5f6.jsonl"),
      under("sessions/2026/12/07/rollout-2026-12-07T10-00-00-s1.jsonl"),
      under("tmp/work/chats/session-2026-12-07T10-00-s1.jsonl"),
      under("trajs/django__django-1/django__django-1.traj.json"),
    ]);
  });

  it("takes a file as it is, and refuses a path that does not exist or a folder with nothing to read", async () => {
    assert.deepEqual(await findCorpusFiles([join(dir, "notes.md")]), [join(dir, "notes.md")]);
    await assert.rejects(findCorpusFiles([join(dir, "missing")]), (error: unknown) => isAppError(error) && error.code === "not_found");
    await assert.rejects(findCorpusFiles([join(dir, "empty")]), (error: unknown) => isAppError(error) && error.code === "invalid_argument");
  });
});
