import * as grpc from "@grpc/grpc-js";
import { create, toBinary } from "@bufbuild/protobuf";
import { ProjectRequestSchema, RecoverRequestSchema } from "@loupe/proto";
import fc from "fast-check";

/** How a fuzzed request ended: a gRPC status name, or an HTTP status. */
export type Outcome = string;

/** What a run saw: outcomes counted, and the requests that ended in a way bad input never may. */
export interface FuzzReport {
  outcomes: Map<Outcome, number>;
  /** Requests answered INTERNAL/UNKNOWN (gRPC) or 500 (HTTP), or that broke the connection. */
  failures: string[];
}

const GRPC_METHODS = [
  "/loupe.v1.ProjectionService/Project",
  "/loupe.v1.ProjectionService/Recover",
  "/loupe.v1.ProjectionService/CutHistory",
  "/loupe.v1.ProjectionService/DeleteResults",
  "/loupe.v1.ConversationService/AppendTurns",
  "/loupe.v1.ConversationService/ReadHistory",
  "/loupe.v1.ConversationService/SearchHistory",
  "/loupe.v1.ConversationService/GetNote",
  "/loupe.v1.ConversationService/Compact",
  "/loupe.v1.RulesService/SetSourceLimit",
  "/loupe.v1.RulesService/GetSourceLimit",
  "/loupe.v1.RulesService/ListViews",
];
const HTTP_PATHS = [
  "/v1/project",
  "/v1/recover",
  "/v1/cut-history",
  "/v1/append-turns",
  "/v1/read-history",
  "/v1/search-history",
  "/v1/set-source-limit",
  "/v1/compact",
  "/mcp",
];

const hostile = fc.oneof(
  fc.string({ maxLength: 64 }),
  fc.constantFrom("", "r_", "r_" + "A".repeat(32), "../../etc/passwd", "(?=a)*", "(a+)+$", "\u0000", "%ff", "x".repeat(5000), "eyJ0IjoibG9jYWwifQ", "[", "{}"),
);

// Valid messages with hostile field values, and then bytes mutated or cut.
const validBytes = fc.oneof(
  fc
    .record({ sessionId: hostile, text: hostile, toolName: hostile, budget: fc.nat() })
    .map(({ sessionId, text, toolName, budget }) =>
      toBinary(
        ProjectRequestSchema,
        create(ProjectRequestSchema, { sessionId, budgetTokens: budget, result: { toolName, parts: [{ content: { case: "text", value: text } }] } }),
      ),
    ),
  fc
    .record({ resultId: hostile, cursor: hostile, pattern: hostile, start: fc.nat(), end: fc.nat(), pointer: fc.option(hostile, { nil: undefined }) })
    .map((fields) =>
      toBinary(
        RecoverRequestSchema,
        create(RecoverRequestSchema, {
          resultId: fields.resultId,
          cursor: fields.cursor,
          pattern: fields.pattern,
          startLine: fields.start,
          endLine: fields.end,
          ...(fields.pointer === undefined ? {} : { jsonPointer: fields.pointer }),
        }),
      ),
    ),
);
const grpcBody = fc.oneof(
  fc.uint8Array({ maxLength: 512 }),
  validBytes,
  fc.tuple(validBytes, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([bytes, at, value]) => {
    const copy = Uint8Array.from(bytes);
    if (copy.length > 0) copy[at % copy.length] = value;
    return copy;
  }),
  validBytes.map((bytes) => bytes.subarray(0, Math.floor(bytes.length / 2))),
);

function nested(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}
const httpBody = fc.oneof(
  fc.json({ maxDepth: 6 }),
  fc.string({ maxLength: 300 }),
  fc.nat({ max: 20_000 }).map(nested),
  fc
    .record({ session_id: hostile, result: fc.record({ tool_name: hostile, parts: fc.array(fc.record({ text: hostile }), { maxLength: 3 }) }) })
    .map((value) => JSON.stringify(value)),
  fc.record({ result_id: hostile, start_line: fc.integer(), end_line: fc.integer(), pattern: hostile, cursor: hostile }).map((value) => JSON.stringify(value)),
);

const STATUS_NAMES = Object.fromEntries(Object.entries(grpc.status).map(([name, code]) => [code, name]));

function grpcCall(client: grpc.Client, path: string, body: Uint8Array, token: string | undefined): Promise<Outcome> {
  return new Promise((resolve) => {
    const metadata = new grpc.Metadata();
    if (token !== undefined) metadata.set("authorization", `Bearer ${token}`);
    client.makeUnaryRequest(
      path,
      (value: Uint8Array) => Buffer.from(value),
      (bytes: Buffer) => bytes,
      body,
      metadata,
      { deadline: Date.now() + 10_000 },
      (error) => resolve(error ? (STATUS_NAMES[error.code] ?? `code ${String(error.code)}`) : "OK"),
    );
  });
}

/** Sends `requests` hostile requests, half over gRPC and half over HTTP, `concurrency` at a time. */
export async function runFuzz(options: {
  grpcPort: number;
  httpPort: number;
  requests: number;
  seed: number;
  token?: string;
  concurrency?: number;
}): Promise<FuzzReport> {
  const client = new grpc.Client(`127.0.0.1:${String(options.grpcPort)}`, grpc.credentials.createInsecure(), {
    "grpc.max_send_message_length": 64 * 1024 * 1024,
  });
  const outcomes = new Map<Outcome, number>();
  const failures: string[] = [];
  const samples = fc.sample(
    fc.oneof(
      fc.record({ kind: fc.constant("grpc" as const), path: fc.constantFrom(...GRPC_METHODS), body: grpcBody }),
      fc.record({
        kind: fc.constant("http" as const),
        path: fc.oneof(
          fc.constantFrom(...HTTP_PATHS),
          fc.string({ maxLength: 40 }).map((tail) => `/v1/${encodeURIComponent(tail)}`),
        ),
        body: httpBody,
      }),
    ),
    { numRuns: options.requests, seed: options.seed },
  );
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < samples.length) {
      const sample = samples[next++];
      if (sample === undefined) break;
      let outcome: Outcome;
      if (sample.kind === "grpc") {
        outcome = await grpcCall(client, sample.path, sample.body, options.token);
        if (outcome === "INTERNAL" || outcome === "UNKNOWN")
          failures.push(`${sample.path} ${Buffer.from(sample.body).toString("base64").slice(0, 200)} → ${outcome}`);
      } else {
        outcome = await fetch(`http://127.0.0.1:${String(options.httpPort)}${sample.path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }) },
          body: sample.body,
        }).then(
          async (response) => {
            await response.arrayBuffer();
            return `HTTP ${String(response.status)}`;
          },
          (error: unknown) => `HTTP error ${error instanceof Error ? error.message : String(error)}`,
        );
        if (outcome === "HTTP 500" || outcome.startsWith("HTTP error")) failures.push(`${sample.path} ${sample.body.slice(0, 200)} → ${outcome}`);
      }
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  client.close();
  return { outcomes, failures };
}

/** A table of outcomes, most frequent first. */
export function formatOutcomes(outcomes: ReadonlyMap<Outcome, number>): string {
  const rows = [...outcomes].sort((a, b) => b[1] - a[1]);
  const width = Math.max(7, ...rows.map(([name]) => name.length));
  return [`${"outcome".padEnd(width)}  requests`, ...rows.map(([name, count]) => `${name.padEnd(width)}  ${String(count).padStart(8)}`)].join("\n");
}
