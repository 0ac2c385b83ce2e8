import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createLoupeClient, type LoupeClient } from "@loupe/client";
import { isAppError } from "@loupe/errors";
import { ToolKind } from "@loupe/proto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { textOf } from "../support/recover-omission.js";
import { runHook, runLoupeCommand } from "../support/run-loupe-command.js";

// An order service's answer: large, with identifiers, a qualification and a failed shipment.
const order = {
  id: "ord_7731",
  status: "partially_shipped",
  customer: { id: "cus_19", email: "dana@example.com", notes: "x".repeat(200) },
  totals: { subtotal: 412.5, tax: 33, total: 445.5, estimated_total: 451 },
  shipments: Array.from({ length: 40 }, (_, index) => ({
    id: `shp_${String(index)}`,
    carrier: index % 2 === 0 ? "UPS" : "DHL",
    status: index === 17 ? "failed" : "delivered",
    events: Array.from({ length: 12 }, (_, step) => ({
      at: `2026-11-${String(10 + (step % 18)).padStart(2, "0")}T10:00:00Z`,
      what: `scan ${String(step)} at hub ${String(index * 12 + step)}`,
    })),
  })),
  shipping_address: { line1: "1 Main St", city: "Springfield", zip: "00001" },
};

// The app's rule (view_specs_json), set over the API as an operator would.
const RULE_SPECS = [
  {
    tool: "*get_order",
    views: {
      concise: { keep: ["status", "totals.total", "shipments[].status", "shipments[].carrier"], when: "to check an order's state" },
      detailed: { keep: ["*"], drop: ["shipments[].events"], when: "to read every field but the scan history" },
    },
  },
  // The configuration also has a spec for this tool: it comes first.
  { tool: "list_builds", views: { rule_only: { keep: ["[].id"] } } },
];
const CONFIG_SPECS = [{ tool: "list_builds", views: { brief: { keep: ["[].id", "[].result"], when: "to see which builds failed" } } }];

const builds = Array.from({ length: 200 }, (_, index) => ({
  id: `b${String(index)}`,
  result: index === 99 ? "failure" : "success",
  log_url: `https://ci.example/${String(index)}/${"l".repeat(60)}`,
}));

