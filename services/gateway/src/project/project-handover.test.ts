import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import type { ArchiveClient } from "@loupe/archive-client";
import { ProjectRequestSchema, ResultRecordSchema, ToolKind } from "@loupe/proto";
import { projectDepsForTest, spyCounter } from "./project-test-deps.js";
import { project } from "./project.js";

// A build log of about 20 KB: over its budget, so it is cut and saved before it is projected.
const buildLog = Array.from({ length: 400 }, (_, index) =>
  index % 50 === 7
    ? `src/f${String(index)}.ts:3:1 - error TS2322: bad type\n`
    : `[${String(index)}] compiling module src/feature${String(index % 97)}/index.ts ... ok\n`,
).join("");

const request = create(ProjectRequestSchema, {
  sessionId: "s",
  model: "gpt-4o",
  result: { toolName: "bash", kind: ToolKind.UNSPECIFIED, parts: [{ content: { case: "text", value: buildLog } }] },
});

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("project() hands its save over before projecting", () => {
  it("projects a result over its budget once the archive has its save in hand, while the save is still under way", async () => {
    const { counter, counted, checked } = spyCounter();
    const work = (): number => counted.length + checked.length;
    const seen: { atAccept?: number; atSaved?: number } = {};
    // An archive that takes the save in hand a turn later and finishes it a turn after that.
    const put: ArchiveClient["put"] = async (_tenant, _header, _bytes, options) => {
      await nextTurn();
      seen.atAccept = work();
      options.onAccepted?.();
      await nextTurn();
      seen.atSaved = work();
      return create(ResultRecordSchema);
    };
    const answer = await project(request, "local", projectDepsForTest(counter, put));
    assert.ok((answer.omissions?.length ?? 0) > 0 && answer.resultId !== "", "cut and saved");
    assert.ok(seen.atAccept !== undefined && seen.atAccept > 0, "the fit check ran before the save started");
    assert.ok(work() > seen.atAccept, "the projection's counting came after the archive took the save");
    assert.ok(seen.atSaved !== undefined && seen.atSaved > seen.atAccept, "and ran while the save was under way");
  });

  it("answers alike when the archive never says so (it projects once the save ends) and when the save fails", async () => {
    const told = spyCounter();
    const tellingPut: ArchiveClient["put"] = (_tenant, _header, _bytes, options) => {
      options.onAccepted?.();
      return Promise.resolve(create(ResultRecordSchema));
    };
    const telling = await project(request, "local", projectDepsForTest(told.counter, tellingPut));
    const silent = await project(
      request,
      "local",
      projectDepsForTest(spyCounter().counter, () => Promise.resolve(create(ResultRecordSchema))),
    );
    assert.deepEqual(silent, telling);
    const failing = await project(
      request,
      "local",
      projectDepsForTest(spyCounter().counter, () => Promise.reject(new Error("archive down"))),
    );
    assert.equal(failing.archived, false, "fail-open");
    assert.equal(failing.resultId, "");
  });
});
