import { readFile } from "node:fs/promises";
import { fromJson, toJsonString } from "@bufbuild/protobuf";
import { AppError, isAppError } from "@loupe/errors";
import { ProjectResponseSchema, RecoverRequestSchema } from "@loupe/proto/loupe/v1/projection";
import { loupeAddress, projectionClient } from "./loupe-connection.js";
import { parseFlags } from "./parse-flags.js";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The text of the file a flag names.
 * @throws AppError `invalid_argument` naming the flag and the file when it cannot be read
 */
async function readFlagFile(flag: string, path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new AppError(
      "invalid_argument",
      `--${flag} cannot be read [file=${path}, error=${(error as NodeJS.ErrnoException).code ?? (error as Error).message}]`,
    );
  }
}

/**
 * Runs a call to Loupe at `address`, naming the address and how to change it when nothing answers there
 * (instead of grpc-js's "No connection established").
 * @throws AppError `unavailable` when Loupe cannot be reached; the call's own error otherwise
 */
async function reaching<T>(address: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isAppError(error) && error.code === "unavailable")
      throw new AppError(
        "unavailable",
        `cannot reach Loupe at ${address}: start it (loupe serve) or name its address (LOUPE_ADDR, --addr) [${error.message}]`,
        {
          cause: error,
        },
      );
    throw error;
  }
}

/**
 * The Recover request a continuation names, as the view printed it.
 * @throws AppError `invalid_argument` when it is not JSON, or not a Recover request
 */
function parseContinuation(continuation: string): ReturnType<typeof fromJson<typeof RecoverRequestSchema>> {
  let json: unknown;
  try {
    json = JSON.parse(continuation);
  } catch (error) {
    throw new AppError("invalid_argument", `the continuation is not JSON: pass it as the view printed it, in single quotes [${(error as Error).message}]`);
  }
  try {
    return fromJson(RecoverRequestSchema, json as never);
  } catch (error) {
    throw new AppError("invalid_argument", `the continuation is not a Recover request [${(error as Error).message}]`);
  }
}

/**
 * What the agent is looking for, from `--intent TEXT` or `--intent-file F` (not both): the task and the message
 * that asked for the call, as ProjectRequest.intent takes them; "" when neither is given.
 * @throws AppError `invalid_argument` when both are given
 */
async function intentOf(flags: { intent?: string | undefined; "intent-file"?: string | undefined }): Promise<string> {
  if (flags.intent !== undefined && flags["intent-file"] !== undefined)
    throw new AppError("invalid_argument", "give the intent once: --intent TEXT or --intent-file F");
  return flags["intent-file"] === undefined ? (flags.intent ?? "") : await readFlagFile("intent-file", flags["intent-file"]);
}

/**
 * `loupe project [--file F] [--tool NAME] [--command CMD] [--intent TEXT | --intent-file F] [--model NAME]
 * [--source APP] [--session ID] [--budget N] [--json]`: projects stdin (or a file) through a running Loupe and
 * prints the first view, then one line per omission with its continuation. `--command` is the command that
 * made the output (the call's arguments: `cat app.py` reads a file, `grep -rn …` searches); `--intent` what
 * the agent is looking for, so the view keeps the lines that mention it; `--model` the model that reads the
 * view (its tokenizer: no margin for an unknown one).
 */
export async function projectCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const flags = parseFlags(args, ["file", "tool", "command", "intent", "intent-file", "model", "source", "session", "budget", "addr"], ["json"]);
  const text = flags.values.file === undefined ? await readStdin() : await readFlagFile("file", flags.values.file);
  const budget = flags.values.budget === undefined ? 0 : Number(flags.values.budget);
  if (!Number.isInteger(budget) || budget < 0)
    throw new AppError("invalid_argument", `--budget must be a whole number [budget=${String(flags.values.budget)}]`);
  const intent = await intentOf(flags.values);
  const address = loupeAddress(env, flags.values.addr);
  const client = projectionClient(env, address);
  try {
    const response = await reaching(address, () =>
      client.project({
        sessionId: flags.values.session ?? "cli",
        budgetTokens: budget,
        intent,
        model: flags.values.model ?? "",
        source: flags.values.source ?? env["LOUPE_SOURCE"] ?? "",
        result: {
          toolName: flags.values.tool ?? "bash",
          ...(flags.values.command === undefined ? {} : { argsJson: JSON.stringify({ command: flags.values.command }) }),
          parts: [{ content: { case: "text", value: text } }],
        },
      }),
    );
    if (flags.switches.has("json")) {
      process.stdout.write(toJsonString(ProjectResponseSchema, response, { prettySpaces: 2 }) + "\n");
      return 0;
    }
    for (const part of response.parts) if (part.content.case === "text") process.stdout.write(part.content.value);
    process.stderr.write(
      `\nresult_id=${response.resultId || "(not saved)"} archived=${String(response.archived)} tokens ${String(response.usage?.originalTokens ?? 0)} → ${String(response.usage?.projectedTokens ?? 0)}\n`,
    );
    for (const omission of response.omissions) process.stderr.write(`omitted: ${omission.continuationJson || omission.description}\n`);
    return 0;
  } finally {
    client.close();
  }
}

/**
 * `loupe recover '<continuation_json>' [--budget N] [--all]`: sends a
 * continuation to Recover as it is and prints what comes back; with --all it
 * follows next_cursor to the end of the range.
 */
export async function recoverCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const flags = parseFlags(args, ["budget", "addr"], ["all"]);
  const [continuation] = flags.positionals;
  if (continuation === undefined) throw new AppError("invalid_argument", "usage: loupe recover '<continuation_json>' [--budget N] [--all]");
  const request = parseContinuation(continuation);
  if (flags.values.budget !== undefined) {
    const budget = Number(flags.values.budget);
    if (!Number.isInteger(budget) || budget < 0) throw new AppError("invalid_argument", `--budget must be a whole number [budget=${flags.values.budget}]`);
    request.budgetTokens = budget;
  }
  const address = loupeAddress(env, flags.values.addr);
  const client = projectionClient(env, address);
  try {
    let response = await reaching(address, () => client.recover(request));
    for (;;) {
      for (const part of response.parts) if (part.content.case === "text") process.stdout.write(part.content.value);
      if (response.nextCursor === "") return 0;
      if (!flags.switches.has("all")) {
        process.stderr.write(`\nmore: ${JSON.stringify({ result_id: response.resultId, cursor: response.nextCursor })}\n`);
        return 0;
      }
      response = await client.recover({ resultId: response.resultId, cursor: response.nextCursor, budgetTokens: request.budgetTokens });
    }
  } finally {
    client.close();
  }
}
