#!/usr/bin/env bash
# `pnpm chaos [seconds per phase]`: the fault run (test/chaos/run-chaos.ts) against this checkout's
# test servers (Ceph RGW; NATS and Redis of its own on ports of its own). Installs and starts what is
# missing first, as `npm test` does.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
# shellcheck source=servers/test-state.sh
source scripts/servers/test-state.sh
bash scripts/servers/ensure-servers.sh
set -a
# shellcheck disable=SC1091
. "$LOUPE_TEST_RGW_DIR/s3.env"
set +a
exec node --conditions=source --import tsx test/chaos/chaos-cli.ts "$@"
