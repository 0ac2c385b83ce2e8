import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { ProjectRequestSchema, type ProjectRequest, type ProjectResponseSchema } from "@loupe/proto";

/** Projects one tool result of a history (mode "project"); undefined when it could not be saved (then it is cut instead). */
export type HistoryProjector = (input: { source: string; toolName: string; text: string; budgetTokens: number }) => Promise<string | undefined>;

/**
 * A {@link HistoryProjector} over the gateway's Project: the result is saved under the session
 * `history:<source>` and replaced by its first view, whose notices carry the continuations. Project is
 * deterministic and the result id is derived from (tenant, session, revision), so the same result gives
 * the same bytes on every call.
 */
export function createHistoryProjector(project: (request: ProjectRequest) => Promise<MessageInitShape<typeof ProjectResponseSchema>>): HistoryProjector {
  return async ({ source, toolName, text, budgetTokens }) => {
    const response = await project(create(ProjectRequestSchema, { sessionId: `history:${source}`, source, budgetTokens, result: { toolName, parts: [{ content: { case: "text", value: text } }] } }));
    // Not saved: its continuations would lead nowhere. The caller cuts it instead.
    if (response.archived !== true) return undefined;
    return (response.parts ?? []).map((part) => (part.content?.case === "text" ? part.content.value : "")).join("");
  };
}
