#!/usr/bin/env bash
# Installs, from Debian's packages when missing, the tools some tests run for real:
#   docker-compose      validates docker-compose.yml without a daemon
#   kubectl             renders deploy/k8s offline (`kubectl kustomize`; Debian: kubernetes-client)
#   pytest              real test-runner output for the command projector (Debian: python3-pytest)
#   chromium            the console's browser test (test/browser, driven by playwright-core; no browser download)
# A tool that cannot be installed makes its test skip with the reason (the log says why).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=servers/test-state.sh
source "$HERE/servers/test-state.sh"
LOG="$LOUPE_TEST_STATE_DIR/install-tools.log"
APT_UPDATED=0
# Another apt (an unattended upgrade, a parallel install) may hold dpkg's lock: wait for it rather than fail.
APT_WAIT=(-o DPkg::Lock::Timeout=600)

apt_install() { # <package> <what it gives>
  command -v apt-get >/dev/null 2>&1 || return 0
  echo "install-tools: installing $1 ($2)"
  if DEBIAN_FRONTEND=noninteractive apt-get "${APT_WAIT[@]}" install -y --no-install-recommends "$1" >>"$LOG" 2>&1; then return 0; fi
  if ((APT_UPDATED == 0)); then
    apt-get "${APT_WAIT[@]}" update >>"$LOG" 2>&1 || true
    APT_UPDATED=1
    if DEBIAN_FRONTEND=noninteractive apt-get "${APT_WAIT[@]}" install -y --no-install-recommends "$1" >>"$LOG" 2>&1; then return 0; fi
  fi
  echo "install-tools: $1 could not be installed; the tests that need $2 will skip (see $LOG)" >&2
}

has_pytest() {
  python3 -m pytest --version >/dev/null 2>&1 || { [[ -x /usr/bin/python3 ]] && /usr/bin/python3 -m pytest --version >/dev/null 2>&1; }
}

command -v docker-compose >/dev/null 2>&1 || apt_install docker-compose "docker-compose"
command -v kubectl >/dev/null 2>&1 || apt_install kubernetes-client "kubectl"
has_pytest || apt_install python3-pytest "pytest"
command -v openssl >/dev/null 2>&1 || apt_install openssl "openssl (the TLS test makes its certificate with it)"
[[ -x /usr/bin/chromium ]] || apt_install chromium "chromium (the console's browser test)"
