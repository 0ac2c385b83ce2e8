/**
 * What the real-runtime suite has each runtime do, with oracles computed here (independently of
 * Loupe): a long log, a failing unittest run, a long file to read and search, a tracker's JSON.
 */
import { longFile, unittestFile } from "./probe-fixtures.js";

export { LONG_OUTPUT_COMMAND, LONG_OUTPUT_LINES, longOutputLine, longFile, LONG_FILE_LINES } from "./probe-fixtures.js";

/** Line `n` (1-based) of `longFile()`. */
export function fileLine(n: number): string {
  return `const value_${String(n).padStart(4, "0")} = compute(${String(n)}, "long file line ${String(n)}");`;
}

/** The long file's text, once. */
export const LONG_FILE = longFile();

/** Tests in {@link SUITE_TEST_FILE}, and which of them fail. */
export const SUITE_TESTS = { total: 600, failing: [7, 230, 512] } as const;

/** The failing tests' names, as unittest prints them. */
export const FAILING_TEST_NAMES: readonly string[] = SUITE_TESTS.failing.map((n) => `test_double_${String(n).padStart(3, "0")}`);

/**
 * A Python unittest file with 600 tests of which 3 fail, so `python3 -m unittest -v` prints about
 * 40 KB (one line a test, then the three failures with tracebacks and the summary) and exits 1.
 * Long enough that every runtime and Loupe must shorten it.
 */
export const SUITE_TEST_FILE = unittestFile(SUITE_TESTS);

/** Runs {@link SUITE_TEST_FILE} (written as `test_numbers.py`); exits 1. */
export const SUITE_FAILING_COMMAND = "python3 -m unittest -v test_numbers.py";

/** The summary line of the failing run. */
export const FAILING_SUMMARY = `FAILED (failures=${String(SUITE_TESTS.failing.length)})`;

/** A pattern matching every line of `longFile()` whose number ends in 7 (300 lines). */
export const GREP_PATTERN = "compute\\([0-9]*7,";

/** The working files of every run: the failing test file and the long file. */
export const SUITE_WORK_FILES: Readonly<Record<string, string>> = { "test_numbers.py": SUITE_TEST_FILE, "big.txt": LONG_FILE };

/** A shell command printing `count` short lines (`1` … `count`): long in lines, short in bytes. */
export const seqCommand = (count: number): string => `seq 1 ${String(count)}`;
