import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, it } from "node:test";
import { opencodePluginSource } from "./opencode-plugin.js";

const run = promisify(execFile);

describe("opencodePluginSource()", () => {
  it("is a module that parses (OpenCode drops a plugin that does not, silently) and starts with a client", async () => {
    const folder = await mkdtemp(join(tmpdir(), "loupe-plugin-"));
    try {
      const path = join(folder, "loupe.mjs");
      await writeFile(path, opencodePluginSource({ argv: ["/usr/bin/node", "/opt/loupe/main.js"] }));
      await run(process.execPath, ["--check", path]);
      // The plugin starts with OpenCode's client (it reads the session's messages only when a tool runs).
      const { LoupePlugin } = (await import(path)) as { LoupePlugin: (context: unknown) => Promise<Record<string, unknown>> };
      const messages = [
        { info: { role: "user" }, parts: [{ type: "text", text: "Fix resolve_lookup_table" }] },
        {
          info: { role: "assistant", modelID: "gpt-4.1" },
          parts: [
            { type: "reasoning", text: "It is in lookup.py." },
            { type: "text", text: "Let me read it." },
            { type: "tool", callID: "call_2" },
            { type: "text", text: "after" },
          ],
        },
      ];
      const hooks = await LoupePlugin({ client: { session: { messages: () => Promise.resolve({ data: messages }) } } });
      assert.equal(typeof hooks["tool.execute.before"], "function");
      assert.equal(typeof hooks["tool.execute.after"], "function");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
