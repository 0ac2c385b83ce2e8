import { appendPointer } from "./json-pointer.js";
import { jsonContinuation, markerText, MARKER_KEY, omissionFor, type OmittedPart, type StructuredOmission } from "./structured-omission.js";

/** A value shown verbatim (its compact JSON). */
export interface ScalarNode {
  kind: "scalar";
  json: string;
}

/** A whole value replaced by a marker. */
export interface MarkerNode {
  kind: "marker";
  part: OmittedPart;
  pointer: string;
}

/** An object shown member by member; members not shown are counted by one trailing "$loupe" member. */
export interface ObjectNode {
  kind: "object";
  pointer: string;
  depth: number;
  keys: readonly string[];
  members: Array<ViewNode | undefined>;
  hidden: number;
}

/** An array shown item by item; each run of items not shown becomes one marker item. */
export interface ArrayNode {
  kind: "array";
  pointer: string;
  depth: number;
  length: number;
  items: Map<number, ViewNode>;
}

/** A node of a JSON view under construction. */
export type ViewNode = ScalarNode | MarkerNode | ObjectNode | ArrayNode;

/** True when a container puts one element per line: the root, and arrays that are members or items of the root. */
export function breaksLines(kind: "object" | "array", depth: number): boolean {
  return depth === 0 || (kind === "array" && depth === 1);
}

/** A rendered view: its JSON text, its omissions in document order, and how many characters of leaves it shows verbatim. */
export interface RenderedTree {
  text: string;
  omissions: StructuredOmission[];
  verbatimChars: number;
  /** Characters of the strings replaced whole by markers. */
  omittedStringChars: number;
}

/**
 * Writes a view tree as JSON text: members in original order, item runs and
 * hidden members as "$loupe" markers, the root and its arrays one element
 * per line (see {@link breaksLines}). Collects one omission per marker.
 */
export function renderTree(root: ViewNode, resultId: string): RenderedTree {
  const omissions: StructuredOmission[] = [];
  let verbatimChars = 0;
  let omittedStringChars = 0;
  const marker = (part: OmittedPart, pointer: string): string => {
    if (part.what === "value" && part.type === "string") omittedStringChars += part.chars;
    const omission = omissionFor(part, pointer, resultId);
    omissions.push(omission);
    return markerText(part, jsonContinuation(resultId, pointer, omission.itemStart, omission.itemEnd));
  };
  const join = (elements: string[], kind: "object" | "array", depth: number, open: string, close: string): string =>
    breaksLines(kind, depth) && elements.length > 0 ? `${open}\n${elements.join(",\n")}\n${close}` : `${open}${elements.join(",")}${close}`;
  const render = (node: ViewNode): string => {
    switch (node.kind) {
      case "scalar":
        verbatimChars += node.json.length;
        return node.json;
      case "marker":
        return marker(node.part, node.pointer);
      case "object": {
        const elements: string[] = [];
        node.keys.forEach((key, index) => {
          const member = node.members[index];
          if (member) elements.push(`${JSON.stringify(key)}:${render(member)}`);
        });
        if (node.hidden > 0) elements.push(`"${MARKER_KEY}":${marker({ what: "keys", hidden: node.hidden, total: node.keys.length }, node.pointer)}`);
        return join(elements, "object", node.depth, "{", "}");
      }
      case "array":
        return join(renderItems(node), "array", node.depth, "[", "]");
    }
  };
  const renderItems = (node: ArrayNode): string[] => {
    const elements: string[] = [];
    const shown = [...node.items.keys()].sort((a, b) => a - b);
    let next = 0;
    for (const index of [...shown, node.length]) {
      if (index > next) elements.push(marker({ what: "items", start: next, end: index, total: node.length }, node.pointer));
      const item = node.items.get(index);
      if (item) elements.push(render(item));
      next = index + 1;
    }
    return elements;
  };
  const text = render(root);
  return { text, omissions, verbatimChars, omittedStringChars };
}

/** The pointer of member `key` (or item `index`) of a container node. */
export function childPointer(node: ObjectNode | ArrayNode, segment: string | number): string {
  return appendPointer(node.pointer, segment);
}
