import { spawnSync } from "node:child_process";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { TurnSchema } from "@loupe/proto";

/** A turn as a test sends it to AppendTurns. */
export type TurnInit = MessageInitShape<typeof TurnSchema>;

/** Runs a real program (in `cwd`, default this process's) and returns what an agent's tool would see: stdout then stderr, and the exit code. */
export function runProgram(program: string, args: readonly string[], cwd?: string): { output: string; exitCode: number } {
  const run = spawnSync(program, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...(cwd === undefined ? {} : { cwd }) });
  // A program that could not be started, or was killed, printed nothing a test can stand on (not "undefined").
  if (run.error !== undefined) throw new Error(`${program} could not run: ${run.error.message}`, { cause: run.error });
  if (run.status === null) throw new Error(`${program} was killed by ${String(run.signal)}`);
  return { output: `${run.stdout}${run.stderr}`, exitCode: run.status };
}

/** Runs a real command line in bash and returns what an agent's shell tool would see: output and exit code. */
export function runCommand(command: string): { output: string; exitCode: number } {
  return runProgram("bash", ["-c", command]);
}

const text = (value: string) => ({ content: { case: "text" as const, value } });

/**
 * A realistic coding-agent session of `rounds` rounds after the task: each round an assistant turn that
 * runs a real command and a user turn carrying its output. Round 3 fails with a TypeError (a real node
 * process throwing), the next edits src/parser.ts, the one after passes; the rest list and read files.
 * Seqs start at `firstSeq`.
 */
export function agentSession(rounds: number, firstSeq = 1): TurnInit[] {
  const turns: TurnInit[] = [
    { seq: firstSeq, role: "user", parts: [text("Fix the failing parser test in src/parser.ts; the CI run says `npm test` fails with a TypeError.")] },
  ];
  const failing = runCommand(`node -e 'const rows = undefined; function parse(r) { return r.length } console.log("running 12 tests"); parse(rows)'`);
  for (let round = 0; round < rounds; round++) {
    const seq = firstSeq + 1 + round * 2;
    const id = `toolu_${String(seq).padStart(4, "0")}`;
    let call: { name: string; args: Record<string, unknown> };
    let result: { output: string; exitCode: number };
    if (round === 2) {
      call = { name: "Bash", args: { command: "npm test" } };
      result = failing;
    } else if (round === 3) {
      call = { name: "Edit", args: { file_path: "src/parser.ts", old_string: "return r.length", new_string: "return r?.length ?? 0" } };
      result = { output: "The file src/parser.ts has been updated.", exitCode: 0 };
    } else if (round === 4) {
      call = { name: "Bash", args: { command: "npm test" } };
      result = runCommand(`node -e 'console.log("running 12 tests"); console.log("12 passed, 0 failed")'`);
    } else {
      call = { name: "Bash", args: { command: `ls -la /usr/lib | head -n ${String(40 + round)}` } };
      result = runCommand(`ls -la /usr/lib | head -n ${String(40 + round)}`);
    }
    const say =
      round === 3 ? "The root cause is that parse() gets undefined rows; I'll guard it in src/parser.ts." : `Step ${String(round + 1)}: running ${call.name}.`;
    turns.push({ seq, role: "assistant", parts: [text(say)], toolCalls: [{ toolUseId: id, name: call.name, argsJson: JSON.stringify(call.args) }] });
    turns.push({
      seq: seq + 1,
      role: "user",
      toolResults: [{ toolUseId: id, toolName: call.name, parts: [text(result.output)], isError: result.exitCode !== 0, exitCode: result.exitCode }],
    });
  }
  return turns;
}
