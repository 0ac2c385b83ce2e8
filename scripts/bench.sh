#!/usr/bin/env bash
# `pnpm bench`: the benchmarks in test/bench (not part of the test suite). Each
# prints ratios measured side by side in one run against a baseline. The
# distributed targets need the servers the tests use (NATS JetStream, Redis, Ceph
# RGW): started here as `npm test` starts them, installed when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
# shellcheck source=servers/test-state.sh
source scripts/servers/test-state.sh
bash scripts/servers/ensure-servers.sh
mapfile -t benches < <(find test/bench -name '*.bench.ts' 2>/dev/null | sort)
if [ "${#benches[@]}" -eq 0 ]; then
  echo "no benchmarks in test/bench yet"
  exit 0
fi
for bench in "${benches[@]}"; do
  echo "== $bench"
  node --conditions=source --import tsx "$bench"
done
