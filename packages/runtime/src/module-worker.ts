import { Worker } from "node:worker_threads";

/**
 * Starts a worker thread running the module `name` (without its extension) beside `callerUrl`
 * (the caller's `import.meta.url`). Compiled, that is the `.js` file; run from TypeScript sources
 * (tests, `--import tsx`), the `.ts` file, for which the worker first registers tsx (a loader given
 * to this process does not reach its workers). Of this process's `execArgv` the worker gets only the
 * export conditions (`--conditions=source`), so that it resolves the workspace's packages to the files
 * this thread runs — without them a thread run from sources would load the packages' compiled output,
 * absent before a build and stale after an edit.
 */
export function startModuleWorker(callerUrl: string, name: string): Worker {
  const execArgv = conditionFlags(process.execArgv);
  if (!callerUrl.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, callerUrl), { execArgv });
  const module = new URL(`./${name}.ts`, callerUrl).href;
  const boot = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module)}); });`;
  return new Worker(boot, { eval: true, execArgv });
}

/** The export conditions among node's flags (`--conditions=a`, `--conditions a`, `-C a`), each as `--conditions=a`. */
export function conditionFlags(execArgv: readonly string[]): string[] {
  const flags: string[] = [];
  for (let index = 0; index < execArgv.length; index++) {
    const flag = execArgv[index] ?? "";
    const joined = /^--conditions=(.+)$/.exec(flag);
    if (joined?.[1] !== undefined) flags.push(`--conditions=${joined[1]}`);
    else if ((flag === "--conditions" || flag === "-C") && execArgv[index + 1] !== undefined) flags.push(`--conditions=${execArgv[++index] ?? ""}`);
  }
  return flags;
}
