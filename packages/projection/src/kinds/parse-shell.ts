/** Where a simple command's standard output goes. */
export type StdoutTarget = "output" | "file" | "discard";

/** One simple command of a shell command line: its words with quotes removed and where its stdout goes. */
export interface SimpleCommand {
  words: string[];
  /** "file" when stdout is redirected to a file (a write), "discard" for /dev/null, else "output". */
  stdout: StdoutTarget;
}

/** Commands joined by pipes; a command line is a list of these (joined by `&&`, `||`, `;`, `&`, newlines, parentheses). */
export type Pipeline = SimpleCommand[];

type Target = "stdout" | "other" | "heredoc" | "heredoc-strip";

/** Commands longer than this are parsed only up to it: the first pipelines decide the kind. */
const MAX_COMMAND_CHARS = 64 * 1024;

/**
 * Splits a POSIX shell command line into pipelines of simple commands, far
 * enough to tell which program produces the output: quotes, escapes, `$(…)`,
 * backticks, comments, redirections and here-documents (whose bodies are
 * skipped, never read as commands). Not a full shell grammar: compound
 * commands (`for`, `if`, `{ …; }`) come back as their words in sequence.
 * Pure; never throws; reads at most the first 64 Ki characters.
 */
export function parseShell(source: string): Pipeline[] {
  return scanShell(source).pipelines;
}

/**
 * {@link parseShell} for readers that must not guess: undefined when the command line holds what
 * the words alone do not tell — command substitution (`$(…)`, backticks, also inside double
 * quotes), subshells or process substitution, here-documents or here-strings, or an unclosed quote.
 * Pure; never throws.
 */
export function parseShellStrict(source: string): Pipeline[] | undefined {
  const { pipelines, complex } = scanShell(source);
  return complex ? undefined : pipelines;
}

function scanShell(source: string): { pipelines: Pipeline[]; complex: boolean } {
  const text = source.length > MAX_COMMAND_CHARS ? source.slice(0, MAX_COMMAND_CHARS) : source;
  let complex = source.length > MAX_COMMAND_CHARS;
  const pipelines: Pipeline[] = [];
  const heredocs: { delimiter: string; strip: boolean }[] = [];
  let pipeline: Pipeline = [];
  let command: SimpleCommand = { words: [], stdout: "output" };
  let word: string | undefined;
  let target: Target | undefined;
  let fd: string | undefined;

  const endWord = (): void => {
    if (word === undefined) return;
    if (target === "stdout") command.stdout = word === "/dev/null" ? "discard" : "file";
    else if (target === "heredoc" || target === "heredoc-strip") heredocs.push({ delimiter: word, strip: target === "heredoc-strip" });
    else if (target === undefined) command.words.push(word);
    word = undefined;
    target = undefined;
  };
  const endCommand = (pipe: boolean): void => {
    endWord();
    if (command.words.length > 0 || command.stdout !== "output") pipeline.push(command);
    command = { words: [], stdout: "output" };
    if (!pipe && pipeline.length > 0) {
      pipelines.push(pipeline);
      pipeline = [];
    }
  };
  const redirect = (next: Target): void => {
    endWord();
    target = next;
  };

  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    const rest2 = text.slice(index, index + 2);
    // A word of digits right before < or > is a file descriptor number ("2>&1").
    if ((char === "<" || char === ">") && word !== undefined && /^\d+$/.test(word) && target === undefined) {
      fd = word;
      word = undefined;
    } else if (char !== "<" && char !== ">") fd = undefined;
    if (char === " " || char === "\t" || char === "\r") {
      endWord();
      index++;
    } else if (char === "\\") {
      if (text[index + 1] !== "\n") word = (word ?? "") + (text[index + 1] ?? "");
      index += 2;
    } else if (char === "'") {
      const end = closing(text, index + 1, "'");
      complex ||= end >= text.length;
      word = (word ?? "") + text.slice(index + 1, end);
      index = end + 1;
    } else if (char === '"') {
      const [value, end] = doubleQuoted(text, index + 1);
      complex ||= end >= text.length || /\$\(|`/.test(text.slice(index + 1, end));
      word = (word ?? "") + value;
      index = end + 1;
    } else if (char === "`") {
      const end = closing(text, index + 1, "`");
      complex = true;
      word = (word ?? "") + text.slice(index, end + 1);
      index = end + 1;
    } else if (char === "$" && (text[index + 1] === "(" || text[index + 1] === "{")) {
      complex ||= text[index + 1] === "(";
      const end = balanced(text, index + 1);
      word = (word ?? "") + text.slice(index, end + 1);
      index = end + 1;
    } else if (char === "#" && word === undefined) {
      const end = text.indexOf("\n", index);
      index = end === -1 ? text.length : end;
    } else if (char === "\n") {
      endCommand(false);
      index = skipHeredocBodies(text, index + 1, heredocs);
      heredocs.length = 0;
    } else if (rest2 === "&&" || rest2 === "||" || rest2 === ";;") {
      endCommand(false);
      index += 2;
    } else if (rest2 === "|&" || char === "|") {
      endCommand(true);
      index += rest2 === "|&" ? 2 : 1;
    } else if (rest2 === "&>") {
      redirect("stdout");
      index += text[index + 2] === ">" ? 3 : 2;
    } else if (char === ";" || char === "&" || char === ")") {
      complex ||= char === ")";
      endCommand(false);
      index++;
    } else if (char === "(") {
      complex = true;
      if ((text[index - 1] === "<" || text[index - 1] === ">") && word === undefined) {
        const end = balanced(text, index);
        word = text.slice(index, end + 1);
        index = end + 1;
      } else {
        endCommand(false);
        index++;
      }
    } else if (char === "<") {
      const operator = /^<<<|^<<-|^<<|^<&|^<>|^</.exec(text.slice(index, index + 3))?.[0] ?? "<";
      if (text[index + 1] === "(") {
        index++;
        continue;
      }
      complex ||= operator.startsWith("<<");
      redirect(operator === "<<" ? "heredoc" : operator === "<<-" ? "heredoc-strip" : "other");
      index += operator.length;
    } else if (char === ">") {
      const operator = /^>>|^>&|^>\||^>/.exec(rest2)?.[0] ?? ">";
      if (text[index + 1] === "(") {
        index++;
        continue;
      }
      const toStdout = operator !== ">&" && (fd === undefined || fd === "1");
      redirect(toStdout ? "stdout" : "other");
      index += operator.length;
    } else {
      word = (word ?? "") + char;
      index++;
    }
  }
  endCommand(false);
  return { pipelines, complex };
}

