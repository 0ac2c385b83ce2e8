import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { createTokenCounter } from "@loupe/projection";
import { ToolKind } from "@loupe/proto";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { recoverOmission, textOf } from "../support/recover-omission.js";

const counter = createTokenCounter();

/** Resolves an RFC 6901 pointer the plain way (independent of Loupe's resolver). */
function resolve(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], value);
}

describe("structured results: JSON views and JSON-pointer recovery", () => {
  let loupe: EmbeddedLoupe;
  let client: EmbeddedLoupe["client"];
  const issues = Array.from({ length: 300 }, (_, index) => ({
    id: 9000 + index,
    number: index + 1,
    title: `Issue number ${String(index + 1)}`,
    state: index === 150 ? "failed" : "open",
    labels: [{ name: "bug" }, { name: `area/${String(index % 7)}` }],
    body: `Steps to reproduce ${String(index)}.`,
  }));
  const original = { total_count: issues.length, items: issues };

  before(async () => {
    const specs = [
      {
        tool: "github_list_*",
        views: {
          concise: { keep: ["total_count", "items[].number", "items[].title", "items[].state"] },
          detailed: { keep: ["total_count", "items[].number", "items[].title", "items[].state", "items[].body", "items[].labels[].name"] },
        },
      },
    ];
    loupe = await startEmbeddedLoupe({}, async (dataDir) => {
      await writeFile(join(dataDir, "views.json"), JSON.stringify(specs));
      return { LOUPE_VIEW_SPECS_FILE: join(dataDir, "views.json") };
    });
    client = loupe.client;
  });
  after(() => loupe.stop());

  it("gives a valid JSON view within budget whose pointer continuations recover exactly the omitted values", async () => {
    const response = await client.project({
      sessionId: "j1",
      result: { toolName: "github_list_issues", parts: [{ content: { case: "json", value: JSON.stringify(original) } }] },
    });
    assert.equal(response.kind, ToolKind.STRUCTURED);
    const view = textOf(response.parts);
    assert.ok(counter.count(view) <= 2000);
    assert.doesNotThrow(() => JSON.parse(view), "the view is valid JSON");
    assert.match(view, /"state":"failed"/, "the failed item is shown");
    assert.ok(response.omissions.length > 0);
    for (const omission of response.omissions) {
      assert.ok(omission.jsonPointer !== undefined);
      const recovered = (await recoverOmission(client, omission)).text;
      const target = resolve(original, omission.jsonPointer);
      const where = `${omission.jsonPointer} ${omission.continuationJson}: ${recovered.slice(0, 300)}`;
      if (omission.itemStart !== undefined && omission.itemEnd !== undefined) {
        assert.deepEqual(JSON.parse(recovered), (target as unknown[]).slice(omission.itemStart, omission.itemEnd), where);
      } else if (typeof target === "string") {
        assert.equal(recovered, target, where);
      } else {
        assert.deepEqual(JSON.parse(recovered), target, where);
      }
    }
  });

  it("shapes a result by the field view the request names, from configuration, keeping identifiers and failures", async () => {
    const project = (view: string) =>
      client.project({
        sessionId: "v",
        view,
        result: { toolName: "github_list_issues", parts: [{ content: { case: "json", value: JSON.stringify(original) } }] },
      });
    const concise = await project("concise");
    const conciseView = textOf(concise.parts);
    assert.doesNotMatch(conciseView, /Steps to reproduce/, "concise leaves bodies out");
    assert.match(conciseView, /"id":9\d{3}/, "identifiers are never dropped");
    assert.match(conciseView, /"state":"failed"/, "a failure stays visible");
    assert.ok(concise.omissions.some((omission) => /view "concise" left out/.test(omission.description)));
    const detailed = textOf((await project("detailed")).parts);
    assert.match(detailed, /Steps to reproduce/);
    await assert.rejects(project("nonexistent"), (error: unknown) => isAppError(error) && error.code === "invalid_argument");
  });

  it("shows a text + JSON result as its text plus a bounded index of the JSON, both recoverable", async () => {
    const log = Array.from({ length: 3000 }, (_, index) => `log line ${String(index + 1)}: processing item ${String(index * 3)}\n`).join("");
    const json = JSON.stringify(original);
    const response = await client.project({
      sessionId: "m1",
      result: { toolName: "mcp__github__list_issues", parts: [{ content: { case: "text", value: log } }, { content: { case: "json", value: json } }] },
    });
    const view = textOf(response.parts);
    const canonical = `${log}\n${json}`;
    assert.ok(counter.count(view) <= 2000);
    assert.match(view, /^\[loupe\] structured content \(lines 3002–3002\), as an index/m);
    assert.ok(view.length < canonical.length / 10, "the JSON is an index, not a second copy");
    let pointers = 0;
    for (const omission of response.omissions) {
      const recovered = (await recoverOmission(client, omission)).text;
      if (omission.jsonPointer !== undefined) {
        pointers++;
        const target = resolve(original, omission.jsonPointer);
        const expected = omission.itemStart !== undefined ? (target as unknown[]).slice(omission.itemStart, omission.itemEnd) : target;
        assert.deepEqual(typeof expected === "string" ? recovered : JSON.parse(recovered), expected, omission.continuationJson);
      } else {
        assert.equal(
          recovered,
          canonical
            .split(/(?<=\n)/)
            .slice((omission.startLine ?? 0) - 1, omission.endLine)
            .join(""),
          omission.description,
        );
      }
    }
    assert.ok(pointers > 0, "the index offers JSON-pointer continuations");
  });

  it("answers a pointer that names nothing with NOT_FOUND", async () => {
    const response = await client.project({ sessionId: "j2", result: { parts: [{ content: { case: "json", value: JSON.stringify(original) } }] } });
    await assert.rejects(
      client.recover({ resultId: response.resultId, jsonPointer: "/nope/0" }),
      (error: unknown) => isAppError(error) && error.code === "not_found",
    );
    await assert.rejects(
      client.recover({ resultId: response.resultId, jsonPointer: "/items", itemStart: 5, itemEnd: 2 }),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument",
    );
  });
});
