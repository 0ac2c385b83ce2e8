// The fault run: distributed Loupe (gateway, archive on Ceph RGW, note-worker) on NATS and Redis of
// its own, under steady Project and AppendTurns load, while S3 (radosgw only), NATS, Redis, the archive
// and the note-worker are stopped and started again in turn. `pnpm chaos` runs it with long phases
// (chaos-cli.ts); the test suite with short ones (chaos.test.ts).
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLoupeClient, type LoupeClient } from "@loupe/client";
import { isAppError } from "@loupe/errors";
import { freePort, removeBucket, rgwDir, rgwInstance, s3ProcessEnv, s3TestEnv, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { ownNats, ownRedis } from "./own-servers.js";

const SESSIONS = 4;
const PROJECT_WORKERS = 6;

/** One phase's counts. */
export interface Tally {
  requests: number;
  errors: number;
  failOpen: number;
  errorCodes: Map<string, number>;
}
const newTally = (): Tally => ({ requests: 0, errors: 0, failOpen: 0, errorCodes: new Map() });

/** What a fault run saw: each phase's counts, and what the turn log and the notes hold after it. */
export interface ChaosReport {
  phases: Array<{ name: string; tally: Tally }>;
  accepted: number;
  lost: number;
  twice: number;
  converged: number;
  sessions: number;
}

/** Runs the faults in turn, each phase `phaseMs` long (down, then back). */
export async function runChaos(phaseMs: number): Promise<ChaosReport> {
  const run = randomUUID().slice(0, 8);
  const scratch = await mkdtemp(join(tmpdir(), "loupe-chaos-"));
  const s3 = s3TestEnv();
  const bucket = `loupe-chaos-${run}`;
  const rgw = rgwInstance(rgwDir(), Number(new URL(s3.endpoint).port));
  const nats = ownNats(await freePort(), join(scratch, "nats"));
  const redis = ownRedis(await freePort(), join(scratch, "redis"));
  const ports = { archive: await freePort(), gateway: await freePort() };
  const internalToken = randomUUID();
  const archiveEnv = { ...s3ProcessEnv(s3, bucket), LOUPE_GRPC_PORT: String(ports.archive), LOUPE_HTTP_PORT: "0", LOUPE_INTERNAL_TOKEN: internalToken };
  const workerEnv = {
    LOUPE_NATS_URL: `nats://127.0.0.1:${String(nats.port)}`,
    LOUPE_REDIS_URL: `redis://127.0.0.1:${String(redis.port)}`,
    LOUPE_ARCHIVE_ADDR: `127.0.0.1:${String(ports.archive)}`,
    LOUPE_NOTE_WORKER_DURABLE: `chaos-${run}`,
    LOUPE_GRPC_PORT: "0",
    LOUPE_HTTP_PORT: "0",
    LOUPE_INTERNAL_TOKEN: internalToken,
  };
  const gatewayEnv = {
    LOUPE_NATS_URL: workerEnv.LOUPE_NATS_URL,
    LOUPE_REDIS_URL: workerEnv.LOUPE_REDIS_URL,
    LOUPE_ARCHIVE_ADDR: workerEnv.LOUPE_ARCHIVE_ADDR,
    LOUPE_GRPC_PORT: String(ports.gateway),
    LOUPE_HTTP_PORT: "0",
    LOUPE_RESULT_ID_SECRET: `chaos-${run}`,
    LOUPE_INTERNAL_TOKEN: internalToken,
    // Small windows so notes are updated often.
    LOUPE_CONTEXT_WINDOW_TOKENS: "4000",
  };

  let archive: LoupeProcess | undefined;
  let noteWorker: LoupeProcess | undefined;
  let gateway: LoupeProcess | undefined;
  const startArchive = async (): Promise<void> => {
    archive = startLoupeProcess(["archive"], archiveEnv);
    await archive.waitFor(/archive started/, 60_000);
  };
  const startWorker = async (): Promise<void> => {
    noteWorker = startLoupeProcess(["note-worker"], workerEnv);
    await noteWorker.waitFor(/note-worker started/, 60_000);
  };

  let tally = newTally();
  let stopping = false;
  const accepted = Array.from({ length: SESSIONS }, () => new Set<number>());

  async function projectLoop(client: LoupeClient, worker: number): Promise<void> {
    for (let call = 0; !stopping; call++) {
      const text = Array.from(
        { length: 400 },
        (_, line) => `worker ${String(worker)} call ${String(call)} line ${String(line)}: processing batch ${String(line * 7)}`,
      ).join("\n");
      tally.requests++;
      try {
        const answer = await client.project({
          sessionId: `chaos-p${String(worker)}`,
          result: { toolName: "bash", parts: [{ content: { case: "text", value: text } }] },
        });
        if (!answer.archived) tally.failOpen++;
      } catch (error) {
        tally.errors++;
        const code = isAppError(error) ? error.code : "other";
        tally.errorCodes.set(`project ${code}`, (tally.errorCodes.get(`project ${code}`) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  async function turnLoop(client: LoupeClient, session: number): Promise<void> {
    let seq = 1;
    while (!stopping) {
      tally.requests++;
      try {
        const text = `session ${String(session)} turn ${String(seq)}: checked module_${String(seq % 13)} and file_${String(seq % 7)}.py`;
        await client.appendTurns({
          sessionId: `chaos-s${String(session)}-${run}`,
          source: "chaos",
          turns: [{ seq, role: seq % 2 === 1 ? "user" : "assistant", parts: [{ content: { case: "text", value: text } }] }],
          contextWindowTokens: 4000,
        });
        accepted[session]?.add(seq);
        seq++;
      } catch (error) {
        tally.errors++;
        const code = isAppError(error) ? error.code : "other";
        tally.errorCodes.set(`append ${code}`, (tally.errorCodes.get(`append ${code}`) ?? 0) + 1);
        // A refused append is retried with the same seq: it must be stored once.
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  const faults: Array<{ name: string; stop: () => Promise<void>; start: () => Promise<void> }> = [
    { name: "S3 (radosgw killed)", stop: () => rgw.killGateway(), start: () => rgw.start() },
    { name: "NATS", stop: () => nats.stop(), start: () => nats.start() },
    { name: "Redis", stop: () => redis.stop("SIGTERM"), start: () => redis.start() },
    { name: "archive service", stop: async () => void (await archive?.stop("SIGKILL")), start: startArchive },
    { name: "note-worker", stop: async () => void (await noteWorker?.stop("SIGKILL")), start: startWorker },
  ];

  const phases: Array<{ name: string; tally: Tally }> = [];
  const phase = async (name: string): Promise<void> => {
    tally = newTally();
    await new Promise((resolve) => setTimeout(resolve, phaseMs));
    phases.push({ name, tally });
  };

  let client: LoupeClient | undefined;
  try {
    await rgw.start();
    await Promise.all([nats.start(), redis.start()]);
    await startArchive();
    await startWorker();
    gateway = startLoupeProcess(["gateway"], gatewayEnv);
    await gateway.waitFor(/gateway started/, 60_000);
    client = createLoupeClient({ address: `127.0.0.1:${String(ports.gateway)}`, retries: 0, timeoutMs: 15_000 });
    const loupe = client;
    const load = [
      ...Array.from({ length: PROJECT_WORKERS }, (_, worker) => projectLoop(loupe, worker)),
      ...Array.from({ length: SESSIONS }, (_, session) => turnLoop(loupe, session)),
    ];
    await phase("none (steady load)");
    for (const fault of faults) {
      await fault.stop();
      await phase(`${fault.name}: down`);
      await fault.start();
      await phase(`${fault.name}: back`);
    }
    stopping = true;
    await Promise.all(load);

    // Every accepted turn is in the log exactly once; the notes catch up.
    let lost = 0;
    let twice = 0;
    let converged = 0;
    for (let session = 0; session < SESSIONS; session++) {
      const sessionId = `chaos-s${String(session)}-${run}`;
      const seqs: number[] = [];
      let cursor = "";
      do {
        const page = await loupe.readHistory({ sessionId, ...(cursor === "" ? { startSeq: 1 } : { cursor }), budgetTokens: 20_000 });
        seqs.push(...page.turns.map((turn) => turn.seq));
        cursor = page.nextCursor;
      } while (cursor !== "");
      const counts = new Map<number, number>();
      for (const seq of seqs) counts.set(seq, (counts.get(seq) ?? 0) + 1);
      for (const seq of accepted[session] ?? []) if (!counts.has(seq)) lost++;
      for (const count of counts.values()) if (count > 1) twice++;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const note = await loupe.getNote({ sessionId }).catch(() => undefined);
        // The worker updates a note once the turns it does not cover pass a share of the window: caught up = a note, and a lag below that.
        if (note !== undefined && (note.note?.coveredThroughSeq ?? 0) > 0 && note.lagTurns < 64) {
          converged++;
          break;
        }
        if (Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    return { phases, accepted: accepted.reduce((sum, set) => sum + set.size, 0), lost, twice, converged, sessions: SESSIONS };
  } finally {
    stopping = true;
    client?.close();
    await Promise.all([gateway?.stop(), noteWorker?.stop(), archive?.stop()]);
    await Promise.all([nats.stop(), redis.stop("SIGTERM")]);
    await rgw.start().catch(() => undefined);
    await removeBucket(s3, bucket).catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The report as a Markdown table and a summary line. */
export function formatChaos(report: ChaosReport): string {
  const rows = report.phases.map(({ name, tally }) => {
    const codes = [...tally.errorCodes].map(([code, count]) => `${code} ${String(count)}`).join(", ");
    return `| ${name} | ${String(tally.requests)} | ${String(tally.errors)}${codes === "" ? "" : ` (${codes})`} | ${String(tally.failOpen)} |`;
  });
  return [
    "| fault | requests | errors | fail-open answers |",
    "|---|---:|---:|---:|",
    ...rows,
    "",
    `turns accepted: ${String(report.accepted)}; lost: ${String(report.lost)}; stored twice: ${String(report.twice)}; notes caught up: ${String(report.converged)} of ${String(report.sessions)} sessions`,
  ].join("\n");
}
