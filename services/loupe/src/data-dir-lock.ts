import { mkdir, open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@loupe/errors";

/** Held while an embedded Loupe owns its data dir. */
export interface DataDirLock {
  release(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes `<dataDir>/loupe.lock` for this process. Two embedded processes on one
 * data dir would interleave the archive, event log and keys, so the second is
 * refused; a lock left by a process that died is taken over.
 * @throws AppError `failed_precondition` when another live process holds it
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, "loupe.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, "wx");
      await handle.writeFile(`${String(process.pid)}\n`);
      await handle.close();
      return { release: () => rm(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number((await readFile(path, "utf8").catch(() => "")).trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new AppError("failed_precondition", `data dir in use by another loupe process [pid=${String(holder)}, dir=${dataDir}]`);
    }
    await rm(path, { force: true });
  }
  throw new AppError("failed_precondition", `could not lock the data dir [dir=${dataDir}]`);
}
