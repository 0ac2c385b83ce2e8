import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { ProjectRequestSchema, type ProjectRequest, type ProjectResponseSchema } from "@loupe/proto";
import type { SourceRule } from "@loupe/rules";

/**
 * Projects one tool result of a history (mode "project") under the rule version the result is pinned to;
 * undefined when it could not be saved (then it is cut instead).
 */
export type HistoryProjector = (input: {
  tenant: string;
  source: string;
  toolName: string;
  text: string;
  intent: string;
  /** The model the request is for, when the history names one (its tokenizer sets the budget's margin). */
  model: string;
  rule: SourceRule;
}) => Promise<string | undefined>;

/**
 * A {@link HistoryProjector} over the gateway's Project: the result is saved under the session
 * `history:<source>` and replaced by its first view, whose notices carry the continuations; the view
 * follows the call's intent as the history before the result gives it (fixed once the result is in
 * the history, and the view is pinned anyway). Project runs
 * with the pinned rule (its budget), not the source's current one, is deterministic, and derives the
 * result id from (tenant, session, revision), so the same result gives the same bytes on every call.
 */
export function createHistoryProjector(
  project: (request: ProjectRequest, rule: SourceRule, tenant: string) => Promise<MessageInitShape<typeof ProjectResponseSchema>>,
): HistoryProjector {
  return async ({ tenant, source, toolName, text, intent, model, rule }) => {
    const response = await project(
      create(ProjectRequestSchema, {
        sessionId: `history:${source}`,
        source,
        intent,
        model,
        result: { toolName, parts: [{ content: { case: "text", value: text } }] },
      }),
      rule,
      tenant,
    );
    // Not saved: its continuations would lead nowhere. The caller cuts it instead.
    if (response.archived !== true) return undefined;
    return (response.parts ?? []).map((part) => (part.content?.case === "text" ? part.content.value : "")).join("");
  };
}