/** Index of the next `quote` at or after `from` (the end of the text when unclosed). */
function closing(text: string, from: number, quote: string): number {
  let index = from;
  while (index < text.length && text[index] !== quote) index += text[index] === "\\" && quote === "`" ? 2 : 1;
  return Math.min(index, text.length);
}

/** The value of a double-quoted string starting after its quote, and the index of its closing quote. */
function doubleQuoted(text: string, from: number): [string, number] {
  let value = "";
  let index = from;
  while (index < text.length && text[index] !== '"') {
    if (text[index] === "\\" && index + 1 < text.length) {
      const next = text[index + 1] as string;
      value += '$`"\\\n'.includes(next) ? (next === "\n" ? "" : next) : `\\${next}`;
      index += 2;
    } else {
      value += text[index];
      index++;
    }
  }
  return [value, index];
}

/** Index of the bracket closing the one at `open` ("(" or "{"), skipping quoted text. */
function balanced(text: string, open: number): number {
  const opener = text[open];
  const closer = opener === "{" ? "}" : ")";
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text[index];
    if (char === "'" || char === '"') index = closing(text, index + 1, char);
    else if (char === "\\") index++;
    else if (char === opener) depth++;
    else if (char === closer && --depth === 0) return index;
  }
  return text.length;
}

/** Skips the bodies of the here-documents opened on the line that just ended; returns where commands resume. */
function skipHeredocBodies(text: string, from: number, heredocs: readonly { delimiter: string; strip: boolean }[]): number {
  let index = from;
  for (const { delimiter, strip } of heredocs) {
    while (index < text.length) {
      const end = text.indexOf("\n", index);
      const line = text.slice(index, end === -1 ? text.length : end).replace(/\r$/, "");
      index = end === -1 ? text.length : end + 1;
      if ((strip ? line.replace(/^\t+/, "") : line) === delimiter) break;
    }
  }
  return index;
}
