import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { splitParts } from "./split-parts.js";

async function* chunks(...sizes: number[]): AsyncGenerator<Uint8Array> {
  let next = 0;
  for (const size of sizes) {
    const chunk = new Uint8Array(size);
    for (let index = 0; index < size; index += 1) chunk[index] = (next += 1) % 251;
    yield chunk;
  }
}

async function partsOf(sizes: number[], partSize: number): Promise<{ sizes: string; bytes: number[] }> {
  const seen: string[] = [];
  const bytes: number[] = [];
  for await (const part of splitParts(chunks(...sizes), partSize)) {
    seen.push(`${String(part.bytes.byteLength)}${part.last ? "!" : ""}`);
    bytes.push(...part.bytes);
  }
  return { sizes: seen.join(" "), bytes };
}

describe("splitParts()", () => {
  for (const [sizes, expected] of [
    [[], "0!"],
    [[0, 0], "0!"],
    [[3], "3!"],
    [[10], "10!"],
    [[5, 5], "10!"],
    [[11], "10 1!"],
    [[4, 4, 4], "10 2!"],
    [[35], "10 10 10 5!"],
    [[10, 10], "10 10!"],
    [[1, 9, 1], "10 1!"],
  ] as const) {
    it(`cuts chunks ${JSON.stringify(sizes)} into ${expected}`, async () => {
      const result = await partsOf([...sizes], 10);
      assert.equal(result.sizes, expected);
      const total = sizes.reduce<number>((sum, size) => sum + size, 0);
      assert.deepEqual(
        result.bytes,
        Array.from({ length: total }, (_, index) => (index + 1) % 251),
      );
    });
  }
});
