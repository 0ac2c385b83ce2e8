import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, it } from "node:test";
import { contextFromPayload } from "../hook/transcript-intent.js";
import { opencodePluginSource } from "./opencode-plugin.js";

const run = promisify(execFile);

type PluginHooks = Record<string, (input: unknown, output: unknown) => Promise<void>>;

/** The plugin in `folder`, run with a `loupe` that records the payload it is given (in `recorded`) and answers nothing. */
async function recordingPlugin(folder: string): Promise<{ LoupePlugin: (context: unknown) => Promise<PluginHooks>; recorded: string }> {
  const recorder = join(folder, "record.mjs");
  const recorded = join(folder, "payload.json");
  await writeFile(
    recorder,
    `import { writeFileSync } from "node:fs";\nlet text = "";\nprocess.stdin.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on("end", () => writeFileSync(${JSON.stringify(recorded)}, text));\n`,
  );
  const path = join(folder, "loupe.mjs");
  await writeFile(path, opencodePluginSource({ argv: [process.execPath, recorder] }));
  const { LoupePlugin } = (await import(path)) as { LoupePlugin: (context: unknown) => Promise<PluginHooks> };
  return { LoupePlugin, recorded };
}

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

  it("passes the earlier assistant messages with their calls' input (not their output), oldest first, before the task and what asked for the call", async () => {
    const folder = await mkdtemp(join(tmpdir(), "loupe-plugin-"));
    try {
      const { LoupePlugin, recorded } = await recordingPlugin(folder);
      const tool = (callID: string, name: string, input: unknown, output: string): Record<string, unknown> => ({
        type: "tool",
        callID,
        tool: name,
        state: { status: "completed", input, output, title: name, metadata: {} },
      });
      const messages = [
        { info: { role: "user" }, parts: [{ type: "text", text: "Fix resolve_lookup_table" }] },
        {
          info: { role: "assistant", modelID: "gpt-4.1" },
          parts: [
            { type: "step-start" },
            { type: "reasoning", text: "It is in django/x.py." },
            tool("call_1", "bash", { command: "sed -n 398,500p django/x.py", description: "Read the lookup" }, "398 def lookup(): SECRET-OUTPUT"),
            { type: "step-finish" },
          ],
        },
        {
          info: { role: "assistant", modelID: "gpt-4.1" },
          parts: [tool("call_2", "read", { filePath: "/w/django/y.py", offset: 10, limit: 40 }, "SECRET-FILE")],
        },
        {
          info: { role: "assistant", modelID: "gpt-4.1" },
          parts: [
            { type: "text", text: "Now its test." },
            tool("call_3", "grep", { pattern: "zebra_quota" }, "SECRET-MATCHES"),
            { type: "text", text: "after" },
          ],
        },
      ];
      const hooks = await LoupePlugin({ client: { session: { messages: () => Promise.resolve({ data: messages }) } } });
      const output = { title: "grep", output: "SECRET-MATCHES", metadata: {} };
      await hooks["tool.execute.after"]?.({ tool: "grep", sessionID: "s1", callID: "call_3", args: { pattern: "zebra_quota" } }, output);
      const payload = JSON.parse(await readFile(recorded, "utf8")) as Record<string, unknown>;
      assert.deepEqual(payload["loupe_context"], {
        task: "Fix resolve_lookup_table",
        earlier: ["It is in django/x.py.\n[bash] sed -n 398,500p django/x.py Read the lookup", "[read] /w/django/y.py 10 40"],
        asking: "Now its test.",
        model: "gpt-4.1",
      });
      const intent = contextFromPayload(payload)?.intent ?? "";
      assert.equal(
        intent,
        "It is in django/x.py.\n[bash] sed -n 398,500p django/x.py Read the lookup\n\n[read] /w/django/y.py 10 40\n\nFix resolve_lookup_table\n\nNow its test.",
      );
      assert.ok(!intent.includes("SECRET"), "a tool's output is not the model's words");
      assert.equal(output.output, "SECRET-MATCHES");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("reads a session's latest messages per call, and all of them once for its task", async () => {
    const folder = await mkdtemp(join(tmpdir(), "loupe-plugin-"));
    try {
      const { LoupePlugin, recorded } = await recordingPlugin(folder);
      // A long session: the task, then 40 assistant messages of one call each.
      const messages = [
        { info: { role: "user" }, parts: [{ type: "text", text: "Fix resolve_lookup_table" }] },
        ...Array.from({ length: 40 }, (_, index) => ({
          info: { role: "assistant", modelID: "gpt-4.1" },
          parts: [
            { type: "text", text: `Step ${String(index)}.` },
            { type: "tool", callID: `call_${String(index)}`, tool: "grep", state: { input: { pattern: `p${String(index)}` }, output: "x" } },
          ],
        })),
      ];
      const reads: Array<number | undefined> = [];
      const client = {
        session: {
          messages: ({ query }: { query?: { limit?: number } }) => {
            reads.push(query?.limit);
            return Promise.resolve({ data: query?.limit === undefined ? messages : messages.slice(-query.limit) });
          },
        },
      };
      const hooks = await LoupePlugin({ client });
      const call = async (index: number): Promise<Record<string, unknown>> => {
        const output = { title: "grep", output: "x", metadata: {} };
        await hooks["tool.execute.after"]?.({ tool: "grep", sessionID: "long", callID: `call_${String(index)}`, args: {} }, output);
        return (JSON.parse(await readFile(recorded, "utf8")) as Record<string, Record<string, unknown>>)["loupe_context"] ?? {};
      };
      const first = await call(39);
      assert.deepEqual(reads, [10, undefined], "the latest messages, then the whole session once for its task");
      assert.equal(first["task"], "Fix resolve_lookup_table");
      assert.equal(first["asking"], "Step 39.");
      assert.deepEqual((first["earlier"] as string[]).at(-1), "Step 38.\n[grep] p38");
      assert.equal((first["earlier"] as string[]).length, 8);
      const second = await call(39);
      assert.deepEqual(reads, [10, undefined, 10], "the task is remembered");
      assert.equal(second["task"], "Fix resolve_lookup_table");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
