// Imported into every test file's process by scripts/run-tests.sh (`--import`), instead of `--test-force-exit`:
// that flag makes Node 20's runner drop a file's last verdicts before the summary counts them (nodejs/node#64833),
// so the summary line undercounted by a varying number of tests. Here a file's process ends by itself once its
// tests are done; only when a handle left open keeps it alive is it ended two seconds later, with the runner's exit
// code (set by then: 1 when a test failed), once stdout has taken what is queued. Half a second lost verdicts of a
// file of 1,000 tests (test/repo/test-runner.test.ts); two seconds kept every one in the runs measured.
import { after } from "node:test";

const GRACE_MS = 2000;

// NODE_TEST_CONTEXT is set in the runner's per-file processes only; the parent process runs no test itself.
if (process.env["NODE_TEST_CONTEXT"] !== undefined) {
  after(() => {
    // Once what is queued on stdout (the verdicts) has been written.
    setTimeout(() => process.stdout.write("", () => process.exit()), GRACE_MS).unref();
  });
}
