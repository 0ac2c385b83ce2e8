import { sumCosts, type CostModel, type Representation } from "./cost-model.js";
import { isKeyMember, type Cost } from "./structure-plan.js";
import { jsonContinuation, markerText, MARKER_KEY } from "./structured-omission.js";
import { breaksLines, childPointer, type ArrayNode, type ObjectNode } from "./view-tree.js";

/** A container about to be shown: its node, what showing it costs, and what it showed with it. */
export interface OpenedContainer {
  node: ObjectNode | ArrayNode;
  /** Cost of the opened container, replacing nothing (the caller subtracts the marker it replaces). */
  cost: Cost;
  /** Cost of what stands for its hidden part: the trailing "$loupe" member, or the widest item-run marker. */
  filler: Cost;
  /** Members shown with the opening (identity, qualification and error members when `withKeys`). */
  shown: Array<{ index: number; representation: Representation }>;
}

/**
 * Opens `value` (a non-empty array, or an object without a "$loupe" member)
 * at `pointer`: an array with every item hidden (one run marker); an object
 * with its key members shown when `withKeys`, the rest counted by a trailing
 * "$loupe" member. Costs are estimates from `model`.
 */
export function openContainer(value: object, pointer: string, depth: number, model: CostModel, resultId: string, withKeys: boolean): OpenedContainer {
  const layout: Cost = { tokens: 0, bytes: 0 };
  if (Array.isArray(value)) {
    const node: ArrayNode = { kind: "array", pointer, depth, length: value.length, items: new Map() };
    const widest = markerText({ what: "items", start: 0, end: node.length, total: node.length }, jsonContinuation(resultId, pointer, node.length, node.length));
    const filler = sumCosts(model.measure(widest), model.element("array", depth));
    if (breaksLines("array", depth)) layout.bytes = 2;
    return { node, cost: sumCosts(model.measure("[]"), layout, filler), filler, shown: [] };
  }
  const keys = Object.keys(value);
  const node: ObjectNode = { kind: "object", pointer, depth, keys, members: new Array<undefined>(keys.length), hidden: keys.length };
  const trailer = `"${MARKER_KEY}":${markerText({ what: "keys", hidden: keys.length, total: keys.length }, jsonContinuation(resultId, pointer))}`;
  const filler = sumCosts(model.measure(trailer), model.element("object", depth));
  if (breaksLines("object", depth)) layout.bytes = 2;
  const shown: OpenedContainer["shown"] = [];
  let cost = sumCosts(model.measure("{}"), layout);
  if (withKeys) {
    keys.forEach((key, index) => {
      if (!isKeyMember(key)) return;
      const representation = model.represent((value as Record<string, unknown>)[key], childPointer(node, key));
      node.members[index] = representation.node;
      node.hidden--;
      shown.push({ index, representation });
      cost = sumCosts(cost, model.measure(`${JSON.stringify(key)}:`), representation.cost, model.element("object", depth));
    });
  }
  if (node.hidden > 0) cost = sumCosts(cost, filler);
  return { node, cost, filler, shown };
}
