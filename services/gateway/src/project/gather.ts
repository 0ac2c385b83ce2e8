import { AppError } from "@loupe/errors";
import {
  boundIntent,
  effectiveBudget,
  filePathOf,
  modelProfileFor,
  parseArgs,
  resultKindOf,
  type ModelProfile,
  type ResultInput,
  type ViewSpec,
} from "@loupe/projection";
import type { ProjectRequest, ToolResult } from "@loupe/proto";
import type { SourceRule } from "@loupe/rules";
import { checkPath, type PathCheck } from "../changed-path.js";
import { readScopeOf } from "../read-scope.js";
import { redactResult } from "../redact-result.js";
import { resultIdFor } from "../result-id.js";
import { ruleViewSpecs } from "../rule-view-specs.js";
import { resultKindFromToolKind } from "../result-kind.js";
import { resultContent, type ResultContent } from "../tool-result-content.js";
import { validateProjectRequest } from "../validate-project.js";
import type { ProjectDeps } from "./project-deps.js";

/** Everything Project needs before it projects, read once: the request checked, the rule, the budget, the file's last read. */
export interface Gathered {
  result: ToolResult;
  redactedSecrets: number;
  content: ResultContent;
  input: ResultInput;
  profile: ModelProfile;
  budgetTokens: number;
  resultId: string;
  intent: string;
  /** The file read's path, and the part of the file it covered; undefined for other kinds. */
  path: string | undefined;
  scope: string;
  check: PathCheck;
  /** The field views the source's rule declares (view_specs_json); the configuration's come first. */
  ruleViewSpecs: readonly ViewSpec[];
  /** The version of the source's rule in force (0 = the defaults). */
  ruleVersion: number;
}

function resultInput(result: ToolResult, content: ResultContent, args: Record<string, unknown>): ResultInput {
  const nonMedia = result.parts.filter((part) => part.content.case !== "media");
  return {
    toolName: result.toolName,
    declaredKind: resultKindFromToolKind(result.kind),
    argsJson: result.argsJson,
    args,
    text: content.text,
    structuredOnly: nonMedia.length > 0 && nonMedia.every((part) => part.content.case === "json"),
    ...(content.structuredTail ? { structuredTail: { startChar: content.structuredTail.startChar } } : {}),
    isError: result.isError,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
  };
}

async function ruleOf(request: ProjectRequest, tenant: string, deps: ProjectDeps, pinned: SourceRule | undefined): Promise<SourceRule | undefined> {
  // A history's result keeps the rule version it was first projected under (its bytes must not change).
  if (pinned !== undefined || request.source === "") return pinned;
  return deps.sourceRules.get(tenant, request.source).catch((error: unknown) => {
    deps.logger.warn("source rule lookup failed; using defaults", { error });
    return undefined;
  });
}

/**
 * The reads of a Project call, each once and before any projection: the request validated and its
 * secrets masked, the canonical content and its revision, the source's rule (or the pinned one),
 * the model's budget, the arguments parsed, and the session's last read of
 * the same file (for the changed-file notice; nothing is written yet).
 * @throws AppError `invalid_argument` (malformed request), `resource_exhausted` (over LOUPE_MAX_RESULT_BYTES)
 */
export async function gather(request: ProjectRequest, tenant: string, deps: ProjectDeps, pinned: SourceRule | undefined): Promise<Gathered> {
  const { result, count: redactedSecrets } = redactResult(validateProjectRequest(request), deps.redactionRules);
  const content = resultContent(result);
  if (content.bytes.byteLength > deps.maxResultBytes) {
    throw new AppError(
      "resource_exhausted",
      `result larger than LOUPE_MAX_RESULT_BYTES [bytes=${String(content.bytes.byteLength)}, limit=${String(deps.maxResultBytes)}]`,
      { reason: "too_large" },
    );
  }
  // Models without an offline tokenizer are counted in o200k with a safety margin taken off the budget.
  const profile = modelProfileFor(request.model, { defaultBudgetTokens: deps.defaultBudgetTokens });
  const rule = await ruleOf(request, tenant, deps, pinned);
  const budget = effectiveBudget(request.budgetTokens, rule?.budgetTokens, profile);
  const args = parseArgs(result.argsJson);
  const unkinded = resultInput(result, content, args);
  // The kind is decided here, once: a file read's path is looked up before projecting.
  const input: ResultInput = { ...unkinded, declaredKind: resultKindOf(unkinded) };
  const path = input.declaredKind === "file_read" ? filePathOf(result.toolName, args) : undefined;
  const scope = path === undefined ? "" : readScopeOf(args);
  const check = await checkPath(deps.pathRevisions, deps.logger, tenant, request.sessionId, path, content.revision, scope);
  return {
    result,
    redactedSecrets,
    content,
    input,
    profile,
    budgetTokens: budget.projectorBudgetTokens,
    resultId: resultIdFor(deps.resultIdSecret, tenant, request.sessionId, content.revision),
    // The intent is used up to 16 KiB (cut at a code-point boundary, never refused): the view follows it.
    intent: boundIntent(request.intent),
    path,
    scope,
    check,
    ruleViewSpecs: ruleViewSpecs(rule),
    ruleVersion: rule?.version ?? 0,
  };
}
