#!/usr/bin/env bash
# `npm test`: everything on a fresh machine with only Node and npm — pnpm and
# dependencies, the servers the integration tests need (NATS JetStream, Redis,
# Ceph RGW, installed from Debian's packages when missing), the contract checks
# (buf lint, generated code up to date), typecheck, lint, then all tests.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh
bash scripts/servers/ensure-servers.sh
bash scripts/install-tools.sh
bash scripts/check-generated.sh
pnpm exec tsc -b
pnpm exec tsc -p test
pnpm exec eslint . --max-warnings=0
bash scripts/run-tests.sh
