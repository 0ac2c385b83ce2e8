import type { MessageInitShape } from "@bufbuild/protobuf";
import { createCachingCounter, PROJECTOR_VERSION, projectResult, type ProjectOptions, type ResultView, type TokenCounter } from "@loupe/projection";
import { ToolKind, type ProjectRequest, type ProjectResponseSchema } from "@loupe/proto";
import type { SourceRule } from "@loupe/rules";
import { resultKindFromToolKind, toolKindFromResultKind } from "../result-kind.js";
import { viewParts, withMediaIds } from "../view-parts.js";
import { gather, type Gathered } from "./gather.js";
import { checkFit, countOriginal, type TokenCount } from "./original-tokens.js";
import type { ProjectDeps } from "./project-deps.js";
import { save, type Saved } from "./save.js";
import { saveMedia } from "./save-media.js";

export type { ProjectDeps } from "./project-deps.js";

type ProjectResponseInit = MessageInitShape<typeof ProjectResponseSchema>;

function response(
  view: ResultView,
  gathered: Gathered & { original: TokenCount },
  saved: { resultId: string; archived: boolean; mediaIds: ReadonlyMap<number, string> },
  counter: TokenCounter,
): ProjectResponseInit {
  const { content, original } = gathered;
  const { resultId, archived, mediaIds } = saved;
  const projected = view.tokens ?? counter.count(view.text);
  return {
    parts: view.unchanged ? withMediaIds(gathered.result.parts, mediaIds) : viewParts(view.text, content.media, mediaIds),
    resultId,
    revision: content.revision,
    archived,
    omissions: view.omissions.map((omission) => ({ ...omission })),
    usage: {
      originalTokens: original.tokens,
      originalTokensEstimated: original.estimated,
      projectedTokens: projected,
      savedTokens: Math.max(0, original.tokens - projected),
    },
    projectorVersion: PROJECTOR_VERSION,
    kind: toolKindFromResultKind(view.kind),
  };
}

/**
 * Projects one tool result, in one direction: gather (the request checked, the rule, the budget,
 * the file's last read — every read once) → project once (the pure core; a changed-file notice
 * is passed in and counted against the budget) → save the complete result (with the caller's
 * cancellation) → record the read → answer. A first view within budget, with continuations for
 * what it leaves out; when saving fails, the answer is fail-open (invariant 6). `pinnedRule`,
 * when given, is used instead of the source's current rule (the history cut's pins).
 * @throws AppError `invalid_argument` (malformed request), `resource_exhausted` (over LOUPE_MAX_RESULT_BYTES)
 */
export async function project(
  request: ProjectRequest,
  tenant: string,
  deps: ProjectDeps,
  pinnedRule?: SourceRule,
  signal?: AbortSignal,
): Promise<ProjectResponseInit> {
  const gathered = await gather(request, tenant, deps, pinnedRule);
  // One cache of line counts for the call: the view is counted from the counts its projection made.
  const counter = createCachingCounter(deps.counterFor(gathered.profile.encoding));
  // A small result is counted whole here (its count is the original's); a larger one up to its budget.
  const { fitted, counted: textTokens } = checkFit(gathered.input.text, gathered.content.bytes.byteLength, counter, gathered.budgetTokens);
  // A result over its budget is saved whatever its view: the save starts now, so the disk works while this
  // process counts and projects.
  const early = fitted === false ? save(gathered, request, tenant, deps, signal) : undefined;
  // A long original is counted in a counting thread meanwhile, when one is free (what the fit check counted aside);
  // else in this thread once projected.
  const counting = countOriginal(gathered.content, counter, gathered.profile.exact, textTokens ?? false, deps.countPool);
  const options: ProjectOptions = {
    budgetTokens: gathered.budgetTokens,
    maxViewBytes: deps.maxViewBytes,
    counter,
    resultId: gathered.resultId,
    view: request.view,
    source: request.source,
    viewSpecs: deps.viewSpecs,
    ruleViewSpecs: gathered.ruleViewSpecs,
    ...(gathered.intent === "" ? {} : { intent: gathered.intent }),
    ...(textTokens === undefined ? {} : { textTokens }),
    ...(gathered.check.notice === "" ? {} : { noticeAbove: gathered.check.notice }),
  };
  const view = projectResult(gathered.input, options);
  // Media with their bytes are saved as results of their own, beside the result (also when its text fits).
  const [saved, mediaIds, original] = await Promise.all([
    early ?? (view.unchanged ? ({ archived: true, resultId: "" } satisfies Saved as Saved) : save(gathered, request, tenant, deps, signal)),
    saveMedia(gathered, request, tenant, deps, signal),
    counting(),
  ]);
  const counted = { ...gathered, original };
  const answer =
    saved.fallback === undefined
      ? response(view, counted, { resultId: saved.resultId, archived: saved.archived, mediaIds }, counter)
      : response(saved.fallback(options), counted, { resultId: "", archived: false, mediaIds }, counter);
  await gathered.check.record({ revision: gathered.content.revision, resultId: saved.archived ? saved.resultId : "" });
  if (gathered.check.notice !== "") answer.parts = [{ content: { case: "text", value: gathered.check.notice } }, ...(answer.parts ?? [])];
  answer.redactedSecrets = gathered.redactedSecrets;
  const archived = saved.archived && saved.resultId !== "" && saved.fallback === undefined;
  deps.onProjected?.(tenant, {
    saved: archived,
    ruleVersion: gathered.ruleVersion,
    omissions: answer.omissions?.length ?? 0,
    result: {
      sessionId: request.sessionId,
      source: request.source,
      toolUseId: request.result?.toolUseId ?? "",
      resultId: archived ? saved.resultId : "",
      kind: resultKindFromToolKind(answer.kind ?? ToolKind.UNSPECIFIED) ?? "generic",
      toolName: gathered.result.toolName,
      path: gathered.path ?? "",
      originalTokens: answer.usage?.originalTokens ?? 0,
      projectedTokens: answer.usage?.projectedTokens ?? 0,
      revision: gathered.content.revision,
    },
  });
  return answer;
}
