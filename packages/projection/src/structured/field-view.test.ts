import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import fc from "fast-check";
import { applyFieldView } from "./apply-field-view.js";
import { hasFailureSignal } from "./field-classes.js";
import { githubIssueList } from "./fixtures/github-issues.js";
import { orderRecord } from "./fixtures/order-record.js";
import { selectViewSpec } from "./select-view-spec.js";
import { parseViewSpecs } from "./view-spec.js";

// Configuration as an operator would write it (JSON), not code.
const CONFIG = JSON.stringify([
  {
    tool: "mcp__github__list_issues",
    views: {
      concise: { keep: ["[].title", "[].state", "[].labels[].name", "[].assignees[].login", "[].comments"] },
      detailed: { keep: ["[]"], drop: ["[].reactions", "[].user", "[].closed_by", "[].assignee", "[].assignees[].avatar_url", "[].timeline_url"] },
    },
    default: "concise",
  },
  { tool: "mcp__github__*", views: { concise: { keep: ["*.title"] } } },
  {
    tool: "*get_order*",
    source: "shop-agent",
    views: {
      concise: { keep: ["status", "totals.total", "shipments[].carrier", "shipments[].delivered_at"] },
      detailed: { keep: ["*"], drop: ["shipping_address", "shipments[].events"] },
    },
  },
]);
const specs = parseViewSpecs(CONFIG);

function viewFor(toolName: string, view: string, source = "") {
  const selected = selectViewSpec(specs, { source, toolName, view });
  assert.ok(selected, `a view for ${toolName}`);
  return selected;
}

const throwsInvalid = (pattern: RegExp) => (error: unknown) => isAppError(error) && error.code === "invalid_argument" && pattern.test(error.message);

describe("parseViewSpecs()", () => {
  it("reads specs from JSON configuration", () => {
    assert.equal(specs.length, 3);
    assert.equal(specs[0]?.default, "concise");
    assert.equal(specs[2]?.source, "shop-agent");
  });

  it("reports every problem at once, clearly", () => {
    const bad = JSON.stringify([
      { tool: "", views: { concise: { keep: ["items[.id"] } } },
      { tool: "x", views: { concise: { keep: ["a..b"], drop: ["items[].id", "items[].estimated_total"] }, odd: { keeps: [] } }, default: "full" },
      { tool: "y", views: {} },
      "nope",
    ]);
    assert.throws(
      () => parseViewSpecs(bad),
      (error: unknown) => {
        assert.ok(isAppError(error) && error.code === "invalid_argument");
        for (const part of [
          'view spec 0: "tool" must be a non-empty string',
          'view spec 0 view "concise".keep[0] "items[.id" is not a field path',
          'view spec 1 view "concise".keep[0] "a..b" is not a field path',
          'view spec 1 view "concise".drop[0] "items[].id" names an identifier, qualification or error field',
          'view spec 1 view "concise".drop[1] "items[].estimated_total" names an identifier',
          'view spec 1 view "odd" has an unknown field "keeps"',
          'view spec 1: "default" must name one of its views (concise, odd)',
          'view spec 2: "views" must be an object with at least one named view',
          "view spec 3 must be an object",
        ])
          assert.ok(error.message.includes(part), `message names: ${part}\n${error.message}`);
        return true;
      },
    );
    assert.throws(() => parseViewSpecs("{"), throwsInvalid(/not valid json/));
    assert.throws(() => parseViewSpecs('{"tool":"x"}'), throwsInvalid(/must be a json array/));
  });
});

describe("selectViewSpec()", () => {
  it("prefers the exact tool over a glob, matches case-insensitively, and uses the default view", () => {
    assert.equal(viewFor("MCP__GitHub__List_Issues", "").name, "concise");
    assert.equal(viewFor("mcp__github__list_issues", "").spec.tool, "mcp__github__list_issues");
    assert.equal(viewFor("mcp__github__search_code", "").spec.tool, "mcp__github__*");
    assert.equal(selectViewSpec(specs, { source: "", toolName: "bash", view: "" }), undefined);
  });

  it("binds source-specific specs to their source", () => {
    assert.equal(selectViewSpec(specs, { source: "other-app", toolName: "shop_get_order", view: "" }), undefined);
    assert.equal(viewFor("shop_get_order", "detailed", "Shop-Agent").name, "detailed");
  });

  it("refuses a view that no matching spec has, naming the views there are", () => {
    assert.throws(
      () => selectViewSpec(specs, { source: "", toolName: "mcp__github__list_issues", view: "full" }),
      throwsInvalid(/unknown view.*view=full.*views=concise, detailed/),
    );
    assert.equal(viewFor("mcp__github__search_code", "concise").spec.tool, "mcp__github__*");
  });
});

