#!/usr/bin/env bash
# Fails when the committed generated code differs from what the protos give.
set -euo pipefail
cd "$(dirname "$0")/.."
pnpm exec buf lint proto
pnpm exec buf generate >/dev/null
node scripts/proto-index.mjs
if ! git diff --quiet -- packages/proto || [ -n "$(git status --porcelain --untracked-files=all -- packages/proto/src)" ]; then
  echo "generated code is out of date: run 'pnpm generate' and commit packages/proto" >&2
  git status --short -- packages/proto >&2
  git --no-pager diff --stat -- packages/proto >&2
  exit 1
fi
echo "generated code matches proto/"
