import { execFileSync } from "node:child_process";

/**
X
 * formatting), so the lines are known independently of Loupe.
 */
export function numberedLines(count: number, label = "row"): string {
  return execFileSync("awk", [`BEGIN { for (i = 1; i <= ${String(count)}; i++) printf "${label} %05d: the quick brown fox jumps over the lazy dog\\n", i }`], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
}
