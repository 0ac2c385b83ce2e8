/** One simple command of a pipeline: its words with quotes removed. */
export type ShellWords = string[];

/** A pipeline: simple commands joined by "|". */
export type ShellPipeline = ShellWords[];

const REDIRECT_ALONE = /^\d*(?:>>?|<|>&|&>)$/;
const REDIRECT_ATTACHED = /^\d*(?:>>?|&>|<)\S+$|^\d*>&\d+$/;

/**
 * Splits a shell command line into pipelines (separated by `&&`, `||`, `;`
 * or a newline), each a list of simple commands (separated by `|`), each a
 * list of words with single quotes, double quotes and backslash escapes
 * removed. Redirections (`2>&1`, `> out`, `2>/dev/null`) are dropped.
 * Returns undefined for what this small reader does not follow: here-documents,
 * command substitution, subshells and unbalanced quotes. Pure.
 */
export function splitShellCommand(command: string): ShellPipeline[] | undefined {
  const pipelines: ShellPipeline[] = [];
  let pipeline: ShellPipeline = [];
  let words: RawWord[] = [];
  let word = "";
  let inWord = false;
  let quoted = false;
  const endWord = (): void => {
    if (inWord) words.push({ text: word, quoted });
    word = "";
    inWord = false;
    quoted = false;
  };
  const endCommand = (): void => {
    endWord();
    const cleaned = dropRedirections(words);
    if (cleaned.length > 0) pipeline.push(cleaned);
    words = [];
  };
  const endPipeline = (): void => {
    endCommand();
    if (pipeline.length > 0) pipelines.push(pipeline);
    pipeline = [];
  };
  for (let index = 0; index < command.length; index++) {
    const char = command[index] ?? "";
    const next = command[index + 1] ?? "";
    if (char === "'") {
      const close = command.indexOf("'", index + 1);
      if (close === -1) return undefined;
      word += command.slice(index + 1, close);
      inWord = true;
      quoted = true;
      index = close;
    } else if (char === '"') {
      const read = readDoubleQuoted(command, index + 1);
      if (read === undefined) return undefined;
      word += read.text;
      inWord = true;
      quoted = true;
      index = read.end;
    } else if (char === "\\") {
      if (next !== "\n") word += next;
      inWord = inWord || next !== "\n";
      quoted = true;
      index++;
    } else if (char === "`" || char === "(" || char === ")" || (char === "$" && next === "(") || (char === "<" && next === "<")) {
      return undefined;
    } else if (char === "&" && next === "&") {
      endPipeline();
      index++;
    } else if (char === "|" && next === "|") {
      endPipeline();
      index++;
    } else if (char === "|") {
      endCommand();
    } else if (char === ";" || char === "\n") {
      endPipeline();
    } else if (char === " " || char === "\t" || char === "\r") {
      endWord();
    } else {
      word += char;
      inWord = true;
    }
  }
  endPipeline();
  return pipelines;
}

function readDoubleQuoted(command: string, from: number): { text: string; end: number } | undefined {
  let text = "";
  for (let index = from; index < command.length; index++) {
    const char = command[index] ?? "";
    if (char === '"') return { text, end: index };
    if (char === "`" || (char === "$" && command[index + 1] === "(")) return undefined;
    if (char === "\\" && /["\\$`]/.test(command[index + 1] ?? "")) {
      text += command[index + 1] ?? "";
      index++;
      continue;
    }
    text += char;
  }
  return undefined;
}

interface RawWord {
  text: string;
  quoted: boolean;
}

function dropRedirections(words: readonly RawWord[]): ShellWords {
  const kept: ShellWords = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    if (word === undefined) continue;
    if (!word.quoted && REDIRECT_ALONE.test(word.text)) {
      index++;
      continue;
    }
    if (!word.quoted && REDIRECT_ATTACHED.test(word.text)) continue;
    kept.push(word.text);
  }
  return kept;
}
