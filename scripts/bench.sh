#!/usr/bin/env bash
# `pnpm bench`: benchmarks in test/bench (not part of the test suite).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
mapfile -t benches < <(find test/bench -name '*.bench.ts' | sort)
for bench in "${benches[@]}"; do
  echo "== $bench"
  node --conditions=source --import tsx "$bench"
done
