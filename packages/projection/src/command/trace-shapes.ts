import type { LineKind } from "./classify-lines.js";
import { BLANK, GO_CALL, isLibraryFrame, RUST_PANIC, RUST_SYMBOL } from "./line-patterns.js";
import { visibleText } from "./visible-text.js";

// Traces whose shape only shows across several lines, marked after the line-by-line pass of classifyLines.

// Node prints an uncaught error's place above it: "path:line" alone, the line of code, a caret under the throw,
// a blank line, then the error.
const PLACE_ALONE = /^\S+:\d+\s*$/;
const CARET_ONLY = /^\s*\^+~*\s*$/;
// A Go panic's trace: "goroutine 1 [running]:", then per frame the call (GO_CALL) and, indented, its place.
const GOROUTINE = /^goroutine \d+ \[[^\]]*\]:\s*$/;
const GO_PLACE = /^\t\S+:\d+( \+0x[0-9a-f]+)?\s*$/;
const GO_ELIDED = /^\.\.\.\d+ (additional )?frames? elided\.\.\.\s*$/;
// Go's own runtime and standard library, wherever Go is installed.
const GO_LIBRARY =
  /[\\/]go[\\/]src[\\/](?:runtime|internal|sync|net|os|reflect|testing|syscall)[\\/]|[\\/]usr[\\/](?:local[\\/])?(?:lib[\\/])?go[^\\/]*[\\/]src[\\/]/;
// A Rust backtrace's frame: its symbol line (RUST_SYMBOL) and, indented deeper, "at ./main.rs:1:41".
const RUST_PLACE = /^\s+at \S/;
// Rust's standard library and runtime symbols (their places are under /rustc/<hash>/library when shown).
const RUST_LIBRARY_SYMBOL = /^\s+\d+: (?:__rustc::|std::|core::|alloc::|rust_begin_unwind|__rust_)/;
// Most lines of a panic's message taken as its own.
const MAX_PANIC_MESSAGE_LINES = 20;

/**
 * Marks the traces that span lines (see below). Each starts at, or ends with, a line the line-by-line pass
 * already took as an error (Node's error under its place, Rust's panic line, Go's "panic:" above its goroutine
 * trace), so only error lines are looked around: output without errors costs one walk over `kinds`.
 */
export function markTraceShapes(lines: readonly string[], kinds: LineKind[]): void {
  for (let index = 0; index < lines.length; index++) {
    if (kinds[index] !== "error") continue;
    markThrownSource(lines, kinds, index);
    index = Math.max(index, markRustPanic(lines, kinds, index), markGoroutines(lines, kinds, index));
  }
}

/**
 * Rust's panic at `index`: the message on the lines after "thread '…' panicked at …:" (to a blank line, the
 * backtrace or a note) is the error's own; under "stack backtrace:" each frame (its symbol line and the place
 * below it) is a frame of the program or of Rust's library, the header and the closing note detail. Returns the
 * last line marked.
 */
function markRustPanic(lines: readonly string[], kinds: LineKind[], index: number): number {
  if (!RUST_PANIC.test(visibleText(lines[index] ?? ""))) return index;
  // The message may span lines (assert_eq!'s "  left: 4" / " right: 5"), up to a blank line or the backtrace.
  let next = index + 1;
  for (; next < Math.min(lines.length, index + 1 + MAX_PANIC_MESSAGE_LINES); next++) {
    const text = visibleText(lines[next] ?? "");
    if (kinds[next] !== "ordinary" || BLANK.test(text) || text.startsWith("stack backtrace:") || text.startsWith("note: ")) break;
    kinds[next] = "error";
  }
  if (visibleText(lines[next] ?? "").trimEnd() !== "stack backtrace:") return next - 1;
  kinds[next] = "detail";
  for (next++; next < lines.length && RUST_SYMBOL.test(visibleText(lines[next] ?? "")); next++) {
    const place = visibleText(lines[next + 1] ?? "");
    const hasPlace = RUST_PLACE.test(place);
    const library = RUST_LIBRARY_SYMBOL.test(visibleText(lines[next] ?? "")) || (hasPlace && isLibraryFrame(place));
    kinds.fill(library ? "library_frame" : "frame", next, hasPlace ? next + 2 : next + 1);
    if (hasPlace) next++;
  }
  if (!/^note: .*RUST_BACKTRACE/.test(visibleText(lines[next] ?? ""))) return next - 1;
  kinds[next] = "detail";
  return next;
}

/**
 * Node's place of the error at `index` (see PLACE_ALONE): the three lines are the frame it was thrown in, its
 * code kept with it (a library frame when the place is in a library or the runtime).
 */
function markThrownSource(lines: readonly string[], kinds: LineKind[], index: number): void {
  if (index < 4 || kinds[index - 4] !== "ordinary") return;
  const place = visibleText(lines[index - 4] ?? "");
  if (!BLANK.test(lines[index - 1] ?? "") || !CARET_ONLY.test(visibleText(lines[index - 2] ?? "")) || !PLACE_ALONE.test(place)) return;
  kinds.fill(isLibraryFrame(place) ? "library_frame" : "frame", index - 4, index - 1);
}

// Blank lines allowed between a panic's line and its goroutine trace, and between two goroutines' traces.
const MAX_BLANKS_BEFORE_TRACE = 2;

/**
 * The Go traces after the error at `index` ("panic: …", "fatal error: …"): under each "goroutine N [state]:"
 * the label is detail, each frame (the call and the indented place below it) a frame of the program or of
 * Go's runtime and libraries, "...N frames elided..." detail; a trace ends at the first line of another shape.
 * Only ordinary lines are marked. Returns the last line marked.
 */
function markGoroutines(lines: readonly string[], kinds: LineKind[], index: number): number {
  let last = index;
  for (;;) {
    let label = last + 1;
    while (label < lines.length && label - last <= MAX_BLANKS_BEFORE_TRACE && BLANK.test(lines[label] ?? "")) label++;
    if (kinds[label] !== "ordinary" || !GOROUTINE.test(visibleText(lines[label] ?? ""))) return last;
    kinds[label] = "detail";
    let next = label + 1;
    for (; next < lines.length; next++) {
      const text = visibleText(lines[next] ?? "");
      const place = visibleText(lines[next + 1] ?? "");
      if (GO_ELIDED.test(text)) kinds[next] = "detail";
      else if (GO_CALL.test(text) && GO_PLACE.test(place)) {
        kinds.fill(isLibraryFrame(place) || GO_LIBRARY.test(place) ? "library_frame" : "frame", next, next + 2);
        next++;
      } else break;
    }
    last = next - 1;
  }
}
