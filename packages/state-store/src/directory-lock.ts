import { open, readFile, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { AppError } from "@loupe/errors";

const LOCK_FILE = "state.lock";
// Directories this process holds; a lock file naming our own pid that is not listed here was
// left by an earlier process that had the same pid (common in containers, where it is often 1).
const heldDirectories = new Set<string>();

/**
 * Takes the data directory for this process: creates `state.lock` holding our pid, replacing
 * a lock whose process is gone (a crash leaves one behind). Returns a function that releases it.
 *
 * @throws AppError `failed_precondition` when this or another live process holds the directory
 * @internal
 */
export async function lockDirectory(directory: string): Promise<() => Promise<void>> {
  const held = resolve(directory);
  if (heldDirectories.has(held)) {
    throw new AppError("failed_precondition", `state directory is already open in this process [directory=${directory}]`);
  }
  heldDirectories.add(held);
  try {
    await createLockFile(join(directory, LOCK_FILE), directory);
  } catch (error) {
    heldDirectories.delete(held);
    throw error;
  }
  return async () => {
    await unlink(join(directory, LOCK_FILE)).catch(() => undefined);
    heldDirectories.delete(held);
  };
}

async function createLockFile(path: string, directory: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, "wx");
      await handle.writeFile(String(process.pid));
      await handle.sync();
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = Number((await readFile(path, "utf8").catch(() => "")).trim());
    if (owner !== process.pid && Number.isSafeInteger(owner) && owner > 0 && isAlive(owner)) {
      throw new AppError("failed_precondition", `state directory is in use by another process [directory=${directory}, pid=${owner}]`);
    }
    // A stale lock (its process exited without removing it): remove it and try once more.
    await unlink(path).catch(() => undefined);
  }
  throw new AppError("failed_precondition", `state directory lock could not be taken [directory=${directory}]`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
