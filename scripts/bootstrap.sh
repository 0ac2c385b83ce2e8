#!/usr/bin/env bash
# Installs what Loupe needs on a machine that has only Node and npm:
# pnpm (the version package.json pins) and the workspace's dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION="12.21.0"
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "bootstrap: installing pnpm@$PNPM_VERSION"
  npm install --global --no-fund --no-audit "pnpm@$PNPM_VERSION" >/dev/null
fi
pnpm install --frozen-lockfile --reporter=silent
