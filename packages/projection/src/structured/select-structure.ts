import type { TokenCounter } from "../token-counter.js";
import { utf8Length } from "../utf8-length.js";
import { subtractCost, sumCosts, type CostModel, type Representation } from "./cost-model.js";
import { openContainer, type OpenedContainer } from "./open-container.js";
import { createStepQueue } from "./step-queue.js";
import {
  extraOpening,
  firstItemSteps,
  isKeyMember,
  isOpenable,
  memberTier,
  nestedOpening,
  nextExtraIndex,
  priorityOf,
  revealTier,
  type Cost,
  type Opening,
  type Place,
  type Step,
} from "./structure-plan.js";
import type { OmittedPart } from "./structured-omission.js";
import { childPointer, type ArrayNode, type ObjectNode, type ViewNode } from "./view-tree.js";

/** Options for {@link selectStructure}. */
export interface SelectStructureOptions {
  budgetTokens: number;
  maxViewBytes: number;
  counter: TokenCounter;
  resultId: string;
  /** The cost model (createCostModel(counter, resultId)); shared across attempts so fragment counts are reused. */
  model: CostModel;
  /** Steps of a higher tier are not taken (2 gives the bounded index: shape, identities, representative items). */
  maxTier: number;
}

// Consecutive steps that did not fit before the selection stops looking (bounds the work on huge values).
const MAX_MISSES = 256;
const ROOT: Opening = { role: "shape", tier: 0, rank: 0, item: false };

function wholeValue(value: object): OmittedPart {
  return Array.isArray(value) ? { what: "value", type: "array", items: value.length } : { what: "value", type: "object", keys: Object.keys(value).length };
}

/**
 * Chooses what a JSON view of `value` shows: greedy over steps in tier order
 * (see structure-plan.ts), each taken when its estimated cost (the sum of the
 * token counts of the fragments it adds) fits the budget and the byte cap.
 * Returns the view tree; the caller renders it and checks the exact count.
 */
