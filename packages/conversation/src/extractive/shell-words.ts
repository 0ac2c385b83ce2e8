/** A redirection of a simple command: `>` file, `>>` file, `<` file (`fd` is the digits before it, "" when none). */
export interface ShellRedirect {
  op: ">" | ">>" | "<";
  fd: string;
  target: string;
}

/** One simple command of a script: its words (quotes removed) and redirections. */
export interface ShellCommand {
  words: string[];
  redirects: ShellRedirect[];
}

interface Scan {
  text: string;
  index: number;
  commands: ShellCommand[];
  current: ShellCommand;
  heredocs: string[];
}

/**
 * The simple commands of a shell script, split at `&&`, `||`, `;`, `|`, `&`,
 * parentheses and line ends, with words unquoted. Here-document bodies are
 * skipped (they are data, not commands); `$(…)` and backquotes stay inside
 * their word. A best-effort reading for finding file names, not a shell
 * parser: unbalanced quotes run to the end of the script. Linear in its input.
 */
export function shellCommands(script: string): ShellCommand[] {
  const scan: Scan = { text: script, index: 0, commands: [], current: { words: [], redirects: [] }, heredocs: [] };
  while (scan.index < scan.text.length) step(scan);
  endCommand(scan);
  return scan.commands;
}

function step(scan: Scan): void {
  const char = scan.text[scan.index] ?? "";
  if (char === " " || char === "\t" || char === "\r") {
    scan.index++;
  } else if (char === "\n") {
    scan.index++;
    endCommand(scan);
    skipHeredocs(scan);
  } else if (char === "#") {
    const end = scan.text.indexOf("\n", scan.index);
    scan.index = end === -1 ? scan.text.length : end;
  } else if ("&|;()".includes(char)) {
    if (char === "&" && scan.text[scan.index + 1] === ">") return redirect(scan, "");
    scan.index++;
    endCommand(scan);
  } else if (char === ">" || char === "<") {
    redirect(scan, "");
  } else {
    const word = readWord(scan);
    const next = scan.text[scan.index];
    if (/^\d+$/.test(word) && (next === ">" || next === "<")) return redirect(scan, word);
    scan.current.words.push(word);
  }
}

function endCommand(scan: Scan): void {
  if (scan.current.words.length > 0 || scan.current.redirects.length > 0) scan.commands.push(scan.current);
  scan.current = { words: [], redirects: [] };
}

function redirect(scan: Scan, fd: string): void {
  const text = scan.text;
  if (text[scan.index] === "&") scan.index++;
  const start = scan.index;
  while (text[scan.index] === ">" || text[scan.index] === "<" || text[scan.index] === "-" || text[scan.index] === "&" || text[scan.index] === "|") scan.index++;
  const op = text.slice(start, scan.index);
  while (text[scan.index] === " " || text[scan.index] === "\t") scan.index++;
  const target = scan.index < text.length && !"\n;|&()".includes(text[scan.index] ?? "") ? readWord(scan) : "";
  if (op.startsWith("<<<")) return;
  if (op.startsWith("<<")) {
    if (target !== "") scan.heredocs.push(target);
    return;
  }
  // `2>&1`, `>&2`: a descriptor, not a file.
  if (op.endsWith("&")) return;
  const kind = op.startsWith(">>") ? ">>" : op.startsWith(">") ? ">" : "<";
  scan.current.redirects.push({ op: kind, fd, target });
}

function skipHeredocs(scan: Scan): void {
  while (scan.heredocs.length > 0 && scan.index < scan.text.length) {
    const delimiter = scan.heredocs[0] ?? "";
    const end = scan.text.indexOf("\n", scan.index);
    const line = scan.text.slice(scan.index, end === -1 ? scan.text.length : end);
    scan.index = end === -1 ? scan.text.length : end + 1;
    if (line.trim() === delimiter) scan.heredocs.shift();
  }
  scan.heredocs = [];
}

// One word up to unquoted whitespace or an operator; quotes removed, `$(…)` and backquotes kept.
function readWord(scan: Scan): string {
  const text = scan.text;
  let word = "";
  while (scan.index < text.length) {
    const char = text[scan.index] ?? "";
    if (" \t\r\n&|;()<>".includes(char)) break;
    if (char === "'") {
      const end = text.indexOf("'", scan.index + 1);
      const stop = end === -1 ? text.length : end;
      word += text.slice(scan.index + 1, stop);
      scan.index = stop + 1;
    } else if (char === '"') {
      word += readDoubleQuoted(scan);
    } else if (char === "\\") {
      word += text[scan.index + 1] === "\n" ? "" : (text[scan.index + 1] ?? "");
      scan.index += 2;
    } else if (char === "$" && text[scan.index + 1] === "(") {
      word += readBalanced(scan);
    } else if (char === "`") {
      const end = text.indexOf("`", scan.index + 1);
      const stop = end === -1 ? text.length : end;
      word += text.slice(scan.index, stop + 1);
      scan.index = stop + 1;
    } else {
      word += char;
      scan.index++;
    }
  }
  return word;
}

function readDoubleQuoted(scan: Scan): string {
  const text = scan.text;
  let value = "";
  scan.index++;
  while (scan.index < text.length && text[scan.index] !== '"') {
    if (text[scan.index] === "\\" && scan.index + 1 < text.length) {
      const next = text[scan.index + 1] ?? "";
      value += '"\\$`\n'.includes(next) ? (next === "\n" ? "" : next) : "\\" + next;
      scan.index += 2;
      continue;
    }
    value += text[scan.index] ?? "";
    scan.index++;
  }
  scan.index++;
  return value;
}

function readBalanced(scan: Scan): string {
  const text = scan.text;
  const start = scan.index;
  let depth = 0;
  while (scan.index < text.length) {
    const char = text[scan.index];
    scan.index++;
    if (char === "(") depth++;
    else if (char === ")" && --depth === 0) break;
  }
  return text.slice(start, scan.index);
}
