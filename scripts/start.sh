#!/usr/bin/env bash
# `npm start` / `pnpm start`: set up (first run only takes longer), build, and
# run Loupe embedded: gateway, archive and note-worker in one process, data
# under LOUPE_DATA_DIR (default ./.loupe). Extra arguments go to `loupe`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
pnpm exec tsc -b
exec node services/loupe/dist/main.js "${@:-serve}"
