#!/usr/bin/env bash
# Stop the test radosgw started by start-rgw.sh (mon/osd keep running, so
# start-rgw.sh brings radosgw back fast with all buckets/objects intact).
#
#   scripts/servers/stop-rgw.sh            # SIGTERM radosgw (SIGKILL after 10 s)
#   scripts/servers/stop-rgw.sh --kill     # SIGKILL radosgw at once (simulate a crash)
#   scripts/servers/stop-rgw.sh --all      # also stop osd + mon (data is lost: memstore)
#   scripts/servers/stop-rgw.sh --purge    # --all, then delete $LOUPE_TEST_RGW_DIR
#
# Environment: LOUPE_TEST_RGW_DIR (default /tmp/loupe-rgw), LOUPE_TEST_RGW_PORT (default 7480).
# The radosgw pid is in $LOUPE_TEST_RGW_DIR/run/radosgw.pid.
set -euo pipefail

DIR="${LOUPE_TEST_RGW_DIR:-/tmp/loupe-rgw}"
PORT="${LOUPE_TEST_RGW_PORT:-7480}"
CONF="$DIR/ceph.conf"
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

say() { echo "[stop-rgw] $*" >&2; }

# pids of daemons started with this dir's ceph.conf, plus the pid file's pid
pids_of() { # <binary> <pidfile>
  {
    pgrep -f "^(/usr/bin/)?$1 .*-c $CONF( |\$)" || true
    if [[ -s "$2" ]]; then
      local p; p="$(tr -dc 0-9 <"$2")"
      if [[ -n "$p" && "$(cat /proc/"$p"/comm 2>/dev/null)" == "$1"* ]]; then echo "$p"; fi
    fi
  } | sort -u
}

stop() { # <binary> <pidfile> <signal>
  local pids i p alive
  pids="$(pids_of "$1" "$2")"
  if [[ -z "$pids" ]]; then say "$1: not running"; return 0; fi
  kill -"$3" $pids 2>/dev/null || true
  for i in $(seq 1 50); do
    alive=0
    for p in $pids; do if kill -0 "$p" 2>/dev/null; then alive=1; fi; done
    if ((alive == 0)); then break; fi
    sleep 0.2
  done
  if ((alive)); then kill -KILL $pids 2>/dev/null || true; sleep 0.2; fi
  rm -f "$2"
  say "$1: stopped ($(echo $pids))"
}

stop radosgw "$DIR/run/radosgw.pid" "$SIG"
if [[ "$MODE" != rgw ]]; then
  stop ceph-osd "$DIR/run/osd.0.pid" "$SIG"
  stop ceph-mon "$DIR/run/mon.a.pid" "$SIG"
fi
if [[ "$MODE" == purge && -f "$CONF" ]]; then
  rm -rf "$DIR"
  say "removed $DIR"
fi
# wait for the port to close (a SIGKILLed process frees it at once; SIGTERM may drain)
for i in $(seq 1 50); do
  if ! timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT" 2>/dev/null; then exit 0; fi
  sleep 0.2
done
say "WARNING: 127.0.0.1:$PORT still answers (another server?)"
