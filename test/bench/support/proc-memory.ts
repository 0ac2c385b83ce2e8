// Resident memory of a process from /proc/<pid>/status (Linux).
import { readFileSync } from "node:fs";

/** Current (VmRSS) and peak (VmHWM) resident set of `pid`, in MB. */
export function residentMemory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${String(pid)}/status`, "utf8");
  const kilobytes = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kilobytes("VmRSS") / 1024, peakMb: kilobytes("VmHWM") / 1024 };
}
