// Real program output to feed Project, cut to a size and made unique per call
// (so content-addressed saving never finds a copy already stored).
import { execFileSync } from "node:child_process";

/** One kind of real output, as a program printed it. */
export interface ToolOutput {
  readonly name: string;
  readonly toolName: string;
  readonly text: string;
  /** The command line a runtime would send as the call's arguments (what tells Loupe which program ran). */
  readonly command: string;
}

const sh = (command: string): string => execFileSync("bash", ["-c", command], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

// The programs, as the command lines a runtime's shell tool would send for them.
const PROGRAMS: ReadonlyArray<{ name: string; command: string }> = [
  { name: "find /usr/lib", command: "find /usr/lib" },
  { name: "ls -laR /usr/share", command: "ls -laR /usr/share" },
  {
    name: "build log (node)",
    command: `node -e 'for (let i = 0; i < 40000; i++) { console.log("[" + i + "] compiling module src/feature" + (i % 97) + "/index.ts ... ok (" + (i * 7919 % 1000) + " ms)"); if (i % 700 === 11) console.log("src/feature" + i + ".ts:12:5 - error TS2322: Type string is not assignable to type number."); } console.log("Found errors.")'`,
  },
];

/** Runs the programs once: a `find`, an `ls -laR` and a build log with errors (node), each at least `minBytes` long. */
export function realToolOutputs(minBytes: number): ToolOutput[] {
  const head = `head -c ${String(minBytes + 64 * 1024)}`;
  const outputs = PROGRAMS.map(({ name, command }): ToolOutput => ({ name, toolName: "bash", command, text: sh(`${command} 2>/dev/null | ${head}`) }));
  for (const output of outputs) {
    if (Buffer.byteLength(output.text) < minBytes) throw new Error(`${output.name} printed fewer than ${String(minBytes)} bytes`);
  }
  return outputs;
}

/**
 * The first whole lines of `output` that fit in `bytes` less room for a counter
 * line, then `[call <n>]`: unique per call, and exactly as long every time for a
 * given size (within the counter's digits).
 */
export function sizedOutput(output: ToolOutput, bytes: number): (call: number) => string {
  const room = bytes - 32;
  let text = output.text.slice(0, room);
  while (Buffer.byteLength(text) > room) text = text.slice(0, Math.floor(text.length * 0.95));
  const cut = text.lastIndexOf("\n");
  const body = cut > 0 ? text.slice(0, cut + 1) : text;
  return (call) => `${body}[call ${String(call).padStart(8, "0")}]\n`;
}
