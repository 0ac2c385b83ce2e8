/**
 * Runs `shutdown` once on the first SIGTERM or SIGINT, then exits with 0 (or 1
 * when shutdown throws). A second signal exits at once. Returns a function
 * that removes the handlers.
 */
export function onShutdownSignal(shutdown: (signal: string) => Promise<void>, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals): void => {
    if (stopping) {
      exit(1);
      return;
    }
    stopping = true;
    shutdown(signal).then(
      () => exit(0),
      () => exit(1),
    );
  };
  process.on("SIGTERM", handle);
  process.on("SIGINT", handle);
  return () => {
    process.off("SIGTERM", handle);
    process.off("SIGINT", handle);
  };
}
