import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import { createCachingCounter, effectiveBudget, filePathOf, modelProfileFor, parseArgs, PROJECTOR_VERSION, projectResult, type ResultInput, type ResultView, type CompiledRule, type TokenCounter, type TokenEncoding, type ViewSpec } from "@loupe/projection";
import type { ProjectRequest, ProjectResponseSchema, ToolResult } from "@loupe/proto";
import type { Logger } from "@loupe/runtime";
import type { ArchiveClient } from "./archive-client.js";
import { checkPath } from "./changed-path.js";
import { readScopeOf } from "./read-scope.js";
import type { PathRevisions } from "./path-revisions.js";
import type { SourceRule, SourceRules } from "@loupe/rules";
import type { SessionStore } from "@loupe/session-store";
import type { StateStore } from "@loupe/state-store";
import { redactResult } from "./redact-result.js";
import { resultIdFor } from "./result-id.js";
import { resultKindFromToolKind, toolKindFromResultKind } from "./result-kind.js";
import { resultContent, type ResultContent } from "./tool-result-content.js";
import { validateProjectRequest } from "./validate-project.js";
import { viewParts } from "./view-parts.js";

type ProjectResponseInit = MessageInitShape<typeof ProjectResponseSchema>;

/** What Project needs. */
export interface ProjectDeps {
  archive: ArchiveClient;
  /** The counter of each encoding (one per process: they are stateless). */
  counterFor: (encoding: TokenEncoding) => TokenCounter;
  maxResultBytes: number;
  maxViewBytes: number;
  defaultBudgetTokens: number;
  archiveTimeoutMs: number;
  resultIdSecret: string;
  /** Secret patterns masked before anything is saved or shown; undefined = redaction off. */
  redactionRules: readonly CompiledRule[] | undefined;
  /** Field views from configuration (LOUPE_VIEW_SPECS_FILE). */
  viewSpecs: readonly ViewSpec[];
  /** Per-source rules (their budget applies when the request gives none). */
  sourceRules: SourceRules;
  /** Shared state (rule pins of the history cut). */
  state: StateStore;
  /** Session state released with a session's or tenant's data (DeleteResults). */
  sessions?: SessionStore;
  /** Latest revision per (tenant, session, path) for file reads. */
  pathRevisions: PathRevisions;
  logger: Logger;
  /** Told when a save failed and the answer went fail-open. */
  onArchiveFailure: (error: unknown) => void;
}

// Counting is ~12 MB/s: originals above this size get an estimate instead.
const EXACT_COUNT_MAX_BYTES = 64 * 1024;
const ESTIMATED_BYTES_PER_TOKEN = 4;

interface TokenCount {
  tokens: number;
  estimated: boolean;
}

/** The view's text tokens: the count the core already had when the result fit, else counted (mostly from the line counts cached while projecting). */
function viewTokens(view: ResultView, counter: TokenCounter): number {
  return view.tokens ?? counter.count(view.text);
}

// Counted whole, in one pass: cheaper than line by line, and the projection's fit check then counts nothing.
function originalTokens(content: ResultContent, counter: TokenCounter): TokenCount {
  if (content.bytes.byteLength <= EXACT_COUNT_MAX_BYTES) return { tokens: counter.count(content.text), estimated: false };
  return { tokens: Math.ceil(content.bytes.byteLength / ESTIMATED_BYTES_PER_TOKEN), estimated: true };
}

function usage(original: TokenCount, projected: number): ProjectResponseInit["usage"] {
  return { originalTokens: original.tokens, originalTokensEstimated: original.estimated, projectedTokens: projected, savedTokens: Math.max(0, original.tokens - projected) };
}

function resultInput(result: ToolResult, content: ResultContent): ResultInput {
  const nonMedia = result.parts.filter((part) => part.content.case !== "media");
  return {
    toolName: result.toolName,
    declaredKind: resultKindFromToolKind(result.kind),
    argsJson: result.argsJson,
    text: content.text,
    structuredOnly: nonMedia.length > 0 && nonMedia.every((part) => part.content.case === "json"),
    ...(content.structuredTail ? { structuredTail: { startChar: content.structuredTail.startChar } } : {}),
    isError: result.isError,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
  };
}

function response(view: ResultView, content: ResultContent, resultId: string, archived: boolean, original: TokenCount, counter: TokenCounter): ProjectResponseInit {
  return {
    parts: viewParts(view.text, content.media),
    resultId,
    revision: content.revision,
    archived,
    omissions: view.omissions.map((omission) => ({ ...omission })),
    usage: usage(original, viewTokens(view, counter)),
    projectorVersion: PROJECTOR_VERSION,
    kind: toolKindFromResultKind(view.kind),
  };
}

/**
 * Projects one tool result: a first view within budget, the complete result
 * saved in the archive with continuations for what the view leaves out.
 * When saving fails, answers fail-open (invariant 6). `pinnedRule`, when
 * given, is used instead of the source's current rule (the history cut's pins).
 * @throws AppError `invalid_argument` (malformed request), `resource_exhausted` (over LOUPE_MAX_RESULT_BYTES)
 */
