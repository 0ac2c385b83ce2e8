import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { ProjectRequestSchema, type ProjectRequest, type ProjectResponseSchema } from "@loupe/proto";
import type { SourceRule } from "@loupe/rules";

/**
 * Projects one tool result of a history (mode "project") under the rule version the result is pinned to;
 * undefined when it could not be saved (then it is cut instead).
 */
export type HistoryProjector = (input: { source: string; toolName: string; text: string; rule: SourceRule }) => Promise<string | undefined>;

/**
 * A {@link HistoryProjector} over the gateway's Project: the result is saved under the session
 * `history:<source>` and replaced by its first view, whose notices carry the continuations. Project runs
 * with the pinned rule (its budget), not the source's current one, is deterministic, and derives the
 * result id from (tenant, session, revision), so the same result gives the same bytes on every call.
 */
export function createHistoryProjector(project: (request: ProjectRequest, rule: SourceRule) => Promise<MessageInitShape<typeof ProjectResponseSchema>>): HistoryProjector {
  return async ({ source, toolName, text, rule }) => {
    const response = await project(create(ProjectRequestSchema, { sessionId: `history:${source}`, source, result: { toolName, parts: [{ content: { case: "text", value: text } }] } }), rule);
    // Not saved: its continuations would lead nowhere. The caller cuts it instead.
    if (response.archived !== true) return undefined;
    return (response.parts ?? []).map((part) => (part.content?.case === "text" ? part.content.value : "")).join("");
  };
}
