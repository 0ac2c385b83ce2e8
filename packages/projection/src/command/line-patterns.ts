// The shapes of evidence lines in command output, by tool. Each pattern is
// tested on one line without its terminator (and with progress redraws
// collapsed); patterns are anchored where the tool anchors them, so printed
// program output rarely matches by accident.

/** Verdict lines: counts of passed and failed tests, errors or warnings. */
export const SUMMARY_PATTERNS: readonly RegExp[] = [
  // pytest: "==== 3 failed, 200 passed, 2 warnings in 1.23s ====", and -q without the rules.
  /^=+ .*\b\d+ (passed|failed|errors?|skipped|xfailed|xpassed|warnings?|deselected|rerun)\b.*=+$/,
  /^=+ no tests ran\b/,
  /^(\d+ (passed|failed|errors?|skipped|xfailed|xpassed|warnings?|deselected)(, )?)+ in [\d.]+s\b/,
  // unittest / Django's runner.
  /^Ran \d+ tests? in /,
  /^(FAILED|OK)( \((failures|errors|skipped|expected failures|unexpected successes)=\d+[^)]*\))?$/,
  // jest, mocha, node:test (TAP "# pass 3" and spec "ℹ pass 3").
  /^(Tests|Test Suites|Snapshots):\s+(\d+ \w+, )*\d+ total/,
  /^\s*\d+ (passing|failing|pending)\b/,
  /^[#ℹ] (tests|suites|pass|fail|cancelled|skipped|todo) \d+$/,
  // cargo test, go test.
  /^test result: (ok|FAILED)\. \d+ passed; \d+ failed/,
  /^(ok|FAIL)\s+\S+\s+(\d+(\.\d+)?s|\(cached\))/,
  /^(PASS|FAIL)$/,
  // tsc, eslint, clang/gcc, cargo build.
  /^Found \d+ errors?\b/,
  /^[✖✕×] \d+ problems? \(\d+ errors?, \d+ warnings?\)/,
  /^\d+ (errors?|warnings?)( and \d+ (errors?|warnings?))? generated\.$/,
  /^(error|warning): .*\bgenerated \d+ (warnings?|errors?)/,
  /^error: could not compile /,
  // Maven/JUnit-style and other "N … passed/failed" tallies.
  /^Tests run: \d+, Failures: \d+/,
  /\b\d+ (tests? )?(passed|failed)\b.*\b\d+ (tests? )?(passed|failed|skipped|errors?)\b/,
];

/** pytest's "short test summary info" banner: the block below it is kept whole. */
export const SHORT_SUMMARY_HEADER = /^=+ short test summary info =+$/;

/** A banner line that ends pytest's summary block (the final tally). */
export const BANNER = /^={3,}/;

/** Lines naming a failing test. */
export const FAILURE_PATTERNS: readonly RegExp[] = [
  /^(FAILED|ERROR|XPASS\(strict\)) \S/, // pytest -r lines
  /^\S+::\S+ (FAILED|ERROR)\b/, // pytest -v
  /^(FAIL|ERROR): \S/, // unittest
  / \.\.\. (FAIL|ERROR|FAILED)$/, // unittest -v, cargo test
  /^\s*not ok \d+\b/, // TAP (node:test, prove)
  /^\s*[✖✗✕×✘] \S/, // node:test spec, jest, mocha
  /^\s*● \S/, // jest failure title
  /^FAIL\s+\S/, // jest file verdict
  /^\s*--- FAIL: \S/, // go test
  /^_{3,} \S.* _{3,}$/, // pytest failure section "____ test_x ____"
];

/** A pytest failure section header: everything below it up to the next header or banner belongs to it. */
export const PYTEST_SECTION = /^_{3,} \S.* _{3,}$/;

