import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileRedactionRules } from "./compile-redaction-rules.js";
import { DEFAULT_REDACTION_RULES } from "./default-redaction-rules.js";
import { redactSecrets } from "./redact-secrets.js";

const MB = 1024 * 1024;
const ALMOST = [
  "password= ",
  "token = x.",
  '"api_key": "',
  "Authorization: Bearer ",
  "authorization: ",
  "://a:",
  "://",
  "-----BEGIN RSA PRIVATE KEY-----",
  "-----BEGIN PRIVATE KEY-----\nAAAA-----",
  "eyJaaaaaa.",
  "eyJaaaaaa.eyJaaaaa",
  "sk-aaaaaaaaaaaaaaaaaaaaaaaaa-",
  "aws_secret_access_key = ",
];
const FILLERS = ["a", "A0", "-", " ", "aA0-_/+=", "\\n"];

function fill(unit: string, bytes = MB): string {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** Long runs of what the rule matches, and near-misses, each about 1 MB. */
function adversarialInputs(keywords: readonly string[]): string[] {
  const inputs: string[] = [];
  for (const start of [...keywords, ...ALMOST]) {
    inputs.push(fill(start));
    for (const filler of FILLERS) inputs.push(start + fill(filler), fill(start + filler.repeat(40)), fill(start + filler.repeat(5000)));
  }
  return inputs;
}

describe("redactSecrets() performance", () => {
  it("runs every default rule on adversarial 1 MB inputs in under a second each", () => {
    let slowestMs = 0;
    let slowest = "";
    for (const rule of DEFAULT_REDACTION_RULES) {
      const compiled = compileRedactionRules([rule]);
      for (const input of adversarialInputs(rule.keywords ?? [])) {
        const started = performance.now();
        redactSecrets(input, compiled);
        const elapsedMs = performance.now() - started;
        assert.ok(elapsedMs < 1000, `rule ${rule.name} took ${elapsedMs.toFixed(0)} ms on ${JSON.stringify(input.slice(0, 60))}…`);
        if (elapsedMs > slowestMs) [slowestMs, slowest] = [elapsedMs, `${rule.name} on ${JSON.stringify(input.slice(0, 40))}`];
      }
    }
    console.log(`slowest adversarial 1 MB case: ${slowestMs.toFixed(1)} ms (${slowest})`);
  });

  it("prints its throughput on a realistic 10 MB log, with and without secrets", () => {
    const clean = realisticLog(10 * MB, false);
    const dirty = realisticLog(10 * MB, true);
    for (const [label, text] of [
      ["without secrets", clean],
      ["with secrets", dirty],
    ] as const) {
      redactSecrets(text);
      const started = performance.now();
      const result = redactSecrets(text);
      const seconds = (performance.now() - started) / 1000;
      console.log(`redaction ${label}: ${(text.length / MB / seconds).toFixed(0)} MB/s (${(text.length / MB).toFixed(1)} MB, ${result.count} masked)`);
      assert.equal(result.count > 0, label === "with secrets");
    }
  });
});

function realisticLog(bytes: number, withSecrets: boolean): string {
  const lines = [
    "2024-05-01T12:00:00.123Z INFO  http GET /api/v1/items?page=2&limit=50 200 12ms user=alice trace=4bf92f3577b34da6a3ce929d0e0e4736",
    "2024-05-01T12:00:00.456Z DEBUG fetching https://registry.npmjs.org/typescript/-/typescript-5.9.3.tgz",
    "  ✓ src/token-counter.test.ts > counts tokens of 4096 characters (3 ms)",
    '{"level":"info","msg":"request done","status":200,"duration_ms":41,"input_tokens":1234,"output_tokens":56}',
    "npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.",
    "    at Object.<anonymous> (/work/app/src/server/handler.ts:42:17)",
    "Compiling pkg v0.1.0 (/work/app/crates/pkg) — risk-based checks; key lookups in map; password_hint unchanged",
  ];
  const secrets = [`GITHUB_TOKEN=gh${"p"}_${"aB3".repeat(12)}`, "Authorization: Bearer abcDEF123456789xyz", `password=${"Xy9".repeat(5)}`];
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = withSecrets && i % 1000 === 999 ? (secrets[i % secrets.length] ?? "") : (lines[i % lines.length] ?? "");
    out.push(line);
    size += line.length + 1;
  }
  return out.join("\n");
}
