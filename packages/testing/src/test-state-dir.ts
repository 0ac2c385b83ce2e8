import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./repo-root.js";

/**
 * The folder this checkout's test servers keep their state in: LOUPE_TEST_STATE_DIR, else
 * `<temporary folder>/loupe-test-<first 12 hex of sha256 of the checkout's path>` — the rule of
 * scripts/servers/test-state.sh, so two clones on one machine never share one.
 */
export function testStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const set = env["LOUPE_TEST_STATE_DIR"];
  if (set !== undefined && set !== "") return set;
  return join(tmpdir(), `loupe-test-${createHash("sha256").update(repoRoot()).digest("hex").slice(0, 12)}`);
}

/** The folder of this checkout's Ceph RGW cluster: LOUPE_TEST_RGW_DIR, else `rgw` in {@link testStateDir}. */
export function rgwDir(env: NodeJS.ProcessEnv = process.env): string {
  const set = env["LOUPE_TEST_RGW_DIR"];
  return set !== undefined && set !== "" ? set : join(testStateDir(env), "rgw");
}
