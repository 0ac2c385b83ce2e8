import { createHash } from "node:crypto";

/**
 * A deterministic log of about `sizeBytes`, produced in chunks so neither the
 * test nor the services ever hold it whole. `seed` makes contents differ.
 */
export async function* generatedLog(sizeBytes: number, seed: number, chunkBytes = 256 * 1024): AsyncGenerator<Uint8Array> {
  let line = 1;
  let produced = 0;
  while (produced < sizeBytes) {
    const lines: string[] = [];
    let size = 0;
    while (size < chunkBytes && produced + size < sizeBytes) {
      const text = `${String(seed)} ${String(line).padStart(9, "0")} INFO worker-${String(line % 17)} processed batch ${String((line * 7919) % 100_000)} in ${String(line % 997)} ms\n`;
      lines.push(text);
      size += text.length;
      line++;
    }
    const chunk = Buffer.from(lines.join(""));
    produced += chunk.byteLength;
    yield chunk;
  }
}

/** The exact bytes of lines [first, last] (1-based) of generatedLog(sizeBytes, seed). */
export async function generatedLines(sizeBytes: number, seed: number, first: number, last: number): Promise<{ text: string; lineCount: number }> {
  let line = 0;
  const picked: string[] = [];
  for await (const chunk of generatedLog(sizeBytes, seed)) {
    for (const text of Buffer.from(chunk)
      .toString("utf8")
      .split(/(?<=\n)/)) {
      line++;
      if (line >= first && line <= last) picked.push(text);
    }
  }
  return { text: picked.join(""), lineCount: line };
}

/** sha256 revision and size of generatedLog(sizeBytes, seed), computed by streaming it once. */
export async function generatedRevision(sizeBytes: number, seed: number): Promise<{ revision: string; sizeBytes: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of generatedLog(sizeBytes, seed)) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { revision: `sha256:${hash.digest("hex")}`, sizeBytes: size };
}
