#!/usr/bin/env bash
# Stop the test radosgw started by start-rgw.sh (mon/osd keep running, so
# start-rgw.sh brings radosgw back fast with all buckets/objects intact).
#
#   scripts/servers/stop-rgw.sh            # SIGTERM radosgw (SIGKILL after 10 s)
#   scripts/servers/stop-rgw.sh --kill     # SIGKILL radosgw at once (simulate a crash)
#   scripts/servers/stop-rgw.sh --all      # also stop osd + mon (data is lost: memstore)
#   scripts/servers/stop-rgw.sh --purge    # --all, then delete $LOUPE_TEST_RGW_DIR
#
# Environment: LOUPE_TEST_RGW_DIR (default: this checkout's, see test-state.sh), LOUPE_TEST_RGW_PORT
# (default: the port in its ceph.conf, else 7480).
# The radosgw pid is in $LOUPE_TEST_RGW_DIR/run/radosgw.pid. Returns once the processes are
# really gone (zombies count as gone).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=test-state.sh
source "$HERE/test-state.sh"
DIR="$LOUPE_TEST_RGW_DIR"
DIR="${DIR%/}"
PORT="${LOUPE_TEST_RGW_PORT:-$(grep -Eo 'endpoint=127\.0\.0\.1:[0-9]+' "$DIR/ceph.conf" 2>/dev/null | cut -d: -f2 || true)}"
PORT="${PORT:-7480}"
MODE=rgw SIG=TERM
for a in "$@"; do
  case "$a" in
    --kill|-9|kill) SIG=KILL ;;
    --all|all|--cluster|cluster) MODE=all ;;
    --purge|purge) MODE=purge ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "[stop-rgw] unknown argument: $a" >&2; exit 2 ;;
  esac
done

# shellcheck source=rgw-procs.sh
source "$HERE/rgw-procs.sh"

say() { echo "[stop-rgw] $*" >&2; }

stop() { # <binary> <pidfile> <signal>
  local pids left
  pids="$(dir_pids "$1" "$2")"
  if [[ -z "$pids" ]]; then say "$1: not running"; rm -f "$2"; return 0; fi
  # shellcheck disable=SC2086
  kill -"$3" $pids 2>/dev/null || true
  # shellcheck disable=SC2086
  if ! left="$(wait_gone 10 $pids)"; then
    # shellcheck disable=SC2086
    kill -KILL $left 2>/dev/null || true
    # shellcheck disable=SC2086
    if ! left="$(wait_gone 5 $left)"; then say "WARNING: $1 still alive after SIGKILL: $left"; fi
  fi
  rm -f "$2"
  say "$1: stopped ($(echo $pids))"
}

# one start/stop at a time per dir; a hung start-rgw.sh must not block a stop for long
mkdir -p "$(dirname "$DIR")"
exec 9>"$DIR.lock"
flock -w 30 9 || say "WARNING: $DIR.lock is held by another start/stop; stopping anyway"

stop radosgw "$RUN/radosgw.pid" "$SIG"
if [[ "$MODE" != rgw ]]; then
  # SIGKILL: on SIGTERM memstore first writes its whole RAM store to osd/ (GBs, slow), and
  # start-rgw.sh rebuilds the cluster from scratch anyway
  stop ceph-osd "$RUN/osd.0.pid" KILL
  stop ceph-mon "$RUN/mon.a.pid" "$SIG"
  left="$(kill_dir_daemons 10)" || say "WARNING: still alive after SIGKILL: $left"
fi
if [[ "$MODE" == purge && -f "$CONF" ]]; then
  rm -rf "$DIR" "$DIR.lock"
  say "removed $DIR"
fi
# wait for the port to close (a SIGKILLed process frees it at once; SIGTERM may drain)
for i in $(seq 1 50); do
  if ! port_open "$PORT"; then exit 0; fi
  sleep 0.2
done
say "WARNING: 127.0.0.1:$PORT still answers (another server?)"
