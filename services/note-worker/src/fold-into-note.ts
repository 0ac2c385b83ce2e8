import type { NoteRecord, Turn } from "@loupe/conversation";
import type { SourceRule } from "@loupe/rules";
import { summarizeWithFallback } from "@loupe/summarizer";
import type { NoteUpdaterDeps } from "./update-note.js";

/**
 * The next note: `newTurns` folded into the session's note by the rule's summarizer (the extractive one
 * when it fails). A vendor summarizer gets the session's own prefix (system, tools, the turns since the
 * runtime's last swap) so its prompt cache serves it; the note cites the saved originals of the calls
 * the turns answer.
 */
export async function foldIntoNote(
  deps: NoteUpdaterDeps,
  tenant: string,
  input: {
    sessionId: string;
    owner: string;
    rule: SourceRule;
    note: NoteRecord | undefined;
    newTurns: Turn[];
    contextWindowTokens: number;
    systemHash: string;
    toolsHash: string;
  },
  options: { onProgress: () => void; lastAttempt: boolean; signal?: AbortSignal },
): Promise<{ note: NoteRecord; inputTokens?: number; cachedInputTokens?: number }> {
  const summarizer = deps.summarizerFor(input.rule);
  const covered = input.note?.coveredThroughSeq ?? 0;
  // A vendor gets the session's own prefix (system, tools, the turns since the runtime's last swap) so its prompt cache serves it.
  let prefix = { turns: [] as Turn[], systemPrompt: "", toolsJson: "" };
  if (summarizer.name !== "extractive") {
    const base = await deps.sessions.getBase(tenant, input.sessionId);
    const from = (base?.seq ?? 0) + 1;
    const read = await deps.turns.read(
      tenant,
      input.sessionId,
      { startSeq: from, endSeq: Math.max(from, covered), systemHash: input.systemHash, toolsHash: input.toolsHash },
      options.signal,
    );
    prefix = { turns: read.turns.filter((turn) => turn.seq <= covered), systemPrompt: read.systemPrompt, toolsJson: read.toolsJson };
  }
  const maxNoteTokens = Math.max(256, Math.min(deps.maxNoteTokens, Math.floor(input.contextWindowTokens / 10)));
  // The saved originals of the calls these turns answer (from the result events): the note cites them.
  const savedResults = await deps.sessions.getSavedResults(
    tenant,
    input.sessionId,
    input.newTurns.flatMap((turn) => turn.toolResults.map((result) => result.toolUseId)),
  );
  const renew = (): void => {
    options.onProgress();
    void deps.sessions.renewLease(tenant, input.sessionId, input.owner, deps.leaseMs).catch(() => undefined);
  };
  const { draft, author, failedCode } = await summarizeWithFallback(
    summarizer,
    {
      systemPrompt: prefix.systemPrompt,
      toolsJson: prefix.toolsJson,
      previous: input.note,
      coveredTurns: prefix.turns,
      newTurns: input.newTurns,
      maxNoteTokens,
      savedResults,
    },
    { onProgress: renew, lastAttempt: options.lastAttempt, ...(options.signal ? { signal: options.signal } : {}) },
  );
  if (failedCode !== undefined)
    deps.logger.warn("summarizer failed; the extractive summarizer writes this note", { summarizer: summarizer.name, code: failedCode });
  const last = input.newTurns.at(-1)?.seq ?? covered;
  const note = { text: draft.text, coveredThroughSeq: last, version: (input.note?.version ?? 0) + 1, state: draft.state, author };
  return {
    note,
    ...(draft.inputTokens === undefined ? {} : { inputTokens: draft.inputTokens }),
    ...(draft.cachedInputTokens === undefined ? {} : { cachedInputTokens: draft.cachedInputTokens }),
  };
}