export function selectStructure(value: unknown, options: SelectStructureOptions): ViewNode {
  const { model } = options;
  const queue = createStepQueue<Step>();
  const used: Cost = { tokens: 0, bytes: 0 };
  const fillers = new Map<ObjectNode | ArrayNode, Cost>();
  const arrays = new Map<ArrayNode, { planned: Set<number>; opening: Opening; values: readonly unknown[] }>();
  const take = (delta: Cost): boolean => {
    if (used.tokens + delta.tokens > options.budgetTokens || used.bytes + delta.bytes > options.maxViewBytes) return false;
    used.tokens += delta.tokens;
    used.bytes += delta.bytes;
    return true;
  };
  const push = (step: Step, tier: number, rank: number, depth: number): void => {
    if (tier <= options.maxTier) queue.push(priorityOf(tier, rank, depth), step);
  };
  let root: ViewNode = { kind: "scalar", json: "null" };
  const place = (where: Place, node: ViewNode): void => {
    if (where.parent === undefined) root = node;
    else if (where.parent.kind === "object") where.parent.members[where.index] = node;
    else where.parent.items.set(where.index, node);
  };

  const follow = (shown: Representation, where: Place, child: unknown, pointer: string, depth: number, opening: Opening, key: boolean): void => {
    if (shown.follow === "open" && isOpenable(child)) {
      const nested = nestedOpening(opening, key);
      push({ kind: "open", place: where, value: child, pointer, depth, opening: nested, marker: shown.cost, atomic: true }, nested.tier, nested.rank, depth);
    } else if (shown.follow === "reveal" && typeof child === "string") {
      push({ kind: "reveal", place: where, value: child, marker: shown.cost }, revealTier(opening, key), 0, depth);
    }
  };

  // Queues what an opened container may show next: its other members, or its first, last, failed and extra items.
  const plan = (opened: OpenedContainer, value: object, opening: Opening, atomic: boolean): void => {
    const { node } = opened;
    fillers.set(node, opened.filler);
    if (node.kind === "array") {
      const values = value as readonly unknown[];
      const { steps, planned } = firstItemSteps(node, values, opening);
      for (const step of steps) if (step.kind === "item") push(step, step.opening.tier, step.opening.rank, node.depth + 1);
      arrays.set(node, { planned, opening, values });
      queueExtra(node, 0, 1);
      return;
    }
    const record = value as Record<string, unknown>;
    for (const { index, representation } of opened.shown) {
      const key = node.keys[index] ?? "";
      follow(representation, { parent: node, index }, record[key], childPointer(node, key), node.depth + 1, opening, true);
    }
    node.keys.forEach((key, index) => {
      if (node.members[index] !== undefined) return;
      const isKey = isKeyMember(key);
      const tier = isKey && !atomic ? opening.tier : memberTier(opening);
      push({ kind: "member", node, index, value: record[key], opening, key: isKey }, tier, tier === opening.tier ? opening.rank : 0, node.depth + 1);
    });
  };

  // Extra items form one chain per array: the next is queued when one is taken, so a miss ends the array's turn.
  const queueExtra = (node: ArrayNode, after: number, rank: number): void => {
    const state = arrays.get(node);
    const index = state === undefined ? undefined : nextExtraIndex(state.values.length, state.planned, after);
    if (state === undefined || index === undefined) return;
    const opening = extraOpening(state.opening, rank);
    push({ kind: "item", node, index, value: state.values[index], opening }, opening.tier, opening.rank, node.depth + 1);
  };

  const applyMember = (step: Extract<Step, { kind: "member" }>): boolean => {
    const { node, index } = step;
    const key = node.keys[index] ?? "";
    const pointer = childPointer(node, key);
    const shown = model.represent(step.value, pointer);
    const closes = node.hidden === 1 ? (fillers.get(node) ?? { tokens: 0, bytes: 0 }) : { tokens: 0, bytes: 0 };
    if (!take(subtractCost(sumCosts(model.measure(`${JSON.stringify(key)}:`), shown.cost, model.element("object", node.depth)), closes))) return false;
    place({ parent: node, index }, shown.node);
    node.hidden--;
    follow(shown, { parent: node, index }, step.value, pointer, node.depth + 1, step.opening, step.key);
    return true;
  };

  const applyItem = (step: Extract<Step, { kind: "item" }>): boolean => {
    const { node, index, value: item, opening } = step;
    const pointer = childPointer(node, index);
    const left = index === 0 || node.items.has(index - 1);
    const right = index === node.length - 1 || node.items.has(index + 1);
    const runs = left && right ? -1 : !left && !right ? 1 : 0;
    const run = fillers.get(node) ?? { tokens: 0, bytes: 0 };
    const represented = model.represent(item, pointer);
    const opened = represented.follow === "open" && isOpenable(item) ? openContainer(item, pointer, node.depth + 1, model, options.resultId, true) : undefined;
    const shown = opened ?? represented;
    if (!take(sumCosts(shown.cost, model.element("array", node.depth), { tokens: run.tokens * runs, bytes: run.bytes * runs }))) return false;
    place({ parent: node, index }, shown.node);
    if (opened) plan(opened, item as object, opening, true);
    else follow(represented, { parent: node, index }, item, pointer, node.depth + 1, opening, false);
    if (opening.role === "extra") queueExtra(node, index, opening.rank + 1);
    return true;
  };

  const apply = (step: Step): boolean => {
    switch (step.kind) {
      case "member":
        return applyMember(step);
      case "item":
        return applyItem(step);
      case "open": {
        const opened = openContainer(step.value, step.pointer, step.depth, model, options.resultId, step.atomic);
        if (!take(subtractCost(opened.cost, step.marker))) {
          // A shape container too wide to open with all its key members opens bare; its members then come one by one.
          if (step.atomic && step.opening.role === "shape") push({ ...step, atomic: false }, step.opening.tier, step.opening.rank, step.depth);
          return false;
        }
        place(step.place, opened.node);
        plan(opened, step.value, step.opening, step.atomic);
        return true;
      }
      case "reveal": {
        const json = JSON.stringify(step.value);
        // A string is at least as many bytes as UTF-16 units: a cheap refusal before measuring huge strings.
        if (used.bytes - step.marker.bytes + json.length > options.maxViewBytes) return false;
        const tokens = options.counter.within(json, options.budgetTokens - used.tokens + step.marker.tokens);
        if (tokens === false || !take(subtractCost({ tokens, bytes: utf8Length(json) }, step.marker))) return false;
        place(step.place, { kind: "scalar", json });
        return true;
      }
    }
  };

  // The root did not fit whole, so a container root always starts as a marker (never inlined, however small).
  const first = isOpenable(value) ? model.marker(wholeValue(value), "") : model.represent(value, "");
  root = first.node;
  take(first.cost);
  if (isOpenable(value)) {
    push({ kind: "open", place: { parent: undefined, index: 0 }, value, pointer: "", depth: 0, opening: ROOT, marker: first.cost, atomic: true }, 0, 0, 0);
  } else follow(first, { parent: undefined, index: 0 }, value, "", 0, ROOT, true);
  for (let misses = 0; misses < MAX_MISSES && used.tokens < options.budgetTokens;) {
    const step = queue.pop();
    if (step === undefined) break;
    misses = apply(step) ? 0 : misses + 1;
  }
  return root;
}