describe("applyFieldView() on a GitHub issue list", () => {
  const issues = githubIssueList(30);

  it("concise keeps the listed fields plus identifiers and states, and names what it dropped", () => {
    const { value, dropped } = applyFieldView(issues, viewFor("mcp__github__list_issues", "concise").view);
    const shown = value as Array<Record<string, unknown>>;
    assert.equal(shown.length, 30);
    for (const [index, issue] of shown.entries()) {
      const original = issues[index] ?? {};
      for (const key of ["id", "node_id", "number", "url", "html_url", "title", "state", "comments"])
        assert.deepEqual(issue[key], original[key], `issue keeps ${key}`);
      for (const key of ["body", "user", "reactions", "locked", "created_at", "milestone"]) assert.ok(!(key in issue), `concise drops ${key}`);
      const labels = issue.labels as Array<Record<string, unknown>>;
      assert.deepEqual(
        labels.map((label) => label.name),
        (original.labels as Array<Record<string, unknown>>).map((label) => label.name),
      );
      for (const label of labels) assert.deepEqual(Object.keys(label).sort(), ["id", "name", "node_id", "url"]);
      for (const assignee of issue.assignees as Array<Record<string, unknown>>)
        assert.ok("login" in assignee && "id" in assignee && !("avatar_url" in assignee));
    }
    for (const path of ["[].body", "[].user", "[].reactions", "[].labels[].color"]) assert.ok(dropped.includes(path), `dropped names ${path}`);
    assert.ok(JSON.stringify(value).length * 3 < JSON.stringify(issues).length, "concise is much smaller");
  });

  it("detailed keeps everything but its drops, and keeps explicit nulls", () => {
    const { value, dropped } = applyFieldView(issues, viewFor("mcp__github__list_issues", "detailed").view);
    const shown = value as Array<Record<string, unknown>>;
    assert.deepEqual(shown[0]?.body, issues[0]?.body);
    assert.ok(shown.every((issue) => !("reactions" in issue) && !("user" in issue) && "closed_at" in issue));
    assert.ok(shown.some((issue) => issue.milestone === null) && shown.some((issue) => issue.body === null), "explicit nulls stay");
    assert.deepEqual(dropped.slice().sort(), ["[].assignee", "[].assignees[].avatar_url", "[].closed_by", "[].reactions", "[].timeline_url", "[].user"]);
  });

  it("keeps explicit null distinct from absent along a kept path", () => {
    const { value } = applyFieldView(issues, { keep: ["[].milestone.title", "[].pull_request.merged_at"] });
    for (const [index, issue] of (value as Array<Record<string, unknown>>).entries()) {
      const original = issues[index] ?? {};
      if (original.milestone === null) assert.equal(issue.milestone, null);
      else assert.deepEqual(Object.keys(issue.milestone as object).sort(), ["id", "number", "state", "title", "url"]);
      assert.equal("pull_request" in issue, "pull_request" in original, "absent stays absent");
      if ("pull_request" in original) assert.deepEqual(Object.keys(issue.pull_request as object).sort(), ["html_url", "merged_at", "url"]);
    }
  });
});

describe("applyFieldView() on an order with a failed shipment", () => {
  const order = orderRecord();

  it("concise keeps ids, the estimate's qualification, and the failed shipment visibly failed", () => {
    const { value, dropped } = applyFieldView(order, viewFor("shop_get_order", "concise", "shop-agent").view);
    const shown = value as Record<string, unknown>;
    assert.equal(shown.order_id, "ord_8H2KQ4");
    assert.equal(shown.number, "100482");
    assert.equal(shown.status, "partially_fulfilled");
    assert.deepEqual(shown.totals, { total: 226.4, tax_estimated: true });
    const shipments = shown.shipments as Array<Record<string, unknown>>;
    assert.deepEqual(
      shipments.map((shipment) => [shipment.shipment_id, shipment.status]),
      [
        ["shp_1", "delivered"],
        ["shp_2", "failed"],
        ["shp_3", "in_transit"],
      ],
    );
    const [delivered, failed, inTransit] = shipments;
    assert.equal(failed?.failure_reason, "address_not_found");
    assert.equal(failed?.delivered_at, null);
    assert.deepEqual(failed?.events, [{ status: "delivery_failed" }], "the failing event survives as a skeleton");
    assert.deepEqual(inTransit?.estimated_delivery, {
      date: "2024-06-12",
      is_estimate: true,
      confidence: "medium",
      window: { from: "2024-06-11", to: "2024-06-13" },
    });
    assert.equal(inTransit?.delivered_at, null);
    assert.ok(!("failure_reason" in (inTransit ?? {})), "absent stays absent");
    assert.equal(delivered?.estimated_delivery, null);
    assert.deepEqual(failed?.line_item_ids, ["li_2"]);
    assert.ok(!("events" in (delivered ?? {})) && !("customer" in shown));
    assert.ok(dropped.includes("shipments[].events") && dropped.includes("customer") && dropped.includes("line_items"));
  });

  it("detailed drops what it names but never the failure", () => {
    const { value } = applyFieldView(order, viewFor("shop_get_order", "detailed", "shop-agent").view);
    const shown = value as Record<string, unknown>;
    assert.ok(!("shipping_address" in shown));
    assert.deepEqual(shown.customer, (order as { customer: unknown }).customer);
    const shipments = shown.shipments as Array<Record<string, unknown>>;
    assert.ok(!("events" in (shipments[0] ?? {})) && !("events" in (shipments[2] ?? {})));
    assert.deepEqual(shipments[1]?.events, [{ status: "delivery_failed" }]);
    assert.equal(shipments[1]?.status, "failed");
  });

  it("never turns a failure into a success, whatever the view keeps", () => {
    const record = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom<unknown>(1, "ok", null, { status: "failed" }, { is_error: true }, { conclusion: "failure" }, { errors: ["boom"] }),
        fc.array(tie("node"), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom("a", "b", "items", "id", "status", "detail"), tie("node"), { maxKeys: 4, noNullPrototype: true }),
      ),
    })).node;
    const paths = fc.array(fc.constantFrom("a", "b.a", "items[]", "items[].id", "*.detail", "/a/0", "[].b"), { maxLength: 3 });
    fc.assert(
      fc.property(record, paths, paths, (value, keep, drop) => {
        const { value: shown } = applyFieldView(value, { keep, drop });
        if (hasFailureSignal(value, 10_000)) assert.ok(hasFailureSignal(shown, 10_000), `failure lost: ${JSON.stringify(value)} → ${JSON.stringify(shown)}`);
      }),
      { numRuns: 500 },
    );
  });
});
