const MODIFIERS = String.raw`(?:(?:export|default|declare|async|public|private|protected|internal|static|abstract|final|sealed|override|virtual|partial|open|pub(?:\([\w:]+\))?|unsafe|extern|inline)\s+)*`;
// Sticky (matched from the line's first non-blank character, no copy of the line); the line's terminator after
// its text never completes a match these would not make without it.
const DECLARATION = new RegExp(
  String.raw`${MODIFIERS}(?:(?:def|class|function\*?|interface|enum|struct|trait|impl|fn|func|module|namespace|object|record|protocol|extension)(?:\s+[\w$*<(]|<)|type\s+[\w<>, ]+=)`,
  "y",
);
// Java / C# / Kotlin methods: modifiers, a type, a name and "(".
const METHOD = /(?:(?:public|private|protected|static|final|abstract|synchronized|override|internal|virtual|async)\s+)+[\w<>[\],.?\s]*?\b\w+\s*\(/y;
// JavaScript functions bound to a name at the top level.
const BOUND_FUNCTION = /^(?:export\s+)?(?:const|let|var)\s+[\w$]+\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)/;
// C / C++ function definitions start at column 0 and do not end in ";".
const C_FUNCTION = /^(?!(?:if|for|while|switch|return|else|do|case|typedef|struct|enum|union)\b)[A-Za-z_][\w\s*&:<>,]*?\b[A-Za-z_~][\w:]*\s*\([^;]*$/;
const C_LIKE = /\.(?:c|h|cc|cpp|cxx|hpp|hh|hxx|m|mm)$/;
const PYTHON = /\.(?:py|pyi|pyw)$/;
// Python declares with `def name(` and `class Name(` or `class Name:` alone; a docstring's prose ("function
// that …", "interface for …", "object created by …") declares nothing.
const PYTHON_DECLARATION = /(?:async\s+)?def\s+[A-Za-z_]\w*\s*[[(]|class\s+[A-Za-z_]\w*\s*[[(:]/y;
const MARKDOWN = /\.(?:md|markdown|mdx)$/;
const MARKDOWN_HEADING = /^#{1,6}\s+\S/;
const MAX_OUTLINE_LINE = 400;
// The line number a read tool printed before a line ("   42\t", "42→", "42:"), matched at the line's start.
const NUMBER_PREFIX = / *\d+(?:\t|→|:)/y;
const DECLARING_WORDS =
  "export|default|declare|async|public|private|protected|internal|static|abstract|final|sealed|override|virtual|partial|open|pub|unsafe|extern|inline|synchronized|def|class|function|interface|enum|struct|trait|impl|fn|func|module|namespace|object|record|protocol|extension|type";
const FIRST_WORD = new RegExp(`(?:${DECLARING_WORDS}|const|let|var)\\b`, "y");
// Indented, a line starting "const", "let" or "var" declares nothing a reader navigates by (only a top-level one may bind a function).
const INDENTED_FIRST_WORD = new RegExp(`(?:${DECLARING_WORDS})\\b`, "y");

// The letters FIRST_WORD's words start with: a line starting with another character needs no match.
const FIRST_LETTERS = new Uint8Array(128);
for (const letter of "acdefilmnoprstuv") FIRST_LETTERS[letter.charCodeAt(0)] = 1;

/** Which extra outline patterns apply to a file, from its path. */
export type OutlineLanguage = "c" | "markdown" | "python" | "other";

/** The outline patterns for a file path ("" when unknown). */
export function outlineLanguageOf(path: string): OutlineLanguage {
  return C_LIKE.test(path) ? "c" : MARKDOWN.test(path) ? "markdown" : PYTHON.test(path) ? "python" : "other";
}

/** `line` without the line number a read tool printed before it ("   42\t", "42→", "42:"). */
export function withoutNumberPrefix(line: string): string {
  const length = numberPrefixLength(line);
  return length === 0 ? line : line.slice(length);
}

/** How many characters of `line` are the read tool's line number (0 when it has none). */
function numberPrefixLength(line: string): number {
  NUMBER_PREFIX.lastIndex = 0;
  return NUMBER_PREFIX.test(line) ? NUMBER_PREFIX.lastIndex : 0;
}

/**
 * The nesting level of a line that declares something a reader navigates by
 * (def, class, function, interface, struct, export …; C functions at column
 * 0; Markdown headings; in Python only `def` and `class`): its indentation width, tabs counted as 4 (a heading's
 * level minus 1). Undefined for other lines. A line-number prefix printed by
 * the read tool is skipped when `numbered`. Cheap: one anchored match per pattern.
 */
export function outlineLevel(line: string, numbered: boolean, language: OutlineLanguage): number | undefined {
  if (line.length > MAX_OUTLINE_LINE) return undefined;
  // Where the content starts: after the read tool's line number, found in place (most lines are never copied).
  let start = numbered ? numberPrefixLength(line) : 0;
  let indent = 0;
  for (; start < line.length; start++) {
    const char = line.charCodeAt(start);
    if (char === 32) indent++;
    else if (char === 9) indent += 4;
    else break;
  }
  if (language === "markdown") {
    const text = line.slice(start);
    return MARKDOWN_HEADING.test(text) ? text.indexOf(" ") - 1 : undefined;
  }
  if (language === "python") {
    // Only a line starting with "a", "c" or "d" can declare (async def, class, def): most lines need no match.
    const first = line.charCodeAt(start);
    return (first === 97 || first === 99 || first === 100) && stickyTest(PYTHON_DECLARATION, line, start) ? indent : undefined;
  }
  // Most lines are ordinary code: their first letter, or else one sticky match of the first word, rules them out.
  let keyword = false;
  if (FIRST_LETTERS[line.charCodeAt(start)] === 1) {
    const word = indent > 0 ? INDENTED_FIRST_WORD : FIRST_WORD;
    word.lastIndex = start;
    keyword = word.test(line);
  }
  if (!keyword && (indent > 0 || language !== "c")) return undefined;
  if (keyword && (stickyTest(DECLARATION, line, start) || stickyTest(METHOD, line, start))) return indent;
  if (indent > 0) return undefined;
  // Top level (rare): the line's code without its terminator ("\n" or "\r\n").
  let end = line.length;
  if (line.charCodeAt(end - 1) === 10) {
    end--;
    if (line.charCodeAt(end - 1) === 13) end--;
  }
  const code = line.slice(start, end);
  if (code.startsWith("export ") || BOUND_FUNCTION.test(code)) return 0;
  return language === "c" && C_FUNCTION.test(code) ? 0 : undefined;
}

function stickyTest(pattern: RegExp, line: string, start: number): boolean {
  pattern.lastIndex = start;
  return pattern.test(line);
}
