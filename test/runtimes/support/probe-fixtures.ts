/** Lines printed by {@link LONG_OUTPUT_COMMAND}. */
export const LONG_OUTPUT_LINES = 5_000;

/**
 * A shell command printing 5,000 long lines (about 118 bytes each, ~590 KB): line n is
 * `NNNNN INFO worker-XX processed batch YYYYYY …padding… end-of-line-NNNNN`, so a probe can tell
 * exactly which lines a runtime kept.
 */
export const LONG_OUTPUT_COMMAND =
  `awk 'BEGIN { for (i = 1; i <= ${String(LONG_OUTPUT_LINES)}; i++) ` +
  `printf "%05d INFO worker-%02d processed batch %06d with a long tail of ordinary log text to make the line long end-of-line-%05d\\n", i, i % 13, (i * 7919) % 100000, i }'`;

/** The line {@link LONG_OUTPUT_COMMAND} prints as line `n` (1-based). */
export function longOutputLine(n: number): string {
  const pad = (value: number, width: number): string => String(value).padStart(width, "0");
  return `${pad(n, 5)} INFO worker-${pad(n % 13, 2)} processed batch ${pad((n * 7919) % 100_000, 6)} with a long tail of ordinary log text to make the line long end-of-line-${pad(n, 5)}`;
}

/** Tests in {@link FAILING_TEST_FILE}, and which of them fail. */
export const FAILING_TESTS = { total: 60, failing: [7, 23, 51] } as const;

/**
 * A Python unittest file with 60 tests of which 3 fail (assertion errors with tracebacks), so
 * `python3 -m unittest -v test_numbers.py` prints a long log and exits 1 with `FAILED (failures=3)`.
 */
export const FAILING_TEST_FILE = unittestFile(FAILING_TESTS);

/**
 * A Python unittest file of `total` tests (`test_double_01` …, numbered to the width of `total`), of which
 * those in `failing` fail with an assertion error naming their number.
 */
export function unittestFile(tests: { readonly total: number; readonly failing: readonly number[] }): string {
  const width = String(tests.total).length;
  return [
    "import unittest",
    "",
    "",
    "class NumbersTest(unittest.TestCase):",
    "    pass",
    "",
    "",
    "def make(n):",
    "    def test(self):",
    `        expected = n * 2 if n not in (${tests.failing.join(", ")}) else n * 2 + 1`,
    "        self.assertEqual(n + n, expected, f'doubling {n} went wrong')",
    "    return test",
    "",
    "",
    `for n in range(1, ${String(tests.total + 1)}):`,
    `    setattr(NumbersTest, f'test_double_{n:0${String(width)}d}', make(n))`,
    "",
    "",
    "if __name__ == '__main__':",
    "    unittest.main()",
    "",
  ].join("\n");
}

/** The command that runs {@link FAILING_TEST_FILE} (written as `test_numbers.py`) and fails. */
export const FAILING_COMMAND = "python3 -m unittest -v test_numbers.py";

/** Lines in {@link longFile}. */
export const LONG_FILE_LINES = 3_000;

/** A source-like file of 3,000 numbered lines (~70 bytes each), for the runtimes' read tools. */
export function longFile(): string {
  const lines = Array.from(
    { length: LONG_FILE_LINES },
    (_, index) => `const value_${String(index + 1).padStart(4, "0")} = compute(${String(index + 1)}, "long file line ${String(index + 1)}");`,
  );
  return `${lines.join("\n")}\n`;
}
