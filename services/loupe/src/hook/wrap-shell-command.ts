import { WRAP_MARKER } from "@loupe/client/intent";

/** Quotes a string for a POSIX shell (bash, zsh, sh): one argument, whatever it holds. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}

/** How the rewritten command reaches `loupe`: the program and the arguments before `exec`. */
export interface LoupeInvocation {
  /** e.g. ["/usr/bin/node", "/usr/lib/node_modules/loupe-context/dist/main.js"]. */
  argv: readonly string[];
}

/** This `loupe` as one shell command line, with `args` after it (each argument quoted). */
export function commandLine(invocation: LoupeInvocation, ...args: string[]): string {
  return [...invocation.argv, ...args].map(shellQuote).join(" ");
}

/** What the wrapped command passes to `loupe exec --report`. */
export interface WrapOptions {
  sessionId: string;
  source: string;
  toolName: string;
  /** The file the command's output goes to: created (empty, private) before the command runs, removed after the report. */
  outputFile: string;
  /** Where the runtime keeps its transcript, and the call's id in it: `loupe exec` reads the call's intent there. */
  transcript?: { runtime: string; path: string; toolUseId: string };
  /** A private file holding the call's intent and model (what a plugin passed): `loupe exec` reads it, then removes it. */
  contextFile?: string;
}

/** Commands longer than this are left alone (the wrapper passes the command as one argument). */
export const MAX_WRAPPED_COMMAND_CHARS = 64 * 1024;

// Words that end or replace the shell itself (`exit 1`, `exec prog`, `set -e`): such a command runs in a subshell,
// or the shell would be gone before the output is reported.
const LEAVES_SHELL = /(^|[\s;&|(){}])(exit|exec|logout)(\s|;|$)|\bset\s+-[A-Za-z]*e|\berrexit\b/;

/**
 * Rewrites an agent's shell command so that its whole output is captured before the runtime
 * cuts it: the command runs as it was, in the agent's own shell (so `cd`, `export` and
 * `source` keep their effect on later commands) — in a subshell when it could end the shell
 * (`exit`, `exec`, `set -e`) — with stdout and stderr going to `options.outputFile`; then
 * `loupe exec --report` saves that output in Loupe and prints the first view, and the command's
 * own exit status is restored. Portable to bash, zsh and sh (no GNU-only tools; the duration
 * comes from the shell's SECONDS where it has one). What it adds holds no command or process
 * substitution (`$(…)`, backticks, `<(…)`): Gemini CLI refuses to run a command that does. The
 * original is followed by a newline, so a trailing comment or heredoc ends where it did.
 */
export function wrapShellCommand(command: string, loupe: LoupeInvocation, options: WrapOptions): string {
  const self = commandLine(loupe);
  const report = [
    `${self} exec --report "$${WRAP_MARKER}" --exit-code "$__loupe_rc" --start-seconds "$__loupe_t0" --end-seconds "$SECONDS"`,
    `--session ${shellQuote(options.sessionId)} --source ${shellQuote(options.source)} --tool ${shellQuote(options.toolName)}`,
    ...(options.transcript === undefined || options.transcript.path === ""
      ? []
      : [
          `--runtime ${shellQuote(options.transcript.runtime)} --transcript ${shellQuote(options.transcript.path)} --tool-use-id ${shellQuote(options.transcript.toolUseId)}`,
        ]),
    ...(options.contextFile === undefined ? [] : [`--context-file ${shellQuote(options.contextFile)}`]),
    `--command ${shellQuote(command)}`,
  ].join(" ");
  const [open, close] = LEAVES_SHELL.test(command) ? ["(", ")"] : ["{", "}"];
  return [
    `${WRAP_MARKER}=${shellQuote(options.outputFile)}; __loupe_t0=$SECONDS; ${open}`,
    command,
    `${close} >"$${WRAP_MARKER}" 2>&1; __loupe_rc=$?; ${report}; rm -f "$${WRAP_MARKER}"; (exit "$__loupe_rc")`,
  ].join("\n");
}

/** Whether a command may be wrapped: not one already wrapped, not empty, not too long. */
export function isWrappable(command: string): boolean {
  return command.trim() !== "" && !command.includes(WRAP_MARKER) && command.length <= MAX_WRAPPED_COMMAND_CHARS;
}
