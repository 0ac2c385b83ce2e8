/** Polls `probe` until it answers a value (not undefined), every `intervalMs`; fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
