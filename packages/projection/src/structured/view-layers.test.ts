import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import fc from "fast-check";
import { listViews } from "./list-views.js";
import { looksLikeJsonValue } from "./looks-like-json.js";
import { selectView } from "./select-view-spec.js";
import { shapeByView } from "./shape-by-view.js";
import { insertViewMarker } from "./view-marker.js";
import { parseViewSpecs } from "./view-spec.js";

const configuration = parseViewSpecs(JSON.stringify([{ tool: "get_*", views: { brief: { keep: ["status"], when: "to check the state" } } }]));
const rule = parseViewSpecs(
  JSON.stringify([
    { tool: "get_order", views: { concise: { keep: ["status", "total"] }, detailed: { keep: ["*"], drop: ["events"] } } },
    { tool: "list_*", source: "shop", views: { ids: { keep: ["[].id"] } } },
  ]),
);
const request = (toolName: string, view = "", source = "shop") => ({ toolName, view, source });

describe("selectView() over layers (configuration, then the rule)", () => {
  it("takes the default view from the first layer with a matching spec, even when a later layer is more specific", () => {
    assert.equal(selectView([configuration, rule], request("get_order"))?.name, "brief");
    assert.equal(selectView([[], rule], request("get_order"))?.name, "concise");
    assert.equal(selectView([undefined, rule], request("list_users"))?.name, "ids");
    assert.equal(selectView([configuration, rule], request("list_users", "", "other")), undefined);
  });

  it("serves a named view from the first layer that has it, and names every view when none does", () => {
    assert.equal(selectView([configuration, rule], request("get_order", "detailed"))?.spec.tool, "get_order");
    assert.throws(
      () => selectView([configuration, rule], request("get_order", "full")),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument" && /views=brief, concise, detailed/.test(error.message),
    );
  });
});

describe("shapeByView()", () => {
  const value = { id: "o1", status: "open", total: 3, events: [1, 2, 3], note: "n" };

  it("names what the view left out, the other views with an exact call, and the whole result", () => {
    const shaped = shapeByView(value, "get_order", { source: "shop", ruleViewSpecs: rule, resultId: "r_abc" });
    assert.deepEqual(shaped.value, { id: "o1", status: "open", total: 3 });
    assert.equal(shaped.selected?.name, "concise");
    assert.equal(
      shaped.omission?.description,
      '[loupe] view "concise" left out events, note; other views: detailed (e.g. {"result_id":"r_abc","view":"detailed"}); the whole result: {"result_id":"r_abc","json_pointer":""}',
    );
    assert.equal(shaped.omission?.jsonPointer, "");
  });

  it("leaves the value as it is when no spec matches, and offers no call when nothing was saved", () => {
    assert.deepEqual(shapeByView(value, "bash", { ruleViewSpecs: rule, resultId: "r_abc" }), { value });
    assert.match(
      shapeByView(value, "get_order", { ruleViewSpecs: rule, resultId: "" }).omission?.description ?? "",
      /left out events, note; the whole result: not saved$/,
    );
  });
});

describe("listViews()", () => {
  it("lists every view in precedence order, with when, default and origin, filtered by tool and source", () => {
    const layers = [
      { origin: "configuration" as const, specs: configuration },
      { origin: "rule" as const, specs: rule },
    ];
    assert.deepEqual(
      listViews(layers, { toolName: "get_order" }).map((view) => [view.origin, view.name, view.isDefault, view.when]),
      [
        ["configuration", "brief", true, "to check the state"],
        ["rule", "concise", true, ""],
        ["rule", "detailed", false, ""],
      ],
    );
    assert.deepEqual(
      listViews(layers, { source: "other" }).map((view) => view.name),
      ["brief", "concise", "detailed"],
    );
    assert.equal(listViews(layers).length, 4);
  });
});

describe("view spec `when`", () => {
  it("is one line of at most 300 characters", () => {
    const spec = (when: unknown) => JSON.stringify([{ tool: "t", views: { v: { keep: ["a"], when } } }]);
    assert.equal(parseViewSpecs(spec("  when listing  "))[0]?.views["v"]?.when, "when listing");
    for (const bad of ["", "two\nlines", "x".repeat(301), 3]) {
      assert.throws(
        () => parseViewSpecs(spec(bad)),
        (error: unknown) => isAppError(error) && /when must be one line of 1 to 300 characters/.test(error.message),
      );
    }
  });
});

describe("looksLikeJsonValue()", () => {
  it("is true for every JSON object or array, pretty or compact, whatever surrounds it in whitespace", () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue())), fc.boolean(), (value, pretty) => {
        assert.ok(looksLikeJsonValue(`\n ${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`));
      }),
    );
  });

  it("is false for text that only starts or ends like JSON", () => {
    for (const text of ["[INFO] started\nok", "done {x}", "plain", '"a string"', "42"]) assert.equal(looksLikeJsonValue(text), false, text);
  });
});

describe("insertViewMarker()", () => {
  const marker = '{"$loupe":"view","name":"v"}';

  it("adds the marker as the last member of an object root and the last element of an array root", () => {
    assert.equal(insertViewMarker('{"a":1}', marker), `{"a":1,"$loupe_view":${marker}}`);
    assert.equal(insertViewMarker("[\n1,\n2\n]\n", marker), `[\n1,\n2,\n${marker}\n]\n`);
    assert.equal(insertViewMarker("{}", marker), `{"$loupe_view":${marker}}`);
    assert.equal(insertViewMarker("== sections ==\ntext", marker), undefined);
  });

  it("keeps every JSON object or array view valid JSON, ending with the marker", () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue())), fc.boolean(), (value, pretty) => {
        const text = insertViewMarker(JSON.stringify(value, null, pretty ? 1 : undefined), marker);
        assert.ok(text !== undefined);
        const parsed = JSON.parse(text) as unknown;
        const last: unknown = Array.isArray(parsed) ? parsed.at(-1) : (parsed as Record<string, unknown>)["$loupe_view"];
        assert.deepEqual(last, JSON.parse(marker));
      }),
    );
  });
});
