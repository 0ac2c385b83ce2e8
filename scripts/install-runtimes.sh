#!/usr/bin/env bash
# Installs the pinned agent runtimes that test/runtimes drives, each into its own
# folder outside the checkout:
#   ${LOUPE_RUNTIMES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loupe-runtimes}/<name>@<version>
# A runtime already installed there is skipped (a run with everything cached takes
# about a second). A runtime that cannot be installed gets one line with the reason;
# the script goes on and exits 0, and that runtime's probe test skips.
# Prints where each runtime's binary is. Also installs Debian's ripgrep when `rg` is missing:
# OpenCode's grep tool answers "ripgrep execution failed" without it (it would download rg
# from GitHub), and Gemini CLI falls back to a slower grep.
set -uo pipefail

CACHE="${LOUPE_RUNTIMES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loupe-runtimes}"

# name@version  binary (under node_modules/.bin)
RUNTIMES=(
  "@anthropic-ai/claude-code@2.1.328 claude"
  "@openai/codex@0.169.0 codex"
  "@google/gemini-cli@0.61.0 gemini"
  "opencode-ai@1.18.33 opencode"
)

install_one() { # <spec> <binary>
  local spec="$1" bin="$2" dir log
  dir="$CACHE/$spec"
  if [ -f "$dir/.installed" ] && [ -x "$dir/node_modules/.bin/$bin" ]; then
    echo "install-runtimes: $spec: $dir/node_modules/.bin/$bin (cached)"
    return 0
  fi
  if ! mkdir -p "$dir" 2>/dev/null; then
    echo "install-runtimes: $spec: not installed: cannot create $dir"
    return 0
  fi
  log="$dir/install.log"
  if ! npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "$spec" >"$log" 2>&1; then
    echo "install-runtimes: $spec: not installed: npm failed: $(grep -m1 -iE 'err|error' "$log" | cut -c1-200) (see $log)"
    return 0
  fi
  if [ ! -x "$dir/node_modules/.bin/$bin" ]; then
    echo "install-runtimes: $spec: not installed: no $bin binary in $dir/node_modules/.bin (see $log)"
    return 0
  fi
  date -u +%FT%TZ >"$dir/.installed"
  echo "install-runtimes: $spec: $dir/node_modules/.bin/$bin"
}

if ! command -v npm >/dev/null 2>&1; then
  echo "install-runtimes: npm not found; no runtime installed"
  exit 0
fi
if ! command -v rg >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends ripgrep >/dev/null 2>&1; then
    echo "install-runtimes: ripgrep: $(command -v rg)"
  else
    echo "install-runtimes: ripgrep: not installed (apt-get failed); OpenCode's grep tool will fail"
  fi
fi
for entry in "${RUNTIMES[@]}"; do
  # shellcheck disable=SC2086
  install_one $entry
done
exit 0