describe("field views: the app's rule, the configuration, a detailed view of a saved result", () => {
  let loupe: EmbeddedLoupe;
  let sdk: LoupeClient;

  before(async () => {
    loupe = await startEmbeddedLoupe({}, async (dataDir) => {
      await writeFile(join(dataDir, "views.json"), JSON.stringify(CONFIG_SPECS));
      return { LOUPE_VIEW_SPECS_FILE: join(dataDir, "views.json") };
    });
    sdk = createLoupeClient({ address: `127.0.0.1:${String(loupe.grpcPort)}` });
    await sdk.setSourceLimit({ source: "shop", limit: { viewSpecsJson: JSON.stringify(RULE_SPECS) } });
  });
  after(async () => {
    sdk.close();
    await loupe.stop();
  });

  const projectOrder = (source: string, toolName = "get_order", view = "") =>
    sdk.project({ sessionId: "fv", source, view, result: { toolName, parts: [{ content: { case: "json", value: JSON.stringify(order) } }] } });

  it("shapes a source's results by its rule's default view, naming the other views and the exact call for them", async () => {
    const response = await projectOrder("shop");
    const view = textOf(response.parts);
    assert.match(view, /"status":"partially_shipped"/);
    assert.match(view, /"id":"ord_7731"/, "identifiers are kept whatever the view says");
    assert.match(view, /"status":"failed"/, "the failed shipment stays visible");
    assert.doesNotMatch(view, /scan 3 at hub/, "concise leaves the scan history out");
    const notice = response.omissions.find((omission) => omission.description.includes('view "concise" left out'));
    assert.ok(notice, JSON.stringify(response.omissions.map((omission) => omission.description)));
    assert.ok(notice.description.includes(`other views: detailed (e.g. {"result_id":"${response.resultId}","view":"detailed"})`), notice.description);
    const marker = (JSON.parse(view) as { $loupe_view?: unknown }).$loupe_view;
    assert.deepEqual(
      marker,
      {
        $loupe: "view",
        name: "concise",
        left_out: ["customer", "totals.subtotal", "totals.tax", "shipments[].events", "shipping_address"],
        other_views: { detailed: { result_id: response.resultId, view: "detailed" } },
        recover: { result_id: response.resultId, json_pointer: "" },
      },
      "the view is valid JSON and says, inside it, what the view left out and how to get the rest",
    );
    const other = textOf((await projectOrder("another-app")).parts);
    assert.match(other, /scan \d+ at hub/, "another app's results are not shaped by this rule");
  });

  it("serves a named view of the saved original (paged, cursor-continued), without the producer running again", async () => {
    const first = await projectOrder("shop");
    const expected = { ...order, shipments: order.shipments.map(({ events: _events, ...rest }) => rest) };
    const whole = await sdk.recoverAll({ resultId: first.resultId, view: "detailed", budgetTokens: 300 });
    const pages = await sdk.recover({ resultId: first.resultId, view: "detailed", budgetTokens: 300 });
    assert.notEqual(pages.nextCursor, "", "a small budget pages the view");
    assert.deepEqual(JSON.parse(whole), expected, "the detailed view of the original, pages joined");
    const shipments = await sdk.recoverAll({ resultId: first.resultId, view: "detailed", jsonPointer: "/shipments", itemStart: 17, itemEnd: 18 });
    assert.deepEqual(JSON.parse(shipments), [expected.shipments[17]], "a pointer addresses the shaped value");
    // A cursor is bound to the view's definition: changed since, it is refused rather than joining two shapes.
    const changed = RULE_SPECS.map((spec) =>
      spec.tool === "*get_order" ? { ...spec, views: { ...spec.views, detailed: { keep: ["*"], drop: ["shipments[].events", "customer"] } } } : spec,
    );
    await sdk.setSourceLimit({ source: "shop", limit: { viewSpecsJson: JSON.stringify(changed) } });
    try {
      await assert.rejects(
        sdk.recover({ resultId: first.resultId, cursor: pages.nextCursor, budgetTokens: 300 }),
        (error: unknown) => isAppError(error) && error.code === "failed_precondition" && /view "detailed" changed/.test(error.message),
      );
    } finally {
      await sdk.setSourceLimit({ source: "shop", limit: { viewSpecsJson: JSON.stringify(RULE_SPECS) } });
    }
  });

  it("refuses a view that does not apply, a view with a line range, and a view of a text result, with INVALID_ARGUMENT", async () => {
    const saved = await projectOrder("shop");
    const invalid = (pattern: RegExp) => (error: unknown) => isAppError(error) && error.code === "invalid_argument" && pattern.test(error.message);
    await assert.rejects(sdk.recover({ resultId: saved.resultId, view: "full" }), invalid(/unknown view.*views=concise, detailed/));
    await assert.rejects(sdk.recover({ resultId: saved.resultId, view: "detailed", startLine: 1 }), invalid(/view goes with a json_pointer/));
    await assert.rejects(sdk.recover({ resultId: saved.resultId, view: "bad name!" }), invalid(/malformed view name/));
    const log = Array.from({ length: 2000 }, (_, index) => `line ${String(index)}\n`).join("");
    const text = await sdk.project({ sessionId: "fv", source: "shop", result: { toolName: "bash", parts: [{ content: { case: "text", value: log } }] } });
    await assert.rejects(sdk.recover({ resultId: text.resultId, view: "detailed" }), invalid(/not a JSON value/));
  });

  it("puts the configuration's views before the rule's for the same tool", async () => {
    const response = await sdk.project({
      sessionId: "fv",
      source: "shop",
      result: { toolName: "list_builds", parts: [{ content: { case: "json", value: JSON.stringify(builds) } }] },
    });
    const view = textOf(response.parts);
    assert.equal((JSON.parse(view) as { name: string }[]).at(-1)?.name, "brief", "an array view ends with the view's marker element");
    assert.match(view, /"result":"failure"/);
    assert.doesNotMatch(view, /"log_url"/);
    const ruleView = await sdk.recoverAll({ resultId: response.resultId, view: "rule_only", jsonPointer: "/0" });
    assert.deepEqual(JSON.parse(ruleView), { id: "b0" }, "a view only the rule has is still served by name");
  });

  it("shapes an MCP tool's JSON answered as text, and the JSON part of a text + JSON result", async () => {
    const text = await projectOrder("shop", "mcp__shop__get_order").then(() =>
      sdk.project({
        sessionId: "fv",
        source: "shop",
        result: { toolName: "mcp__shop__get_order", parts: [{ content: { case: "text", value: JSON.stringify(order, null, 2) } }] },
      }),
    );
    assert.equal(text.kind, ToolKind.STRUCTURED);
    assert.equal((JSON.parse(textOf(text.parts)) as { $loupe_view: { name: string } }).$loupe_view.name, "concise");
    const mixed = await sdk.project({
      sessionId: "fv",
      source: "shop",
      result: {
        toolName: "mcp__shop__get_order",
        parts: [{ content: { case: "text", value: "Order found.\n" } }, { content: { case: "json", value: JSON.stringify(order) } }],
      },
    });
    const mixedView = textOf(mixed.parts);
    assert.match(mixedView, /^Order found\./);
    assert.match(mixedView, /structured content \(lines 3–3\), in view "concise"/);
    assert.match(mixedView, /"status":"failed"/);
  });

  it("shapes what comes through the PostToolUse hook: an MCP tool's JSON block, and a summary block followed by a JSON block", async () => {
    const env = { LOUPE_ADDR: `127.0.0.1:${String(loupe.grpcPort)}`, LOUPE_SOURCE: "shop" };
    const payload = (blocks: unknown[]) => ({
      session_id: "fv-hook",
      transcript_path: "/nonexistent/transcript.jsonl",
      cwd: ".",
      hook_event_name: "PostToolUse",
      tool_name: "mcp__shop__get_order",
      tool_input: { id: "ord_7731" },
      tool_response: blocks,
      tool_use_id: "toolu_01FIELDVIEWS",
    });
    const viewOf = async (blocks: unknown[]): Promise<string> => {
      const run = await runHook("post-tool-use", payload(blocks), env);
      assert.equal(run.code, 0, run.stderr);
      const updated = (JSON.parse(run.stdout) as { hookSpecificOutput: { updatedToolOutput: { text: string }[] } }).hookSpecificOutput.updatedToolOutput;
      return updated[0]?.text ?? "";
    };
    const single = JSON.parse(await viewOf([{ type: "text", text: JSON.stringify(order, null, 2) }])) as {
      $loupe_view: { name: string };
      shipments: { status: string }[];
    };
    assert.equal(single.$loupe_view.name, "concise");
    assert.ok(single.shipments.some((shipment) => shipment.status === "failed"));
    const summaryThenJson = await viewOf([
      { type: "text", text: "Found 1 order for dana@example.com." },
      { type: "text", text: JSON.stringify(order) },
    ]);
    assert.match(summaryThenJson, /^Found 1 order for dana@example\.com\./);
    assert.match(summaryThenJson, /in view "concise"/);
    assert.doesNotMatch(summaryThenJson, /scan \d+ at hub/);
  });

  it("lists the views over gRPC, `loupe views` and the MCP read_result description", async () => {
    const listed = await sdk.listViews({ source: "shop" });
    assert.deepEqual(
      listed.views.map((view) => `${view.origin}:${view.tool}:${view.name}:${String(view.isDefault)}`),
      ["configuration:list_builds:brief:true", "rule:*get_order:concise:true", "rule:*get_order:detailed:false", "rule:list_builds:rule_only:true"],
    );
    const run = await runLoupeCommand(["views", "--source", "shop", "--tool", "get_order"], "", { LOUPE_ADDR: `127.0.0.1:${String(loupe.grpcPort)}` });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.stdout.trim().split("\n"), [
      '*get_order view "concise" (default): to check an order\'s state — keeps status, totals.total, shipments[].status, shipments[].carrier [rule]',
      '*get_order view "detailed": to read every field but the scan history — keeps *; drops shipments[].events [rule]',
    ]);
    const json = await runLoupeCommand(["views", "--json"], "", { LOUPE_ADDR: `127.0.0.1:${String(loupe.grpcPort)}` });
    assert.deepEqual(
      (JSON.parse(json.stdout) as { views: { name: string; when: string }[] }).views.map((view) => [view.name, view.when]),
      [["brief", "to see which builds failed"]],
    );

    const mcp = new Client({ name: "field-views-test", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${String(loupe.httpPort)}/mcp`)));
    try {
      const { tools } = await mcp.listTools();
      const readResult = tools.find((tool) => tool.name === "read_result");
      assert.match(readResult?.description ?? "", /- list_builds view "brief" \(default\): to see which builds failed — keeps \[\]\.id, \[\]\.result/);
      const saved = await projectOrder("shop");
      const answer = await mcp.callTool({ name: "read_result", arguments: { result_id: saved.resultId, view: "detailed", json_pointer: "/totals" } });
      const blocks = (answer.content as { text?: string }[]).map((block) => block.text ?? "");
      assert.equal(answer.isError, undefined, blocks.join("\n"));
      assert.ok(
        blocks.some((block) => block.includes('"estimated_total":451')),
        blocks.join("\n"),
      );
    } finally {
      await mcp.close();
    }
  });
});
