// What the archive-store adapters' tests share (tests only).
import { isAppError } from "@loupe/errors";

export const encoder = new TextEncoder();

/** The bytes as UTF-8 text. */
export const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** A streamed body of `parts`, one chunk each. */
export async function* chunksOf(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield encoder.encode(part);
}

/** Every key a listing yields. */
export async function collect(keys: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const key of keys) all.push(key);
  return all;
}

/** A matcher of an AppError with `code`, for assert.rejects. */
export function hasCode(code: string): (error: unknown) => boolean {
  return (error) => isAppError(error) && error.code === code;
}
