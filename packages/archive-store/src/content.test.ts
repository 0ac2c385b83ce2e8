import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** Every module `file` imports, transitively through relative imports: the module specifiers it reaches. */
function reached(file: string, seen = new Set<string>()): Set<string> {
  const specifiers = new Set<string>();
  if (seen.has(file)) return specifiers;
  seen.add(file);
  for (const match of readFileSync(file, "utf8").matchAll(/^(?:import|export)[^"']*from\s+["']([^"']+)["']/gm)) {
    const specifier = match[1] ?? "";
    if (!specifier.startsWith(".")) specifiers.add(specifier);
    else for (const inner of reached(join(dirname(file), specifier.replace(/\.js$/, ".ts")), seen)) specifiers.add(inner);
  }
  return specifiers;
}

describe("@loupe/archive-store/content", () => {
  it("loads no storage adapter: importing it reaches no AWS SDK (the gateway imports it)", () => {
    const external = [...reached(join(here, "content.ts"))];
    assert.deepEqual(
      external.filter((specifier) => specifier.startsWith("@aws-sdk") || specifier.startsWith("node:fs")),
      [],
    );
  });
});
