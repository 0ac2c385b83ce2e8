/** Marks a shell command Loupe's pre-tool hook rewrote (`wrapShellCommand`), so it is never wrapped twice. */
export const WRAP_MARKER = "__loupe_out";

const HEADER = new RegExp(`${WRAP_MARKER}='[^'\\n]*'; __loupe_t0=\\$SECONDS; [{(]\\n`, "g");
const CLOSE = new RegExp(`\\n[})] >"\\$${WRAP_MARKER}" 2>&1; __loupe_rc=\\$\\?; `);
const END = '(exit "$__loupe_rc")';

/**
 * `text` with every command Loupe's pre-tool hook rewrote in it replaced by the agent's own command
 * (a runtime such as OpenCode records the rewritten one, and Loupe's plumbing — its temporary files,
 * its own command line — says nothing of what the agent is after); other text is left as it is. A
 * wrapped command never holds the marker itself, so the first close after a header ends it; a
 * wrapper cut short loses what follows its command.
 */
export function unwrapShellCommand(text: string): string {
  if (!text.includes(WRAP_MARKER)) return text;
  let out = "";
  let from = 0;
  for (const header of text.matchAll(HEADER)) {
    if (header.index < from) continue;
    const start = header.index + header[0].length;
    const close = CLOSE.exec(text.slice(start));
    if (close === null) continue;
    const end = text.indexOf(END, start + close.index);
    out += text.slice(from, header.index) + text.slice(start, start + close.index);
    from = end < 0 ? text.length : end + END.length;
  }
  return out + text.slice(from);
}
