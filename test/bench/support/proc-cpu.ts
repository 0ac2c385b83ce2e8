// CPU time a process has used, from /proc/<pid>/stat (Linux): user + system, every thread.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second (`getconf CLK_TCK`; 100 when it cannot be asked). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Milliseconds of CPU (user + system, all threads) `pid` has used so far. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
  // The command name (field 2) may hold spaces: count fields from after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / clockTicks();
}

/** The CPU milliseconds of several processes together (a distributed Loupe is more than one). */
export function cpuMsOf(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
}
