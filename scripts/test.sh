#!/usr/bin/env bash
# `npm test`: everything on a fresh machine with only Node and npm — pnpm and
# dependencies, the servers the integration tests need (NATS JetStream, Redis,
# Ceph RGW, installed from Debian's packages when missing), the tools some tests
# run (docker-compose, kubectl, pytest), the agent runtimes test/runtimes drives
# (Claude Code, Codex, Gemini CLI, OpenCode), the contract checks (buf lint,
# generated code up to date), then typecheck, lint and all tests.
#
# The typecheck, lint and tests run in a copy of this checkout in a new temporary
# folder (what a fresh clone holds, uncommitted changes included), so nothing in
# the suite can depend on where the checkout lives; the copy is removed afterwards
# (LOUPE_TEST_KEEP_COPY=1 keeps it). LOUPE_TEST_IN_PLACE=1 runs them here instead.
set -euo pipefail
cd "$(dirname "$0")/.."
origin="$(pwd -P)"

bash scripts/bootstrap.sh
# shellcheck source=servers/test-state.sh
source scripts/servers/test-state.sh
bash scripts/servers/ensure-servers.sh
bash scripts/install-tools.sh
# The agent runtimes test/runtimes drives (cached under ~/.cache; a runtime that cannot be installed skips its tests).
bash scripts/install-runtimes.sh
bash scripts/check-generated.sh

check_and_run() {
  pnpm exec tsc -b
  pnpm exec tsc -p test
  pnpm exec eslint . --max-warnings=0
  pnpm exec prettier --check "**/*.{ts,mjs}"
  bash scripts/run-tests.sh
}

if [[ "${LOUPE_TEST_IN_PLACE:-0}" == 1 ]]; then
  check_and_run
  exit 0
fi

copy="$(mktemp -d "${TMPDIR:-/tmp}/loupe-checkout-XXXXXX")"
cleanup() {
  if [[ "${LOUPE_TEST_KEEP_COPY:-0}" == 1 ]]; then echo "test: the copy is kept in $copy"; else rm -rf "$copy"; fi
}
trap cleanup EXIT
bash scripts/copy-checkout.sh "$copy"
echo "test: running the suite from a copy of this checkout in $copy"
# The suite checks that no file holds the path of the checkout it was copied from.
export LOUPE_TEST_ORIGIN_CHECKOUT="$origin"
# Suites over recorded trajectories find them beside the checkout; the copy has nothing beside it.
if [[ -z "${LOUPE_CORPUS_DIR:-}" && -d "$origin/../shared/corpus" ]]; then
  LOUPE_CORPUS_DIR="$(cd "$origin/../shared/corpus" && pwd -P)"
  export LOUPE_CORPUS_DIR
fi
cd "$copy"
bash scripts/bootstrap.sh
check_and_run
