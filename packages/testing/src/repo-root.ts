import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace root (the folder with pnpm-workspace.yaml) above this package. */
export function repoRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, "pnpm-workspace.yaml"))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error("pnpm-workspace.yaml not found above @loupe/testing");
    directory = parent;
  }
  return directory;
}
