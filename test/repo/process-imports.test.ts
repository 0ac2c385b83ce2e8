import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { repoRoot } from "@loupe/testing";
import { importReach, loadedSpecifiers } from "./support/import-graph.js";

// A process loads only what it uses. The tokenizers' vocabularies cost a process about 30 MB of heap,
// 80 MB resident and most of a second to start: the archive never counts tokens. The commands a
// runtime starts once per tool call (the hook, exec, project, recover) must start fast: gRPC and the
// protobuf descriptors are most of their start-up.
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

  it("the hook loads each event's code only when that event runs, and the pre-tool-use hook no gRPC or protobuf", () => {
    const started = importReach(root, "services/loupe/src/hook/hook-command.ts", false);
    assert.equal(started.packages.get("@grpc/grpc-js"), undefined);
    assert.ok(!started.files.includes("services/loupe/src/hook/post-tool-use.ts"));
    const pre = importReach(root, "services/loupe/src/hook/pre-tool-use.ts");
    assert.deepEqual([...pre.packages.keys()], []);
  });

  // The commands that call Loupe load gRPC's client side and the projection service's messages: not
  // the server, reflection and health code, every service's descriptors, or the whole SDK.
  for (const command of ["hook/post-tool-use.ts", "exec/exec-command.ts", "client-commands.ts"]) {
    it(`loupe's ${command} loads only the client side of gRPC and the projection messages`, () => {
      const { files } = importReach(root, `services/loupe/src/${command}`);
      for (const heavy of ["packages/grpc/src/index.ts", "packages/grpc/src/server.ts", "packages/proto/src/index.ts", "packages/client/src/index.ts"]) {
        assert.ok(!files.includes(heavy), `${command} loads ${heavy}`);
      }
      assert.deepEqual(
        files.filter((file) => file.startsWith("packages/proto/")),
        ["packages/proto/src/gen/loupe/v1/projection_pb.ts", "packages/proto/src/gen/loupe/v1/tool_result_pb.ts"],
      );
    });
  }

  // They call Project over HTTP when they can: gRPC's client and protobuf load only when gRPC is the way.
  for (const command of ["hook/post-tool-use.ts", "exec/exec-command.ts"]) {
    it(`loupe's ${command} loads no gRPC or protobuf until gRPC is the way`, () => {
      const started = importReach(root, `services/loupe/src/${command}`, false);
      for (const heavy of ["@grpc/grpc-js", "@bufbuild/protobuf"]) assert.equal(started.packages.get(heavy), undefined, `${command} loads ${heavy}`);
      assert.ok(!started.files.some((file) => file.startsWith("packages/proto/")));
      const reached = importReach(root, `services/loupe/src/${command}`);
      assert.ok(reached.files.includes("services/loupe/src/project-call/grpc-project.ts"), "the gRPC way still resolves");
    });
  }

  it("sees the tokenizer where it is loaded (the gateway counts tokens)", () => {
    assert.equal(importReach(root, "services/gateway/src/run.ts").packages.get("gpt-tokenizer"), "packages/projection/src/fast-count.ts");
  });
});

// What a deployment may not use is loaded when configured or first needed: Redis, NATS and S3 clients,
// the vendors' SDKs, sharp and the MCP SDK cost `loupe serve` about 60 MB resident and 1.5 s of start.
const OPTIONAL = [
  "ioredis",
  "@nats-io/jetstream",
  "@nats-io/transport-node",
  "@aws-sdk/client-s3",
  "openai",
  "@anthropic-ai/sdk",
  "sharp",
  "@modelcontextprotocol/sdk",
  "zod",
];

describe("what each process loads before it runs", () => {
  for (const entry of [
    "services/loupe/src/serve-command.ts",
    "services/gateway/src/run.ts",
    "services/note-worker/src/run.ts",
    "services/archive/src/run.ts",
  ]) {
    it(`${entry} loads no optional client or SDK until its configuration or a request asks for it`, () => {
      const { packages } = importReach(root, entry, false);
      assert.deepEqual(
        OPTIONAL.filter((name) => packages.has(name)),
        [],
      );
    });
  }

  it("still reaches each of them when it runs (the lazy imports resolve)", () => {
    const serve = importReach(root, "services/loupe/src/serve-command.ts").packages;
    const gateway = importReach(root, "services/gateway/src/run.ts").packages;
    const archive = importReach(root, "services/archive/src/run.ts").packages;
    for (const name of ["ioredis", "@nats-io/transport-node", "openai", "@anthropic-ai/sdk", "sharp", "@modelcontextprotocol/sdk"])
      assert.ok(gateway.has(name), name);
    for (const name of ["openai", "@anthropic-ai/sdk", "sharp", "@modelcontextprotocol/sdk", "@aws-sdk/client-s3"]) assert.ok(serve.has(name), name);
    assert.ok(archive.has("@aws-sdk/client-s3"));
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
