// Samples what a process allocates, for test/bench/summarize-allocations.ts: preload it into Loupe's
// processes with LOUPE_TEST_NODE_FLAGS="--import <absolute path of this file>" (plain JavaScript: it loads
// before tsx). V8's sampling heap profiler runs from start-up with the objects the garbage collector
// takes kept in, so the profile counts everything allocated (where a call's garbage comes from), not
// what survives. On SIGTERM or SIGINT (before the process's own handlers run) or at exit, the profile is
// written to $LOUPE_ALLOCATIONS_DIR (default the system's temporary folder) as allocations.<pid>.json.
// LOUPE_ALLOCATIONS_INTERVAL: bytes between samples (default 32768; smaller is finer and slower).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { tmpdir } from "node:os";
import { join } from "node:path";

const session = new Session();
session.connect();
session.post("HeapProfiler.enable");
session.post("HeapProfiler.startSampling", {
  samplingInterval: Number(process.env.LOUPE_ALLOCATIONS_INTERVAL ?? 32768),
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});

let written = false;
function write() {
  if (written) return;
  written = true;
  // The in-thread session answers synchronously: the file is written before the signal's other handlers run.
  session.post("HeapProfiler.stopSampling", (error, result) => {
    if (error) return;
    writeFileSync(join(process.env.LOUPE_ALLOCATIONS_DIR ?? tmpdir(), `allocations.${process.pid}.json`), JSON.stringify(result.profile));
  });
}
process.prependListener("SIGTERM", write);
process.prependListener("SIGINT", write);
process.once("exit", write);
