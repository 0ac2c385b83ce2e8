import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { CreateBucketCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { repoRoot } from "./repo-root.js";
import { s3TestEnv } from "./s3-test-env.js";
import { createTestS3Client } from "./test-s3-client.js";

const run = promisify(execFile);

async function warmUp(endpoint: string): Promise<void> {
  const client = createTestS3Client({ ...s3TestEnv(), endpoint });
  try {
    await client.send(new CreateBucketCommand({ Bucket: "loupe-warm-up" })).catch(() => undefined);
    await client.send(new PutObjectCommand({ Bucket: "loupe-warm-up", Key: "warm-up", Body: "ok" }));
  } finally {
    client.destroy();
  }
}

/** True while `pid` runs; a zombie (exited, not yet reaped) counts as gone. */
async function isRunning(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${String(pid)}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** A Ceph RGW instance of the tests' own, in its own scratch dir and port. */
export interface RgwInstance {
  readonly endpoint: string;
  readonly directory: string;
  /** Starts it (the first time: builds the single-node cluster). */
  start(): Promise<void>;
  /** Kills the radosgw process itself (SIGKILL), leaving mon and osd running. */
  killGateway(): Promise<void>;
  /** Stops the whole cluster and removes its dir. */
  purge(): Promise<void>;
}

/** An RGW instance under `directory`, serving S3 on 127.0.0.1:`port`. */
export function rgwInstance(directory: string, port: number, storeBytes?: number): RgwInstance {
  const scripts = join(repoRoot(), "scripts/servers");
  // Without a size the scripts' default applies, so a rebuild of the shared instance keeps its full store.
  const env = {
    ...process.env,
    LOUPE_TEST_RGW_DIR: directory,
    LOUPE_TEST_RGW_PORT: String(port),
    ...(storeBytes === undefined ? {} : { LOUPE_TEST_RGW_STORE_BYTES: String(storeBytes) }),
  };
  return {
    endpoint: `http://127.0.0.1:${String(port)}`,
    directory,
    async start() {
      await run("bash", [join(scripts, "start-rgw.sh")], { env, timeout: 180_000 });
      // A new cluster creates its data pools on the first object write (seconds): do it now, not in a test.
      await warmUp(`http://127.0.0.1:${String(port)}`);
    },
    async killGateway() {
      const pid = Number((await readFile(join(directory, "run/radosgw.pid"), "utf8")).trim());
      process.kill(pid, "SIGKILL");
      // Wait until the process is gone so the port is really closed.
      for (let attempt = 0; attempt < 100 && (await isRunning(pid)); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    async purge() {
      await run("bash", [join(scripts, "stop-rgw.sh"), "--purge"], { env, timeout: 60_000 });
    },
  };
}
