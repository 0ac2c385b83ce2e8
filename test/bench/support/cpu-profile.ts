// Reads a V8 CPU profile (`node --cpu-prof`, or LOUPE_TEST_NODE_FLAGS for the Loupe processes a bench
// starts) into where the time went: per module its own time, per function the time it and what it called
// were on the stack (a function counted once per sample however deep it recurses).

/** A `.cpuprofile` file as V8 writes it (the fields read here). */
export interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
    readonly children?: readonly number[];
  }>;
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A module's or a function's share, in milliseconds. */
export interface ProfileLine {
  readonly name: string;
  readonly ms: number;
}

/** Where a profile's time went. */
export interface ProfileSummary {
  /** Sampled time, idle included. */
  readonly totalMs: number;
  /** Sampled time not idle. */
  readonly busyMs: number;
  /** Own time per module (a workspace folder such as packages/projection/src, an npm package, a node: module), most first. */
  readonly modules: readonly ProfileLine[];
  /** Time on the stack per function (`name module:line`), most first. */
  readonly functions: readonly ProfileLine[];
}

const SPECIAL = new Set(["(root)", "(idle)", "(program)", "(garbage collector)"]);

/**
 * The module a script URL belongs to: an npm package (`@scope/name` or `name`), a `node:` module, or the
 * first three folders of a workspace path (`packages/projection/src`); the function name for V8's own
 * entries (`(garbage collector)`, `(program)`).
 */
export function moduleOf(url: string, functionName: string): string {
  if (url === "") return SPECIAL.has(functionName) ? functionName : "(native)";
  const packaged = /\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packaged !== null) return packaged[1] ?? url;
  if (url.startsWith("node:")) return url;
  const workspace = /\/((?:packages|services|test)\/[^/]+\/[^/]+)\//.exec(url);
  return workspace?.[1] ?? url.slice(url.lastIndexOf("/") + 1);
}

/** A function as the summaries name it: `name file:line` (V8's own entries by their name alone). */
export function functionOf(frame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }): string {
  const name = frame.functionName === "" ? "(anonymous)" : frame.functionName;
  if (frame.url === "") return name;
  return `${name} ${frame.url.slice(frame.url.lastIndexOf("/") + 1)}:${String(frame.lineNumber + 1)}`;
}

/** Sums `profile`'s samples per module (own time) and per function (time on the stack). */
export function summarizeProfile(profile: CpuProfile): ProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const perNode = new Map<number, number>();
  profile.samples.forEach((id, index) => perNode.set(id, (perNode.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  let busy = 0;
  for (const [id, micros] of perNode) {
    const node = nodes.get(id);
    if (node === undefined) continue;
    total += micros;
    if (node.callFrame.functionName === "(idle)") continue;
    busy += micros;
    const module = moduleOf(node.callFrame.url, node.callFrame.functionName);
    modules.set(module, (modules.get(module) ?? 0) + micros);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const frame = nodes.get(at)?.callFrame;
      if (frame === undefined || frame.functionName === "(root)") continue;
      const name = functionOf(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      functions.set(name, (functions.get(name) ?? 0) + micros);
    }
  }
  const lines = (sums: Map<string, number>): ProfileLine[] =>
    [...sums].map(([name, micros]) => ({ name, ms: micros / 1000 })).sort((a, b) => b.ms - a.ms || (a.name < b.name ? -1 : 1));
  return { totalMs: total / 1000, busyMs: busy / 1000, modules: lines(modules), functions: lines(functions) };
}
