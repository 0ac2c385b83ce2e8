import { mkdir, open, readFile, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { AppError } from "@loupe/errors";

// Directories this process holds; a lock file naming our own pid that is not listed here was
// left by an earlier process that had the same pid (common in containers, where it is often 1).
const heldDirectories = new Set<string>();

/** Options for {@link lockDirectory}. */
export interface LockDirectoryOptions {
  /** The lock file's name inside the directory (e.g. "state.lock"). */
  fileName: string;
  /** What the directory is, for messages (e.g. "state directory"). */
  label: string;
}

/**
 * Takes a directory for this process: creates the lock file holding our pid (fsync'd), replacing
 * a lock whose process is gone (a crash leaves one behind). Returns a function that releases it.
 *
 * @throws AppError `failed_precondition` when this or another live process holds the directory
 */
export async function lockDirectory(directory: string, options: LockDirectoryOptions): Promise<() => Promise<void>> {
  const held = resolve(directory, options.fileName);
  if (heldDirectories.has(held)) {
    throw new AppError("failed_precondition", `${options.label} is already open in this process [directory=${directory}]`);
  }
  heldDirectories.add(held);
  try {
    await mkdir(directory, { recursive: true });
    await createLockFile(join(directory, options.fileName), directory, options.label);
  } catch (error) {
    heldDirectories.delete(held);
    throw error;
  }
  return async () => {
    await unlink(join(directory, options.fileName)).catch(() => undefined);
    heldDirectories.delete(held);
  };
}

async function createLockFile(path: string, directory: string, label: string): Promise<void> {
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
      throw new AppError("failed_precondition", `${label} is in use by another process [directory=${directory}, pid=${String(owner)}]`);
    }
    // A stale lock (its process exited without removing it): remove it and try once more.
    await unlink(path).catch(() => undefined);
  }
  throw new AppError("failed_precondition", `${label} lock could not be taken [directory=${directory}]`);
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
