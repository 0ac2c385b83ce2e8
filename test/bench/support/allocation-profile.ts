// Reads an allocation profile written by sample-allocations.mjs (V8's sampling heap profile, the objects the
// collector took kept in) into what was allocated where: per module and per function its own bytes, and per
// call chain (a function and its four nearest callers). Modules and functions are named as the CPU
// profile summaries name them (cpu-profile.ts).
import { functionOf, moduleOf } from "./cpu-profile.js";

/** One node of a sampling heap profile (the fields read here). */
export interface AllocationNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly AllocationNode[];
}

/** A module's, function's or call chain's own allocations, in bytes. */
export interface AllocationLine {
  readonly name: string;
  readonly bytes: number;
}

/** Where a profile's bytes were allocated, most first. */
export interface AllocationSummary {
  readonly totalBytes: number;
  readonly modules: readonly AllocationLine[];
  readonly functions: readonly AllocationLine[];
  readonly chains: readonly AllocationLine[];
}

const CALLERS = 4;

/** Sums a profile's sampled allocations per module, function and call chain. */
export function summarizeAllocations(profile: { readonly head: AllocationNode }): AllocationSummary {
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  const chains = new Map<string, number>();
  let total = 0;
  const add = (sums: Map<string, number>, name: string, bytes: number): void => void sums.set(name, (sums.get(name) ?? 0) + bytes);
  const walk = (node: AllocationNode, callers: readonly string[]): void => {
    const name = functionOf(node.callFrame);
    if (node.selfSize > 0) {
      total += node.selfSize;
      add(modules, moduleOf(node.callFrame.url, node.callFrame.functionName), node.selfSize);
      add(functions, name, node.selfSize);
      add(chains, [name, ...callers.slice(-CALLERS).reverse()].join("  <-  "), node.selfSize);
    }
    for (const child of node.children) walk(child, [...callers, name]);
  };
  walk(profile.head, []);
  const lines = (sums: Map<string, number>): AllocationLine[] =>
    [...sums].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes || (a.name < b.name ? -1 : 1));
  return { totalBytes: total, modules: lines(modules), functions: lines(functions), chains: lines(chains) };
}
