#!/usr/bin/env bash
# Make sure the servers the tests need are running on 127.0.0.1, installing
# them from Debian's packages when missing (needs root for that). Idempotent:
# a server whose port already answers is left alone.
#
#   NATS + JetStream  127.0.0.1:4222
#   Redis             127.0.0.1:6379
#   Ceph RGW (S3)     this checkout's own cluster (see start-rgw.sh): 127.0.0.1:7480, or the next
#                     free port from 7481 when another checkout's cluster holds 7480
#
#   scripts/servers/ensure-servers.sh          # all three
#   scripts/servers/ensure-servers.sh rgw      # only some: nats redis rgw
#
# Environment: LOUPE_TEST_SERVERS_TIMEOUT (seconds to wait per server, default 120),
# plus everything start-rgw.sh honours (LOUPE_TEST_RGW_PORT, LOUPE_TEST_RGW_DIR, ...).
# State and logs live in this checkout's folder (test-state.sh), never in one shared by clones.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=test-state.sh
source "$HERE/test-state.sh"
TIMEOUT="${LOUPE_TEST_SERVERS_TIMEOUT:-120}"
RGW_DIR="$LOUPE_TEST_RGW_DIR"
export LOUPE_TEST_RGW_TIMEOUT="${LOUPE_TEST_RGW_TIMEOUT:-$TIMEOUT}"
LOGDIR="${LOUPE_TEST_SERVERS_LOG_DIR:-$LOUPE_TEST_STATE_DIR/log}"
mkdir -p "$LOGDIR"

port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# The S3 port of this checkout's cluster: the one set, else the one its ceph.conf serves, else
# 7480 when free, else the first free port after it (another checkout's cluster holds 7480).
rgw_port() {
  if [[ -n "${LOUPE_TEST_RGW_PORT:-}" ]]; then echo "$LOUPE_TEST_RGW_PORT"; return; fi
  local port
  port="$(grep -Eo 'endpoint=127\.0\.0\.1:[0-9]+' "$RGW_DIR/ceph.conf" 2>/dev/null | cut -d: -f2 || true)"
  if [[ -n "$port" ]]; then echo "$port"; return; fi
  for port in $(seq 7480 7679); do
    if ! port_open "$port"; then echo "$port"; return; fi
  done
  fail "no free port for Ceph RGW in 7480-7679"
}

# Clusters whose checkout is gone (a deleted clone) would hold memory and a port for ever: stop them.
# The folder of versions that kept one cluster for every checkout is one of them.
reap_orphans() {
  local dir checkout why
  for dir in "${TMPDIR:-/tmp}"/loupe-test-* "${TMPDIR:-/tmp}/loupe-rgw"; do
    [[ -d "$dir" ]] || continue
    if [[ -f "$dir/checkout" ]]; then
      checkout="$(cat "$dir/checkout")"
      [[ -d "$checkout" ]] && continue
      LOUPE_TEST_RGW_DIR="$dir/rgw" "$HERE/stop-rgw.sh" --purge >>"$LOGDIR/reap.log" 2>&1 || true
      why="their checkout $checkout is gone"
    elif [[ -f "$dir/ceph.conf" ]]; then
      LOUPE_TEST_RGW_DIR="$dir" "$HERE/stop-rgw.sh" --purge >>"$LOGDIR/reap.log" 2>&1 || true
      why="a folder shared by every checkout, from an earlier version"
    else
      continue
    fi
    rm -rf "$dir"
    echo "rgw:   stopped and removed the test servers in $dir ($why)"
  done
}

fail() { # <message> <log file>...
  local msg="$1"; shift
  echo "ERROR: $msg" >&2
  local f
  for f in "$@"; do
    if [[ -s "$f" ]]; then echo "--- last lines of $f ---" >&2; tail -n 30 "$f" >&2; fi
  done
  exit 1
}

