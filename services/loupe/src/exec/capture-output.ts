/**
 * Collects a command's output up to `limitBytes`: everything when it fits; else the first
 * `limitBytes - tailBytes` and the last `tailBytes`, with one line between them saying how
 * much was dropped (the saved result then holds what was kept).
 */
export interface CapturedOutput {
  push(chunk: Buffer): void;
  text(): string;
  readonly totalBytes: number;
}

/** A {@link CapturedOutput} bounded by `limitBytes`, keeping `tailBytes` of the end once over it. */
export function captureOutput(limitBytes: number, tailBytes = Math.min(1024 * 1024, Math.floor(limitBytes / 4))): CapturedOutput {
  const head: Buffer[] = [];
  let headBytes = 0;
  const headLimit = limitBytes - tailBytes;
  let tail: Buffer[] = [];
  let tailSize = 0;
  let total = 0;
  return {
    push(chunk) {
      total += chunk.byteLength;
      let rest = chunk;
      if (headBytes < headLimit) {
        const take = rest.subarray(0, headLimit - headBytes);
        head.push(take);
        headBytes += take.byteLength;
        rest = rest.subarray(take.byteLength);
      }
      if (rest.byteLength === 0) return;
      tail.push(rest);
      tailSize += rest.byteLength;
      if (tailSize > tailBytes * 2) {
        const joined = Buffer.concat(tail);
        tail = [joined.subarray(joined.byteLength - tailBytes)];
        tailSize = tailBytes;
      }
    },
    text() {
      const ending = Buffer.concat(tail);
      if (total <= limitBytes) return Buffer.concat([...head, ending]).toString("utf8");
      const kept = ending.subarray(ending.byteLength - tailBytes);
      const dropped = total - headBytes - kept.byteLength;
      return `${Buffer.concat(head).toString("utf8")}\n[loupe exec: ${dropped.toLocaleString("en-US")} bytes of output not kept (over LOUPE_MAX_RESULT_BYTES)]\n${kept.toString("utf8")}`;
    },
    get totalBytes() {
      return total;
    },
  };
}