export async function project(request: ProjectRequest, tenant: string, deps: ProjectDeps, pinnedRule?: SourceRule): Promise<ProjectResponseInit> {
  const { result, count: redactedSecrets } = redactResult(validateProjectRequest(request), deps.redactionRules);
  const content = resultContent(result);
  if (content.bytes.byteLength > deps.maxResultBytes) {
    throw new AppError("resource_exhausted", `result larger than LOUPE_MAX_RESULT_BYTES [bytes=${String(content.bytes.byteLength)}, limit=${String(deps.maxResultBytes)}]`);
  }
  // Models without an offline tokenizer are counted in o200k with a safety margin taken off the budget.
  const profile = modelProfileFor(request.model, { defaultBudgetTokens: deps.defaultBudgetTokens });
  // A history's result keeps the rule version it was first projected under (its bytes must not change).
  const rule = pinnedRule ?? (request.source === "" ? undefined : await deps.sourceRules.get(tenant, request.source).catch((error: unknown) => {
    deps.logger.warn("source rule lookup failed; using defaults", { error });
    return undefined;
  }));
  const budget = effectiveBudget(request.budgetTokens, rule?.budgetTokens, profile);
  const counted = originalTokens(content, deps.counterFor(profile.encoding));
  // One cache of line counts for the call: the view is counted again from the counts its projection made.
  const counter = createCachingCounter(deps.counterFor(profile.encoding));
  const resultId = resultIdFor(deps.resultIdSecret, tenant, request.sessionId, content.revision);
  const input = resultInput(result, content);
  const options = { budgetTokens: budget.projectorBudgetTokens, maxViewBytes: deps.maxViewBytes, counter, resultId, view: request.view, source: request.source, viewSpecs: deps.viewSpecs, ...(counted.estimated ? {} : { textTokens: counted.tokens }) };
  let view = projectResult(input, options);
  const args = parseArgs(result.argsJson);
  const path = view.kind === "file_read" ? filePathOf(result.toolName, args) : undefined;
  const scope = path === undefined ? "" : readScopeOf(args);
  const check = await checkPath(deps.pathRevisions, deps.logger, tenant, request.sessionId, path, content.revision, scope);
  if (check.notice !== "") {
    // The notice counts against the budget: project again with what is left.
    options.budgetTokens = Math.max(1, options.budgetTokens - counter.count(check.notice));
    view = projectResult(input, options);
  }
  const original = { tokens: counted.tokens, estimated: counted.estimated || !profile.exact };
  const answer = await answerWith(view, content, result, input, options, original, { resultId, path, scope, tenant, request, deps, counter });
  await check.record({ revision: content.revision, resultId: answer.archived === true ? (answer.resultId ?? "") : "" });
  if (check.notice !== "") answer.parts = [{ content: { case: "text", value: check.notice } }, ...(answer.parts ?? [])];
  answer.redactedSecrets = redactedSecrets;
  return answer;
}

interface AnswerContext {
  resultId: string;
  path: string | undefined;
  /** Which part of the file a file read covered (see readScopeOf). */
  scope: string;
  tenant: string;
  request: ProjectRequest;
  deps: ProjectDeps;
  counter: TokenCounter;
}

async function answerWith(
  view: ResultView,
  content: ResultContent,
  result: ToolResult,
  input: ResultInput,
  options: Parameters<typeof projectResult>[1],
  original: TokenCount,
  { resultId, path, scope, tenant, request, deps, counter }: AnswerContext,
): Promise<ProjectResponseInit> {
  if (view.unchanged) {
    return { ...response(view, content, "", true, original, counter), parts: [...result.parts] };
  }
  try {
    await deps.archive.put(
      tenant,
      {
        resultId,
        revision: content.revision,
        sessionId: request.sessionId,
        source: request.source,
        toolName: result.toolName,
        kind: result.kind,
        path: path ?? "",
        readScope: scope,
        sizeBytes: BigInt(content.bytes.byteLength),
        ...(content.structuredTail ? { structuredStartByte: content.structuredTail.startByte } : {}),
      },
      content.bytes,
      deps.archiveTimeoutMs,
    );
  } catch (error) {
    deps.onArchiveFailure(error);
    if (content.bytes.byteLength <= deps.maxViewBytes) {
      return { ...response({ text: content.text, omissions: [], unchanged: true, kind: view.kind }, content, "", false, original, counter), parts: [...result.parts] };
    }
    // The hard cap still holds: a view within the cap alone, with no continuation (nothing was saved).
    const capped = projectResult(input, { ...options, budgetTokens: deps.maxViewBytes, resultId: "" });
    return response(capped, content, "", false, original, counter);
  }
  return response(view, content, resultId, true, original, counter);
}
