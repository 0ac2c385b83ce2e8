import { textOfParts, type LoupeClient } from "@loupe/client";
import { AppError } from "@loupe/errors";
import type { Policy } from "./policy.js";
import { requestModel } from "./request-model.js";
import { toolCallOf } from "./tool-call.js";

/** Options of {@link createLoupePolicy}. */
export interface LoupePolicyOptions {
  /** Token budget of the first view; 0 (default) = Loupe's default. */
  readonly budgetTokens?: number;
  /** Rule source the results are projected under; default `loupe-eval`. */
  readonly source?: string;
  /** Send the runtime's intent as the request's `intent`; default false. */
  readonly intent?: boolean;
  /** The request's model: a name, `recorded` (each call's recorded model, as a hook that reads it sends it), or "" (none; default). */
  readonly model?: string;
}

const escapePattern = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * Loupe's Project through a running Loupe: each output is projected (a
 * shell-like call as `bash` with its command line as `command`), and a
 * recovery is one Recover by `pattern` (the evidence, escaped) on the saved
 * result. Named `loupe`, `loupe:budget=N` with a budget, `…intent=on`
 * when it sends the intent (`loupe:intent=on`, `loupe:budget=N,intent=on`),
 * and `…model=M` when it names a model (`model=recorded`: each call's own).
 */
export function createLoupePolicy(client: LoupeClient, options: LoupePolicyOptions = {}): Policy {
  const budgetTokens = options.budgetTokens ?? 0;
  const source = options.source ?? "loupe-eval";
  return {
    name: loupePolicyName(budgetTokens, options.intent === true, options.model ?? ""),
    view: async (row, session, context) => {
      const call = toolCallOf(row);
      const response = await client.project(
        {
          sessionId: session,
          source,
          budgetTokens,
          model: requestModel(options.model ?? "", row),
          ...(options.intent === true ? { intent: context?.intent ?? "" } : {}),
          result: {
            toolUseId: `${session}#${String(row.step)}`,
            toolName: call.toolName,
            argsJson: call.argsJson,
            parts: [{ content: { case: "text", value: row.output } }],
            isError: row.isError,
            ...(row.exitCode === undefined ? {} : { exitCode: row.exitCode }),
          },
        },
        { timeoutMs: 60_000 },
      );
      // A fail-open answer (the save failed) is not the view Loupe gives: measuring it would score a fallback.
      if (!response.archived) {
        throw new AppError(
          "unavailable",
          `Loupe answered fail-open: its archive did not save the result [trajectory=${row.trajectoryId}, step=${String(row.step)}]`,
        );
      }
      const firstView = textOfParts(response.parts);
      const resultId = response.resultId;
      if (resultId === "") return { firstView, saved: false };
      return {
        firstView,
        saved: true,
        recover: async (evidence) => {
          const answer = await client.recover({ resultId, pattern: escapePattern(evidence) }, { timeoutMs: 60_000 });
          const text = textOfParts(answer.parts);
          return { found: answer.matchCount > 0 && text.includes(evidence), answer: text };
        },
      };
    },
  };
}

/** `loupe`, `loupe:budget=N`, `loupe:intent=on`, `loupe:budget=N,intent=on,model=M`. */
function loupePolicyName(budgetTokens: number, intent: boolean, model: string): string {
  const settings = [
    ...(budgetTokens > 0 ? [`budget=${String(budgetTokens)}`] : []),
    ...(intent ? ["intent=on"] : []),
    ...(model === "" ? [] : [`model=${model}`]),
  ];
  return settings.length === 0 ? "loupe" : `loupe:${settings.join(",")}`;
}
