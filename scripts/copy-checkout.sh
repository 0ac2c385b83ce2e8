#!/usr/bin/env bash
# Copies this checkout as a fresh clone would have it — tracked files plus files not yet
# committed, nothing that git ignores (node_modules, dist, .loupe, …) — into a new folder, and
# makes that folder a git repository of its own (one commit of everything copied).
#
#   scripts/copy-checkout.sh DEST        # DEST must not exist or be empty
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:?usage: copy-checkout.sh DEST}"
mkdir -p "$dest"
if [[ -n "$(ls -A "$dest")" ]]; then echo "copy-checkout: $dest is not empty" >&2; exit 2; fi

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Deleted-but-not-yet-committed files are listed by ls-files yet gone: skip them.
  git ls-files -z --cached --others --exclude-standard \
    | while IFS= read -r -d '' file; do [[ -e "$file" || -L "$file" ]] && printf '%s\0' "$file"; done \
    | tar --null --files-from=- -cf - | tar -xf - -C "$dest"
else
  tar --exclude=./node_modules --exclude='*/node_modules' --exclude='*/dist' --exclude=./.git \
    --exclude=./.loupe --exclude='*.tsbuildinfo' -cf - . | tar -xf - -C "$dest"
fi

if command -v git >/dev/null 2>&1; then
  (
    cd "$dest"
    git init -q
    git add -A
    git -c user.name=loupe -c user.email=loupe@localhost -c commit.gpgsign=false commit -qm "copy of the checkout under test"
  )
fi
