/** Where a hook reads and writes; process.stdin/stdout/stderr in the command, buffers in tests. */
export interface HookIo {
  readonly stdin: AsyncIterable<Buffer | string>;
  writeOut(text: string): void;
  writeErr(text: string): void;
}

/** One line on stderr saying why the hook left the tool's output (or input) as it was. */
export function passThrough(io: HookIo, message: string): void {
  io.writeErr(`loupe hook: ${message}; passing the original through\n`);
}

/** A whole number > 0 from `env[name]`, else `fallback`. */
export function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Reads stdin fully; `undefined` once more than `limitBytes` arrived (the rest is not read). */
async function readLimited(stdin: AsyncIterable<Buffer | string>, limitBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    total += buffer.byteLength;
    if (total > limitBytes) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The message of any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads one hook payload (a JSON object) from stdin, at most `limitBytes`. Returns it, or a
 * reason to pass the original through.
 */
export async function readPayload(io: HookIo, limitBytes: number): Promise<{ payload: Record<string, unknown> } | { reason: string }> {
  const raw = await readLimited(io.stdin, limitBytes);
  if (raw === undefined) return { reason: `payload larger than the cap [limit_bytes=${String(limitBytes)}]` };
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch (error) {
    return { reason: `stdin is not JSON [error=${errorMessage(error)}]` };
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return { reason: "stdin is not a hook payload object" };
  return { payload: payload as Record<string, unknown> };
}

/** A string field of a payload, or "". */
export function stringField(payload: Record<string, unknown>, name: string): string {
  const value = payload[name];
  return typeof value === "string" ? value : "";
}

/** A payload's field that is a JSON object (`tool_input`, a response's `file`); {} when absent or not an object. */
export function objectField(payload: unknown, name: string): Record<string, unknown> {
  const value = typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>)[name] : undefined;
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
