// `pnpm chaos [seconds per phase]` (default 20): the fault run, printed as a table.
import { formatChaos, runChaos } from "./run-chaos.js";

const seconds = Number(process.argv[2] ?? 20);
const report = await runChaos(seconds * 1000);
process.stdout.write(
  `chaos: phases of ${String(seconds)} s, 6 Project callers and ${String(report.sessions)} AppendTurns sessions\n\n${formatChaos(report)}\n`,
);
process.exitCode = report.lost === 0 && report.twice === 0 && report.converged === report.sessions ? 0 : 1;
