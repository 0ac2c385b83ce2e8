#!/usr/bin/env bash
# Runs every test file (unit tests beside the code, test/integration,
# test/e2e) in one `node --test` invocation, so one summary line ends the run.
# Node 20 finds no .ts files by itself: the list is explicit.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=servers/test-state.sh
source scripts/servers/test-state.sh
if [ -f "$LOUPE_TEST_RGW_DIR/s3.env" ]; then
  set -a
  # shellcheck disable=SC1091
  . "$LOUPE_TEST_RGW_DIR/s3.env"
  set +a
fi

mapfile -t files < <(find packages services test -name '*.test.ts' -not -name '*.probe.test.ts' -not -path '*/node_modules/*' -not -path '*/dist/*' | sort)
if [ "${#files[@]}" -eq 0 ]; then
  echo "no test files found" >&2
  exit 1
fi
# One file at a time: end-to-end tests stop and start shared servers (the fail-open test kills radosgw).
# No --test-force-exit (it drops verdicts from the count): exit-after-tests.ts ends a file kept alive by a handle.
exec node --conditions=source --import tsx --import ./test/support/exit-after-tests.ts --test --test-concurrency=1 --test-timeout=300000 "${files[@]}"
