import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A fresh HOME and working folder for one runtime run. */
export interface Sandbox {
  /** The root of both folders. */
  readonly root: string;
  readonly home: string;
  readonly work: string;
  /** Writes files (paths relative to `base`), creating folders as needed. */
  write(base: string, files: Readonly<Record<string, string>>): Promise<void>;
  /** Removes both folders. */
  dispose(): Promise<void>;
}

/** Creates a {@link Sandbox} under the system's temporary folder. */
export async function createSandbox(prefix: string): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), `loupe-${prefix}-`));
  const home = join(root, "home");
  const work = join(root, "work");
  await mkdir(home, { recursive: true });
  await mkdir(work, { recursive: true });
  return {
    root,
    home,
    work,
    async write(base, files) {
      for (const [path, content] of Object.entries(files)) {
        const target = join(base, path);
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, content);
      }
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}
