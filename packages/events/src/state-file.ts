import { readFile } from "node:fs/promises";
import { AppError } from "@loupe/errors";
import { writeFileDurably } from "@loupe/durable-file";

/**
 * A small JSON file rewritten as a whole, atomically. Writes coalesce: a
 * request waits `delayMs` before its write starts, and while one is waiting
 * or on disk, later requests collapse into it or into one more write of the
 * newest snapshot, which waits its `delayMs` after the write on disk ends —
 * so a steady run of acks costs one write per `delayMs` plus a write's time,
 * not one per ack nor one write after another. `flush()` starts a waiting
 * write at once and resolves when nothing requested is left unwritten.
 */
export class StateFile {
  readonly #path: string;
  readonly #delayMs: number;
  #snapshot: (() => string) | undefined;
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #flushing = 0;
  #failure: unknown;

  constructor(path: string, delayMs = 0) {
    this.#path = path;
    this.#delayMs = delayMs;
  }

  /** Reads and parses the file; `undefined` when it does not exist. Throws AppError `internal` when it is not JSON. */
  static async read(path: string): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new AppError("internal", `cannot read bus state [path=${path}]`, { cause: error });
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new AppError("internal", `corrupt bus state [path=${path}]`, { cause: error });
    }
  }

  /** Requests a write; `snapshot` is called when the write starts, so it sees the newest state. */
  write(snapshot: () => string): void {
    this.#snapshot = snapshot;
    this.#dirty = true;
    if (this.#running !== undefined || this.#timer !== undefined) return;
    if (this.#delayMs <= 0) this.#running = this.#run();
    else this.#timer = setTimeout(() => this.#start(), this.#delayMs);
  }

  /** Resolves once every requested write is on disk; rejects with AppError `internal` if one failed. */
  async flush(): Promise<void> {
    this.#flushing++;
    try {
      for (;;) {
        if (this.#timer !== undefined) this.#start();
        if (this.#running === undefined) break;
        await this.#running;
      }
    } finally {
      this.#flushing--;
    }
    if (this.#failure !== undefined) {
      const failure = this.#failure;
      this.#failure = undefined;
      throw new AppError("internal", `cannot write bus state [path=${this.#path}]`, { cause: failure });
    }
  }

  #start(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#running ??= this.#run();
  }

  async #run(): Promise<void> {
    try {
      while (this.#dirty && this.#snapshot) {
        this.#dirty = false;
        try {
          await writeFileDurably(this.#path, this.#snapshot());
        } catch (error) {
          // Kept for flush(): acks are not lost from memory, only their persistence is late.
          this.#failure = error;
        }
        // What changed while this write was on disk waits its delay too, unless a flush wants it now.
        if (this.#delayMs > 0 && this.#flushing === 0) break;
      }
    } finally {
      this.#running = undefined;
      if (this.#dirty && this.#timer === undefined && this.#flushing === 0) this.#timer = setTimeout(() => this.#start(), this.#delayMs);
    }
  }
}