/** Compiler and linter diagnostics that name a location: each starts its own error block. */
export const ERROR_DIAGNOSTICS: readonly RegExp[] = [
  /^[^\s(][^(]*\(\d+,\d+\): error TS\d+: /, // tsc
  /^[^\s:]+:\d+(:\d+)?: (fatal error|error|Error)\b/, // gcc, clang, ld, many linters
  /^[^\s:]+\.go:\d+:\d+: /, // go build / vet
  /^error\[E\d+\]: /, // rustc
];

/** Warning diagnostics. */
export const WARNING_DIAGNOSTICS: readonly RegExp[] = [
  /^[^\s(][^(]*\(\d+,\d+\): warning TS\d+: /,
  /^[^\s:]+:\d+(:\d+)?: ([Ww]arning|WARNING)\b/,
  /^warning(\[[A-Z]?\d+\])?: /,
  /^\s*(\S+: )?(warning|WARNING|Warning): /,
  /^([^\s:]+:\d+: )?[A-Z]\w*Warning: /, // Python warnings: "x.py:3: DeprecationWarning: …"
];

/** An eslint result row under its file's path: "  3:5  error  message  rule". */
export const ESLINT_ROW = /^\s+\d+:\d+\s+(error|warning)\s+\S/;

/** The line that starts the next exception of a JVM chain: its cause ("Caused by: java.io.IOException: …"). */
export const JVM_CAUSE = /^Caused by: \S/;

/** Error and exception lines without a location. */
export const ERROR_PATTERNS: readonly RegExp[] = [
  /^E {2,}\S/, // pytest exception lines
  /^[^\s:]+:\d+: (\w+\.)*\w*(Error|Exception|Failed|Interrupt|Exit)\b/, // pytest "x.py:12: AssertionError"
  /^\s*(\S+: )?(fatal error|fatal|error|ERROR|FATAL|Error|panic|PANIC)(\[[^\]]*\])?: /,
  /^npm (ERR!|error) /,
  /^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Failure|Fault)(: .*)?$/, // Python exception line
  /^make(\[\d+\])?: \*\*\* /,
  /^thread '.*'( \(\d+\))? panicked at /, // Rust (since 1.88 with the thread's id)
  /^Exception in thread "[^"]*" \S/, // JVM: an uncaught exception
  JVM_CAUSE, // JVM: the exception that caused the one above
  /(Segmentation fault|core dumped|command not found|No such file or directory|Permission denied)\s*$/,
];

/** Python's traceback header. */
export const TRACEBACK_HEADER = /^\s*Traceback \(most recent call last\):/;

/** Lines that chain one Python traceback to the next. */
export const TRACEBACK_CHAIN = /^(During handling of the above exception|The above exception was the direct cause)/;

/** A Python frame: `  File "path", line N, in f`. */
export const PYTHON_FRAME = /^\s+File "[^"]*", line \d+/;

/** Python's note for a collapsed recursion. */
export const REPEATED_FRAMES = /^\s*\[Previous line repeated \d+ more times?\]/;

/** A blank line (spaces and tabs at most, its terminator kept). */
export const BLANK = /^\s*$/;

/** A Go trace's call line ("main.lookup(...)"); its place follows, indented ("\t/app/main.go:8 +0x1d"). */
export const GO_CALL = /^\S+\(.*\)\s*$/;

/** A Rust backtrace's symbol line ("   3: main::lookup"); its place follows, indented deeper ("      at ./main.rs:1:41"). */
export const RUST_SYMBOL = /^\s+\d+: \S/;

/**
 * A JavaScript stack frame ("    at f (file:1:2)"), a JVM one ("\tat com.acme.Config.load(Config.java:42)") or a
 * pytest frame location ("x.py:12: in f").
 */
export const OTHER_FRAMES: readonly RegExp[] = [
  /^\s+at (.+ \()?\S+?:\d+:\d+\)?$/,
  /^\s+at (async )?\S+ \(node:[^)]*\)$/,
  /^\s+at [\w$./<>-]+\([^()]*\)$/,
  /^[^\s:]+:\d+: in \S/,
];

