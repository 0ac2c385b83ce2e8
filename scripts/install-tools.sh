#!/usr/bin/env bash
# Installs the offline validators the deploy test uses, from Debian's packages,
# when missing: docker-compose (validates docker-compose.yml without a daemon).
# kubectl is used when the machine has it.
set -euo pipefail
if ! command -v docker-compose >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  echo "install-tools: installing docker-compose"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends docker-compose >/tmp/loupe-install-tools.log 2>&1; then
    apt-get update >>/tmp/loupe-install-tools.log 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends docker-compose >>/tmp/loupe-install-tools.log 2>&1 \
      || echo "install-tools: docker-compose could not be installed; the compose validation will be skipped (see /tmp/loupe-install-tools.log)" >&2
  fi
fi
