import type { MessageInitShape } from "@bufbuild/protobuf";
import { createCachingCounter, PROJECTOR_VERSION, projectResult, type ProjectOptions, type ResultView, type TokenCounter } from "@loupe/projection";
import { ToolKind, type ProjectRequest, type ProjectResponseSchema } from "@loupe/proto";
import type { SourceRule } from "@loupe/rules";
import { resultKindFromToolKind, toolKindFromResultKind } from "../result-kind.js";
import { viewParts, withMediaIds } from "../view-parts.js";
import { gather, type Gathered } from "./gather.js";
import { checkFit, countOriginal, type TokenCount } from "./original-tokens.js";
import type { PortableProjectOptions } from "./project-here.js";
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
  const running = deps.running;
  if (running !== undefined) running.calls++;
  try {
    // Alone, a call projects here, overlapping its save; beside other calls, in a thread when one is free
    // (and takes a result this large), so that this thread serves the others meanwhile.
    const threaded = running !== undefined && running.calls > 1 ? projectInThread(gathered, request, tenant, deps, signal) : undefined;
    return finish(gathered, request, tenant, deps, (await threaded) ?? (await projectInCall(gathered, request, tenant, deps, signal)));
  } finally {
    if (running !== undefined) running.calls--;
  }
}

/** A projection with its save and media: the view, the saved result (or its fail-open view), the original's count. */
interface Made {
  view: ResultView;
  saved: Saved;
  mediaIds: ReadonlyMap<number, string>;
  original: TokenCount;
  options: ProjectOptions;
}

function portableOptions(gathered: Gathered, request: ProjectRequest, deps: ProjectDeps): PortableProjectOptions {
  return {
    budgetTokens: gathered.budgetTokens,
    maxViewBytes: deps.maxViewBytes,
    resultId: gathered.resultId,
    view: request.view,
    source: request.source,
    viewSpecs: deps.viewSpecs,
    ruleViewSpecs: gathered.ruleViewSpecs,
    ...(gathered.intent === "" ? {} : { intent: gathered.intent }),
    ...(gathered.check.notice === "" ? {} : { noticeAbove: gathered.check.notice }),
  };
}

/**
 * In this thread: the fit check, then the save of a result over its budget starts and is handed over (its
 * commit runs on the store's thread while this thread projects), a long original's count goes to a
 * counting thread when one is free, then the projection; media are saved beside the result.
 */
async function projectInCall(gathered: Gathered, request: ProjectRequest, tenant: string, deps: ProjectDeps, signal?: AbortSignal): Promise<Made> {
  // One cache of line counts for the call: the view is counted from the counts its projection made.
  const counter = createCachingCounter(deps.counterFor(gathered.profile.encoding));
  // A small result is counted whole here (its count is the original's); a larger one up to its budget.
  const { fitted, counted: textTokens } = checkFit(gathered.input.text, gathered.content.bytes.byteLength, counter, gathered.budgetTokens);
  const early = fitted === false ? await saveHandedOver(gathered, request, tenant, deps, signal) : undefined;
  // A long original is counted in a counting thread meanwhile, when one is free (what the fit check counted aside);
  // else in this thread once projected.
  const counting = countOriginal(gathered.content, counter, gathered.profile.exact, textTokens ?? false, deps.countPool);
  const options = { ...portableOptions(gathered, request, deps), counter, ...(textTokens === undefined ? {} : { textTokens }) };
  const view = projectResult(gathered.input, options);
  // Media with their bytes are saved as results of their own, beside the result (also when its text fits).
  const [saved, mediaIds, original] = await Promise.all([
    early?.saved ?? (view.unchanged ? ({ archived: true, resultId: "" } satisfies Saved as Saved) : save(gathered, request, tenant, deps, signal)),
    saveMedia(gathered, request, tenant, deps, signal),
    counting(),
  ]);
  return { view: { ...view, tokens: view.tokens ?? counter.count(view.text) }, saved, mediaIds, original, options };
}

/**
 * Starts the save and waits until the archive has it in hand (PutCallOptions.onAccepted: in process, once
 * LMDB's write thread holds its transaction, whose callback needs this thread), or the save ends: the
 * commit and its flush then run on the write thread while this thread projects and counts, instead of
 * waiting for them to finish. Answers the save still under way.
 */
async function saveHandedOver(
  gathered: Gathered,
  request: ProjectRequest,
  tenant: string,
  deps: ProjectDeps,
  signal?: AbortSignal,
): Promise<{ saved: Promise<Saved> }> {
  let onAccepted: () => void = () => undefined;
  const accepted = new Promise<void>((resolve) => (onAccepted = resolve));
  const saved = save(gathered, request, tenant, deps, signal, onAccepted);
  await Promise.race([accepted, saved]);
  return { saved };
}

/**
 * In a thread of the pool (projectHere: the same view and counts), then the save; undefined when no thread
 * is free or the thread failed (the call then projects in this thread).
 */
async function projectInThread(
  gathered: Gathered,
  request: ProjectRequest,
  tenant: string,
  deps: ProjectDeps,
  signal?: AbortSignal,
): Promise<Made | undefined> {
  const options = portableOptions(gathered, request, deps);
  const encoding = gathered.profile.encoding;
  const job = deps.countPool?.project({ input: gathered.input, options, encoding, bytes: gathered.content.bytes.byteLength, exact: gathered.profile.exact });
  const projected = await job?.catch(() => undefined);
  if (projected === undefined) return undefined;
  const { view, original } = projected;
  const [saved, mediaIds] = await Promise.all([
    view.unchanged ? ({ archived: true, resultId: "" } satisfies Saved as Saved) : save(gathered, request, tenant, deps, signal),
    saveMedia(gathered, request, tenant, deps, signal),
  ]);
  // A fail-open view (a failed save) is projected here, with a counter of its own.
  return { view, saved, mediaIds, original, options: { ...options, counter: createCachingCounter(deps.counterFor(encoding)) } };
}

/** The answer, once projected and saved: the read recorded, the projection told (result event, ledger). */
async function finish(gathered: Gathered, request: ProjectRequest, tenant: string, deps: ProjectDeps, made: Made): Promise<ProjectResponseInit> {
  const { view, saved, mediaIds, original, options } = made;
  const counted = { ...gathered, original };
  const answer =
    saved.fallback === undefined
      ? response(view, counted, { resultId: saved.resultId, archived: saved.archived, mediaIds }, options.counter)
      : response(saved.fallback(options), counted, { resultId: "", archived: false, mediaIds }, options.counter);
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