/** Rust's panic line ("thread 'main' (16265) panicked at src/main.rs:1:41:"): its message follows on the next line. */
export const RUST_PANIC = /^thread '.*'( \(\d+\))? panicked at .*:\s*$/;

/** pytest's failing source line ">   assert x == 1". */
export const PYTEST_SOURCE = /^> {2,}\S/;

/** A source excerpt, caret or location under a compiler diagnostic (gcc/clang/rustc gutters, rustc notes). */
export const DIAGNOSTIC_DETAIL = /^\s*(\d+\s*)?\|( |$)|^\s*-->\s|^\s*= (note|help):|^\s*\^|^[^\s:]+:\d+(:\d+)?: note:/;

/** The start of a TAP YAML diagnostic block and its end. */
export const TAP_YAML_START = /^\s+---$/;
export const TAP_YAML_END = /^\s+\.\.\.$/;

// Frames in installed packages, the standard library or the runtime: collapsed first when room is short.
const LIBRARY_PATH =
  /site-packages|dist-packages|[\\/]lib[\\/]python\d|[\\/]usr[\\/]lib[\\/]|[\\/]usr[\\/]local[\\/]lib[\\/]|node_modules|node:internal|^node:|\(node:|\bat (?:java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|junit|org\.junit|org\.gradle|org\.apache\.maven)[./]|<frozen |[\\/]\.pyenv[\\/]|[\\/]\.cargo[\\/]registry|[\\/]rustc[\\/][0-9a-f]{8}|[\\/]go[\\/]pkg[\\/]mod[\\/]/;

/** True when a frame line points into a library or the runtime rather than the repository. */
export function isLibraryFrame(text: string): boolean {
  return LIBRARY_PATH.test(text);
}

/** What a line's shape says it is, before state (tracebacks, sections) is taken into account. */
export type LineTag = "short_summary" | "trace_header" | "chain" | "summary" | "section" | "failure" | "diagnostic" | "eslint" | "warning" | "frame" | "error";

/** Every shape, in the order they are tried: the first match decides. */
export const LINE_TABLE: ReadonlyArray<readonly [LineTag, RegExp]> = [
  ["short_summary", SHORT_SUMMARY_HEADER],
  ["trace_header", TRACEBACK_HEADER],
  ["chain", TRACEBACK_CHAIN],
  ...SUMMARY_PATTERNS.map((pattern) => ["summary", pattern] as const),
  ["section", PYTEST_SECTION],
  ...FAILURE_PATTERNS.map((pattern) => ["failure", pattern] as const),
  ...ERROR_DIAGNOSTICS.map((pattern) => ["diagnostic", pattern] as const),
  ["eslint", ESLINT_ROW],
  ...WARNING_DIAGNOSTICS.map((pattern) => ["warning", pattern] as const),
  ...OTHER_FRAMES.map((pattern) => ["frame", pattern] as const),
  ...ERROR_PATTERNS.map((pattern) => ["error", pattern] as const),
];

/**
 * One test for a list of patterns (without flags and without top-level "|"):
 * the anchored ones joined under a single "^", so a line that matches none
 * is rejected at its first characters, and the others joined apart. Much
 * cheaper per line than testing each pattern in turn.
 */
export function anyOf(patterns: readonly RegExp[]): (text: string) => boolean {
  const anchored = patterns.filter((pattern) => pattern.source.startsWith("^")).map((pattern) => `(?:${pattern.source.slice(1)})`);
  const floating = patterns.filter((pattern) => !pattern.source.startsWith("^")).map((pattern) => `(?:${pattern.source})`);
  const head = anchored.length > 0 ? new RegExp(`^(?:${anchored.join("|")})`) : undefined;
  const rest = floating.length > 0 ? new RegExp(floating.join("|")) : undefined;
  return (text) => (head !== undefined && head.test(text)) || (rest !== undefined && rest.test(text));
}
