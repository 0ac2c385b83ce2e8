/** Kinds of evidence items found in an agent's next action. */
export type EvidenceKind = "path" | "file-line" | "identifier" | "error-name" | "quoted" | "number";

/** One candidate item in a next action. */
export interface EvidenceItem {
  readonly kind: EvidenceKind;
  readonly text: string;
}

const PATTERNS: ReadonlyArray<readonly [EvidenceKind, RegExp]> = [
  // path/to/file.ext with an optional :line — the whole match is a file:line item, the path alone a path item.
  ["file-line", /(?:[\w.-]+\/)*[\w.-]*[A-Za-z_][\w-]*\.[A-Za-z]\w{0,7}:\d+/g],
  [
    "path",
    /(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]+|[\w-]+\.(?:py|js|ts|tsx|jsx|c|h|cc|cpp|hpp|go|rs|java|rb|php|md|txt|json|ya?ml|toml|cfg|ini|sh|rst|html|css|pyx|pyi)\b/g,
  ],
  ["error-name", /\b[A-Z]\w*(?:Error|Exception|Warning)\b/g],
  ["identifier", /\b[A-Za-z_]\w*\b/g],
  ["quoted", /"([^"\n]{4,200})"|'([^'\n]{4,200})'|`([^`\n]{4,200})`/g],
  ["number", /(?<![\w.])\d{3,}(?![\w.])/g],
];

const isIdentifier = (text: string): boolean => text.length >= 4 && (text.includes("_") || /[a-z][A-Z]/.test(text)) && /[A-Za-z]/.test(text.replace(/_/g, ""));

/** Strips a leading `./` or a sandbox root (`/testbed/`, `/workspace/<repo>/`) so the path matches how outputs print it. */
function normalizePath(path: string): string {
  return path
    .replace(/^\.\//, "")
    .replace(/^\/testbed\//, "")
    .replace(/^\/workspace\/[^/]+\//, "");
}

/**
 * Candidate evidence items in `text` (an agent's next action): paths
 * (`a/b.c`, `./x/y`, `name.py`), `file:line`, identifiers with `_` or
 * camelCase of 4 characters or more, error names (`FooError`,
 * `BarException`, `BazWarning`), quoted strings of 4–200 characters on one
 * line, and numbers of 3 digits or more, deduplicated, in order of kind
 * then position. Pure.
 */
export function extractEvidence(text: string): EvidenceItem[] {
  const found = new Map<string, EvidenceKind>();
  for (const [kind, pattern] of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      let item = kind === "quoted" ? (match[1] ?? match[2] ?? match[3] ?? "") : match[0];
      if (kind === "path" || kind === "file-line") item = normalizePath(item);
      if (kind === "path" && !/[A-Za-z]/.test(item)) continue;
      if (kind === "identifier" && !isIdentifier(item)) continue;
      item = item.trim();
      if (item.length < 3 || found.has(item)) continue;
      found.set(item, kind);
    }
  }
  return [...found].map(([item, kind]) => ({ kind, text: item }));
}

/** Drops every item contained in a longer item of the list. */
export function dropContained<T extends { readonly text: string }>(items: readonly T[]): T[] {
  return items.filter((item) => !items.some((other) => other.text.length > item.text.length && other.text.includes(item.text)));
}

/** Whether an item was known to the agent before the call returned: in the task, the call's arguments or the intent. */
export function knownBefore(call: { task: string; argsText: string; intent?: string }): (text: string) => boolean {
  return (text) => call.task.includes(text) || call.argsText.includes(text) || (call.intent ?? "").includes(text);
}

/**
 * The evidence of one call: the items of `nextAction` that occur in the
 * output the agent saw (`outputAsSeen`) and in the full output, and not in
 * the task text, the call's own arguments or the intent (the message that
 * issued the call: all of these the agent knew already, and an intent-aware
 * view must not score by matching its own input); of those, an item
 * contained in a longer one is dropped.
 */
export function evidenceOf(call: {
  nextAction: string;
  output: string;
  outputAsSeen: string;
  task: string;
  argsText: string;
  intent?: string;
  /** `extractEvidence(nextAction)` when the caller has it already. */
  candidates?: readonly EvidenceItem[];
}): EvidenceItem[] {
  const known = knownBefore(call);
  return dropContained(
    (call.candidates ?? extractEvidence(call.nextAction)).filter(
      (item) => call.outputAsSeen.includes(item.text) && call.output.includes(item.text) && !known(item.text),
    ),
  );
}
