// What the archive-store adapters' tests share (tests only).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isAppError } from "@loupe/errors";

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
