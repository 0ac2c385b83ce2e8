/** A writable text stream, optionally a terminal (process.stderr fits). */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** What is counted; default "trajectories". */
  readonly label?: string;
  /** Without a terminal: milliseconds between lines; default 10,000. */
  readonly intervalMs?: number;
  /** Clock in ms; default Date.now. */
  readonly now?: () => number;
}

/**
 * Progress of a long run on `stream`: on a terminal, a bar redrawn in place
 * (`\r`); otherwise one line every `intervalMs` and at the end.
 * Returns `update(done, total)`; the call with done === total finishes the line.
 */
export function createProgress(stream: ProgressStream, options: ProgressOptions = {}): (done: number, total: number) => void {
  const label = options.label ?? "trajectories";
  const now = options.now ?? Date.now;
  const started = now();
  let lastLine = started;
  return (done, total) => {
    const elapsed = ((now() - started) / 1000).toFixed(0);
    const text = `${String(done)}/${String(total)} ${label}, ${elapsed}s`;
    if (stream.isTTY === true) {
      const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - text.length - 4));
      const filled = total === 0 ? width : Math.round((done / total) * width);
      stream.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${text}${done === total ? "\n" : ""}`);
      return;
    }
    if (done !== total && now() - lastLine < (options.intervalMs ?? 10_000)) return;
    lastLine = now();
    stream.write(`eval: ${text}\n`);
  };
}
