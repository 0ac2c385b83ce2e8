import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The long outputs committed with the project (packages/eval/data, see its README): the `.jsonl.gz` files
 * `loupe eval --corpus packages/eval/data` reads, in any clone (the development corpus beside it or not).
 */
export function evalDataFiles(): string[] {
  const dir = fileURLToPath(new URL("../../data/", import.meta.url));
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl.gz"))
    .map((name) => `${dir}${name}`);
}
