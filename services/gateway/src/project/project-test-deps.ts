import { create } from "@bufbuild/protobuf";
import type { ArchiveClient } from "@loupe/archive-client";
import { createTokenCounter, MAX_VIEW_BYTES, type TokenCounter } from "@loupe/projection";
import { ResultRecordSchema } from "@loupe/proto";
import { createSourceRules } from "@loupe/rules";
import { createLogger } from "@loupe/runtime";
import { createMemoryStateStore } from "@loupe/state-store";
import { createPathRevisions } from "../path-revisions.js";
import type { ProjectDeps } from "./project-deps.js";

/**
 * Project's dependencies for a unit test: in-memory state, `counter` for every encoding, and an archive
 * whose `put` is given (by default one that succeeds); any other archive call throws. Tests only.
 */
export function projectDepsForTest(counter: TokenCounter, put: ArchiveClient["put"] = () => Promise.resolve(create(ResultRecordSchema))): ProjectDeps {
  const state = createMemoryStateStore();
  const unused = (): never => {
    throw new Error("unused");
  };
  return {
    archive: { put, read: unused, search: unused, delete: unused, appendTurns: unused, readTurns: unused, searchTurns: unused, close: () => undefined },
    counterFor: () => counter,
    maxResultBytes: 64 * 1024 * 1024,
    maxViewBytes: MAX_VIEW_BYTES,
    defaultBudgetTokens: 2000,
    archiveTimeoutMs: 1000,
    resultIdSecret: "secret",
    redactionRules: undefined,
    viewSpecs: [],
    sourceRules: createSourceRules(state),
    state,
    pathRevisions: createPathRevisions(state, 60_000),
    logger: createLogger({ service: "test", level: "error" }),
    onArchiveFailure: () => undefined,
  };
}

/** An exact o200k_base counter that remembers every text it was asked to count (`count`) or check (`within`). Tests only. */
export function spyCounter(): { counter: TokenCounter; counted: string[]; checked: string[] } {
  const exact = createTokenCounter("o200k_base");
  const counted: string[] = [];
  const checked: string[] = [];
  const counter: TokenCounter = {
    encoding: exact.encoding,
    count: (text) => {
      counted.push(text);
      return exact.count(text);
    },
    within: (text, limit) => {
      checked.push(text);
      return exact.within(text, limit);
    },
  };
  return { counter, counted, checked };
}