APT_UPDATED=0
# Another apt (an unattended upgrade, a parallel install) may hold dpkg's lock: wait for it rather than fail.
APT_WAIT=(-o DPkg::Lock::Timeout=600)
apt_install() { # <package>...
  if [[ $(id -u) != 0 ]]; then fail "need root to apt-get install $*"; fi
  local log="$LOGDIR/apt.log"
  if ((APT_UPDATED == 0)); then
    # a partly failing update (one unreachable source) must not stop us
    apt-get "${APT_WAIT[@]}" update >>"$log" 2>&1 || echo "warning: apt-get update failed partly (see $log)" >&2
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get "${APT_WAIT[@]}" install -y --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$@" >>"$log" 2>&1 \
    || fail "apt-get install $* failed" "$log"
}

wait_port() { # <name> <port> <log file>...
  local name="$1" port="$2"; shift 2
  local deadline=$((SECONDS + TIMEOUT))
  until port_open "$port"; do
    if ((SECONDS >= deadline)); then fail "$name did not open 127.0.0.1:$port within ${TIMEOUT}s" "$@"; fi
    sleep 0.3
  done
}

ensure_nats() {
  if port_open 4222; then echo "nats:  already running on 127.0.0.1:4222"; return; fi
  if [[ ! -x /usr/sbin/nats-server ]]; then apt_install nats-server; fi
  mkdir -p /var/lib/nats-server
  local t0=$SECONDS
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log \
    || fail "could not start nats-server" /var/log/nats-server.log
  wait_port nats 4222 /var/log/nats-server.log
  echo "nats:  started on 127.0.0.1:4222 (JetStream) in $((SECONDS - t0))s"
}

ensure_redis() {
  if port_open 6379; then echo "redis: already running on 127.0.0.1:6379"; return; fi
  if ! command -v redis-server >/dev/null; then apt_install redis-server; fi
  mkdir -p /var/lib/redis /var/log/redis
  local t0=$SECONDS
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log \
    || fail "could not start redis-server" /var/log/redis/ci.log
  wait_port redis 6379 /var/log/redis/ci.log
  echo "redis: started on 127.0.0.1:6379 in $((SECONDS - t0))s"
}

ensure_rgw() {
  reap_orphans
  RGW_PORT="$(rgw_port)"
  export LOUPE_TEST_RGW_PORT="$RGW_PORT"
  # a cluster of start-rgw.sh's own: let it check mon/osd/radosgw (fast when healthy, rebuilds
  # when the osd or mon died); any other server on the port is left alone
  if port_open "$RGW_PORT" && [[ ! -f "$RGW_DIR/ceph.conf" ]]; then
    echo "rgw:   already running on 127.0.0.1:$RGW_PORT (not managed by start-rgw.sh)"; return
  fi
  local missing=() b
  for b in ceph-mon ceph-osd radosgw radosgw-admin ceph; do
    if ! command -v "$b" >/dev/null; then missing+=("$b"); fi
  done
  if ((${#missing[@]})); then
    local t1=$SECONDS pkgs=(ceph-mon ceph-osd radosgw ceph-common)
    if ! command -v curl >/dev/null; then pkgs+=(curl); fi
    apt_install "${pkgs[@]}"
    echo "rgw:   installed ${pkgs[*]} in $((SECONDS - t1))s"
  elif ! command -v curl >/dev/null; then
    apt_install curl
  fi
  local t0=$SECONDS
  "$HERE/start-rgw.sh" || fail "start-rgw.sh failed (logs in $RGW_DIR/log)"
  echo "rgw:   ready on 127.0.0.1:$RGW_PORT in $((SECONDS - t0))s (S3: ${LOUPE_TEST_RGW_ACCESS_KEY:-loupe-test-access} / ${LOUPE_TEST_RGW_SECRET_KEY:-loupe-test-secret}, us-east-1, path style; $RGW_DIR/s3.env)"
}

which=("$@")
if ((${#which[@]} == 0)); then which=(nats redis rgw); fi
for s in "${which[@]}"; do
  case "$s" in
    nats) ensure_nats ;;
    redis) ensure_redis ;;
    rgw|s3|ceph) ensure_rgw ;;
    *) echo "unknown server: $s (nats redis rgw)" >&2; exit 2 ;;
  esac
done
