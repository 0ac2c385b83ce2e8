import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The real-trajectory corpus files `names` (e.g. "swe-agent.jsonl.gz"): in LOUPE_CORPUS_DIR, else in
 * `shared/corpus` beside the repository (present on the development machines, absent from a user's clone),
 * and whether all of them are there — corpus tests skip when not.
 */
export function corpusFiles(names: readonly string[]): { dir: string; files: string[]; present: boolean } {
  const dir = process.env["LOUPE_CORPUS_DIR"] ?? fileURLToPath(new URL("../../../../../shared/corpus/", import.meta.url));
  const files = names.map((name) => join(dir, name));
  return { dir, files, present: files.every((file) => existsSync(file)) };
}
