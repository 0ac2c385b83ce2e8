/** Every string in a JSON value (message texts, tool inputs and results, arguments), in document order. Pure. */
export function jsonStrings(value: unknown): string[] {
  const strings: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node === "string") strings.push(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === "object" && node !== null) Object.values(node).forEach(walk);
  };
  walk(value);
  return strings;
}
