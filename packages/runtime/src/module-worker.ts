import { Worker } from "node:worker_threads";

/**
 * Starts a worker thread running the module `name` (without its extension) beside `callerUrl`
 * (the caller's `import.meta.url`). Compiled, that is the `.js` file; run from TypeScript sources
 * (tests, `--import tsx`), the `.ts` file, for which the worker first registers tsx (a loader given
 * to this process does not reach its workers). The worker gets no `execArgv` of this process.
 */
export function startModuleWorker(callerUrl: string, name: string): Worker {
  if (!callerUrl.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, callerUrl), { execArgv: [] });
  const module = new URL(`./${name}.ts`, callerUrl).href;
  const boot = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module)}); });`;
  return new Worker(boot, { eval: true, execArgv: [] });
}
