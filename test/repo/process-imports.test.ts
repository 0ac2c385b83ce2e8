import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { repoRoot } from "@loupe/testing";
import { importReach, loadedSpecifiers } from "./support/import-graph.js";

// A process loads only what it uses. The tokenizers' vocabularies cost a process about 30 MB of heap,
// 80 MB resident and most of a second to start: the archive never counts tokens, and the commands a
// runtime starts once per tool call (the hook, exec, project, recover) must start fast.
const root = repoRoot();

describe("what each process loads", () => {
  it("the archive service loads neither the projection package nor a tokenizer", () => {
    const reach = importReach(root, "services/archive/src/run.ts");
    assert.equal(reach.packages.get("gpt-tokenizer"), undefined);
    assert.deepEqual(
      reach.files.filter((file) => file.startsWith("packages/projection/") || file.startsWith("packages/conversation/")),
      [],
    );
    assert.ok(reach.files.includes("packages/archive-client/src/metadata-keys.ts"));
  });

  for (const command of ["hook/hook-command.ts", "exec/exec-command.ts", "client-commands.ts"]) {
    it(`loupe's ${command} loads no tokenizer`, () => {
      assert.equal(importReach(root, `services/loupe/src/${command}`).packages.get("gpt-tokenizer"), undefined);
    });
  }

  it("sees the tokenizer where it is loaded (the gateway counts tokens)", () => {
    assert.equal(importReach(root, "services/gateway/src/run.ts").packages.get("gpt-tokenizer"), "packages/projection/src/fast-count.ts");
  });
});

describe("loadedSpecifiers", () => {
  it("follows imports, re-exports, side-effect and dynamic imports, and skips type-only imports and comments", () => {
    const source = [
      `import { a, type B } from "./a.js";`,
      `import type { C } from "./types.js";`,
      `import {`,
      `  d,`,
      `  e,`,
      `} from "@loupe/errors";`,
      `export { f } from "./f.js";`,
      `export type { G } from "./g.js";`,
      `export * from "./h.js";`,
      `import "./side-effect.js";`,
      `// import { x } from "./commented.js";`,
      `/* import { y } from "./block-commented.js"; */`,
      `export const KEY = "x-loupe-tenant";`,
      `const lazy = async () => (await import("./lazy.js")).run();`,
    ].join("\n");
    assert.deepEqual(loadedSpecifiers(source).sort(), ["./a.js", "./f.js", "./h.js", "./lazy.js", "./side-effect.js", "@loupe/errors"]);
  });
});
