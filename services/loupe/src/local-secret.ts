import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The result-id key of an embedded install: created once under the data dir
 * (mode 0600) and reused, so ids stay stable across restarts.
 */
export async function loadOrCreateLocalSecret(dataDir: string): Promise<string> {
  const path = join(dataDir, "result-id.key");
  try {
    return (await readFile(path, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    await writeFile(path, secret + "\n", { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return (await readFile(path, "utf8")).trim();
    throw error;
  }
}
