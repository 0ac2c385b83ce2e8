import { fileURLToPath } from "node:url";

/**
 * Where the real-trajectory corpus is: LOUPE_CORPUS_DIR, else `shared/corpus`
 * beside the repository (present on the development machines, absent from a
 * user's clone). Corpus tests skip when it is missing.
 */
export function corpusDir(): string {
  return process.env["LOUPE_CORPUS_DIR"] ?? fileURLToPath(new URL("../../../../../shared/corpus/", import.meta.url));
}
