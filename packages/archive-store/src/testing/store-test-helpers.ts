// What the archive-store adapters' tests share (tests only).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isAppError } from "@loupe/errors";
import type { ArchiveStore } from "../archive-store.js";

export const encoder = new TextEncoder();

/** The bytes as UTF-8 text. */
export const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** A streamed body of `parts`, one chunk each. */
export async function* chunksOf(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield encoder.encode(part);
}

/** Every key a listing yields. */
export async function collect(keys: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const key of keys) all.push(key);
  return all;
}

/** A matcher of an AppError with `code`, for assert.rejects. */
export function hasCode(code: string): (error: unknown) => boolean {
  return (error) => isAppError(error) && error.code === code;
}

/**
 * Runs `step` (statements of an ES module, run with tsx; `store` is an LMDB store on `folder`, `index` the
 * step's number) over and over in a child process that reports each step done on stdout, SIGKILLs it once
 * `acknowledgements` steps were done, and answers the last step done before the kill.
 */
export async function killLmdbSaveLoop(folder: string, step: string, acknowledgements: number): Promise<number> {
  const moduleUrl = pathToFileURL(join(import.meta.dirname, "..", "lmdb-archive-store.ts")).href;
  const script = `
    const { createLmdbArchiveStore } = await import(${JSON.stringify(moduleUrl)});
    const store = createLmdbArchiveStore({ directory: ${JSON.stringify(folder)} });
    for (let index = 0; ; index += 1) {
      ${step}
      process.stdout.write(index + "\\n");
    }`;
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let acknowledged = -1;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    for (const line of chunk.split("\n")) if (line !== "") acknowledged = Number(line);
    if (acknowledged >= acknowledgements) child.kill("SIGKILL");
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, exitSignal) => resolve(exitSignal)));
  if (signal !== "SIGKILL") throw new Error(`the child ended on its own [signal=${String(signal)}, acknowledged=${String(acknowledged)}]`);
  return acknowledged;
}

/**
 * Puts a few keys under `root` (ending with `/`) and checks `store.listFolders` against them: the folders
 * directly under a prefix in byte order (`a-b/` before `a/`), not the plain keys beside them, none under a
 * folder of plain keys or a missing one, and a prefix that is not a folder refused.
 */
export async function checkFolderListing(store: ArchiveStore, root: string): Promise<void> {
  const keys = ["a/1", "a/2", "a-b/x", "b/c/d", "top", "z9/deep/er/key"].map((key) => `${root}${key}`);
  for (const key of keys) await store.put(key, encoder.encode(key));
  assert.deepEqual(
    await collect(store.listFolders(root)),
    ["a-b/", "a/", "b/", "z9/"].map((folder) => `${root}${folder}`),
  );
  assert.deepEqual(await collect(store.listFolders(`${root}b/`)), [`${root}b/c/`]);
  assert.deepEqual(await collect(store.listFolders(`${root}a/`)), []);
  assert.deepEqual(await collect(store.listFolders(`${root}nothing/`)), []);
  await assert.rejects(collect(store.listFolders(root.slice(0, -1))), hasCode("invalid_argument"));
  await assert.rejects(collect(store.listFolders("../")), hasCode("invalid_argument"));
}
