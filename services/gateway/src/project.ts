import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import { PROJECTOR_VERSION, projectHeadTail, type TextView, type TokenCounter } from "@loupe/projection";
import type { Part, ProjectRequest, ProjectResponseSchema } from "@loupe/proto";
import type { ArchiveClient } from "./archive-client.js";
import { resultIdFor } from "./result-id.js";
import { resultContent, type ResultContent } from "./tool-result-content.js";
import { validateProjectRequest } from "./validate-project.js";

type ProjectResponseInit = MessageInitShape<typeof ProjectResponseSchema>;

/** What Project needs. */
export interface ProjectDeps {
  archive: ArchiveClient;
  counter: TokenCounter;
  maxResultBytes: number;
  maxViewBytes: number;
  defaultBudgetTokens: number;
  archiveTimeoutMs: number;
  resultIdSecret: string;
  /** Told when a save failed and the answer went fail-open. */
  onArchiveFailure: (error: unknown) => void;
}

// Counting is ~12 MB/s: originals above this size get an estimate instead.
const EXACT_COUNT_MAX_BYTES = 64 * 1024;
const ESTIMATED_BYTES_PER_TOKEN = 4;

function originalTokens(text: string, bytes: number, counter: TokenCounter): { tokens: number; estimated: boolean } {
  if (bytes <= EXACT_COUNT_MAX_BYTES) return { tokens: counter.count(text), estimated: false };
  return { tokens: Math.ceil(bytes / ESTIMATED_BYTES_PER_TOKEN), estimated: true };
}

function usage(original: { tokens: number; estimated: boolean }, projected: number): ProjectResponseInit["usage"] {
  return {
    originalTokens: original.tokens,
    originalTokensEstimated: original.estimated,
    projectedTokens: projected,
    savedTokens: Math.max(0, original.tokens - projected),
  };
}

function viewParts(view: TextView, media: readonly Part[]): NonNullable<ProjectResponseInit["parts"]> {
  return [{ content: { case: "text", value: view.text } }, ...media];
}

/**
 * Projects one tool result: a first view within budget, the complete result
 * saved in the archive with continuations for what the view leaves out.
 * When saving fails, answers fail-open (invariant 6).
 * @throws AppError `invalid_argument` (malformed request), `resource_exhausted` (over LOUPE_MAX_RESULT_BYTES)
 */
export async function project(request: ProjectRequest, tenant: string, deps: ProjectDeps): Promise<ProjectResponseInit> {
  const result = validateProjectRequest(request);
  const content = resultContent(result);
  if (content.bytes.byteLength > deps.maxResultBytes) {
    throw new AppError("resource_exhausted", `result larger than LOUPE_MAX_RESULT_BYTES [bytes=${String(content.bytes.byteLength)}, limit=${String(deps.maxResultBytes)}]`);
  }
  const budgetTokens = request.budgetTokens === 0 ? deps.defaultBudgetTokens : request.budgetTokens;
  const resultId = resultIdFor(deps.resultIdSecret, tenant, request.sessionId, content.revision);
  const view = projectHeadTail(content.text, { budgetTokens, maxViewBytes: deps.maxViewBytes, counter: deps.counter, resultId });
  const original = originalTokens(content.text, content.bytes.byteLength, deps.counter);
  const base = { revision: content.revision, projectorVersion: PROJECTOR_VERSION };
  if (view.unchanged) {
    return { ...base, parts: [...result.parts], resultId: "", archived: true, omissions: [], usage: usage(original, original.tokens) };
  }
  try {
    await deps.archive.put(
      tenant,
      { resultId, revision: content.revision, sessionId: request.sessionId, source: request.source, toolName: result.toolName, kind: result.kind, sizeBytes: BigInt(content.bytes.byteLength) },
      content.bytes,
      deps.archiveTimeoutMs,
    );
  } catch (error) {
    deps.onArchiveFailure(error);
    return failOpen(result.parts, content, original, deps, base);
  }
  return {
    ...base,
    parts: viewParts(view, content.media),
    resultId,
    archived: true,
    omissions: view.omissions.map((omission) => ({ ...omission })),
    usage: usage(original, deps.counter.count(view.text)),
  };
}

function failOpen(
  parts: readonly Part[],
  content: ResultContent,
  original: { tokens: number; estimated: boolean },
  deps: ProjectDeps,
  base: { revision: string; projectorVersion: string },
): ProjectResponseInit {
  if (content.bytes.byteLength <= deps.maxViewBytes) {
    return { ...base, parts: [...parts], resultId: "", archived: false, omissions: [], usage: usage(original, original.tokens) };
  }
  // The hard cap still holds: head and tail within the cap, no continuation (nothing was saved).
  const capped = projectHeadTail(content.text, { budgetTokens: deps.maxViewBytes, maxViewBytes: deps.maxViewBytes, counter: deps.counter, resultId: "" });
  return {
    ...base,
    parts: viewParts(capped, content.media),
    resultId: "",
    archived: false,
    omissions: capped.omissions.map((omission) => ({ ...omission })),
    usage: usage(original, deps.counter.count(capped.text)),
  };
}
