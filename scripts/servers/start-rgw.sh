#!/usr/bin/env bash
# Start a single-node Ceph cluster (1 mon, 1 memstore OSD, no mgr) plus radosgw
# on 127.0.0.1, for tests. All state lives under $LOUPE_TEST_RGW_DIR.
#
#   scripts/servers/start-rgw.sh
#
# Reliable from any state (one run at a time per dir: flock on $LOUPE_TEST_RGW_DIR.lock):
# - our radosgw answers, mon + osd alive   -> nothing to do.
# - mon + osd of this dir alive and up     -> restart radosgw only (fast path, < 1 s,
#                                             buckets/objects are kept).
# - anything else (osd or mon dead, ...)   -> SIGKILL every daemon of this dir, wait until
#                                             they are gone, wipe the dir, build a fresh
#                                             cluster (~3 s, data lost). The previous
#                                             logs are kept in log/previous/.
# 127.0.0.1:$PORT served by a process that is not this dir's radosgw -> error.
#
# Environment:
#   LOUPE_TEST_RGW_DIR           scratch dir (default: this checkout's, see test-state.sh)
#   LOUPE_TEST_RGW_PORT          S3 port (default 7480)
#   LOUPE_TEST_RGW_MON_PORT      preferred mon port (default 6789; next free one is used if taken)
#   LOUPE_TEST_RGW_STORE_BYTES   memstore size in bytes (default 6 GiB, RAM, lost on OSD restart;
#                                only used when the cluster is (re)built)
#   LOUPE_TEST_RGW_LC_INTERVAL   rgw_lc_debug_interval: seconds per lifecycle "day" (default 10)
#   LOUPE_TEST_RGW_TIMEOUT       seconds to wait for each daemon (default 120)
#   LOUPE_TEST_RGW_ACCESS_KEY / LOUPE_TEST_RGW_SECRET_KEY  S3 credentials
#                                (default loupe-test-access / loupe-test-secret)
# Writes $LOUPE_TEST_RGW_DIR/s3.env (LOUPE_TEST_S3_ENDPOINT/REGION/ACCESS_KEY/SECRET_KEY/
# FORCE_PATH_STYLE); pids in run/{mon.a,osd.0,radosgw}.pid; logs in log/ (setup.log says
# why a cluster was rebuilt).
# Deleted objects are garbage-collected after ~60-120 s (rgw gc obj min wait = 60).
# Needs: ceph-mon ceph-osd radosgw ceph-common (ensure-servers.sh installs them).
#
# Ceph 16 clients on msgr v1 may send their first mon command before they have the
# monmap, with fsid 0 (the mon answers EPERM "wrong fsid"). ceph-osd is therefore started
# with --no-mon-config (its monmap then takes the fsid from ceph.conf) and without the
# start-up device-class command; ceph CLI calls are retried.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=test-state.sh
source "$HERE/test-state.sh"
DIR="$LOUPE_TEST_RGW_DIR"
DIR="${DIR%/}"
PORT="${LOUPE_TEST_RGW_PORT:-$(grep -Eo 'endpoint=127\.0\.0\.1:[0-9]+' "$DIR/ceph.conf" 2>/dev/null | cut -d: -f2 || true)}"
PORT="${PORT:-7480}"
MON_PORT_WANTED="${LOUPE_TEST_RGW_MON_PORT:-6789}"
STORE_BYTES="${LOUPE_TEST_RGW_STORE_BYTES:-6442450944}"
LC_INTERVAL="${LOUPE_TEST_RGW_LC_INTERVAL:-10}"
TIMEOUT="${LOUPE_TEST_RGW_TIMEOUT:-120}"
ACCESS_KEY="${LOUPE_TEST_RGW_ACCESS_KEY:-loupe-test-access}"
SECRET_KEY="${LOUPE_TEST_RGW_SECRET_KEY:-loupe-test-secret}"
S3_UID=loupe
RGW_NAME=client.rgw.loupe
FAST_RGW_TIMEOUT=30 # fast path: radosgw not answering by then -> rebuild instead

# shellcheck source=rgw-procs.sh
source "$HERE/rgw-procs.sh"

say() { echo "[start-rgw] $*" >&2; }
die() {
  say "ERROR: $*"
  for f in "$LOG"/setup.log "$LOG"/mon.a.log "$LOG"/osd.0.log "$LOG"/radosgw.log; do
    if [[ -s "$f" ]]; then say "--- last lines of $f ---"; tail -n 25 "$f" >&2; fi
  done
  exit 1
}
note() { [[ -d "$LOG" ]] && echo "== $(date -Is) $*" >>"$LOG/setup.log"; return 0; }

rgw_answers() { curl -fsS -m 2 -o /dev/null "http://127.0.0.1:$PORT/" 2>/dev/null; }

wait_until() { # <seconds> <command...>: poll every 0.1 s; false on timeout
  local deadline=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

# run a command, output to setup.log; die on failure
run() {
  echo "+ $*" >>"$LOG/setup.log"
  "$@" </dev/null >>"$LOG/setup.log" 2>&1 9>&- || die "failed: $*"
}

# start a daemon (it forks itself, calls setsid and closes its stdio once it is up): no stdin,
# output to setup.log, and without the lock's fd, which would otherwise stay held by the daemon
start_daemon() {
  echo "+ $*" >>"$LOG/setup.log"
  "$@" </dev/null >>"$LOG/setup.log" 2>&1 9>&-
}

# ceph CLI call, retried (see the header); stdout is the command's output
ceph_try() { # <attempts> <seconds per attempt> <ceph args...>
  local n="$1" t="$2" i
  shift 2
  for ((i = 1; i <= n; i++)); do
    echo "+ ceph $*" >>"$LOG/setup.log"
    if timeout "$t" ceph -c "$CONF" --connect-timeout "$t" "$@" </dev/null 2>>"$LOG/setup.log" 9>&-; then
      return 0
    fi
    sleep 0.3
  done
  return 1
}
ceph_cmd() { ceph_try 5 60 "$@"; }

osd_up() { # [attempts] [seconds per attempt]
  ceph_try "${1:-5}" "${2:-60}" osd stat | grep -Eq '(^|[^0-9])1 up'
}

# mon and osd processes of this dir alive (no cluster round trip); sets WHY when not
daemons_alive() {
  WHY=""
  if [[ ! -f "$CONF" ]]; then WHY="no $CONF"
  elif ! grep -Eq "^rgw frontends = .*endpoint=127\.0\.0\.1:$PORT( |\$)" "$CONF"; then
    WHY="$CONF serves another port"
  elif [[ -z "$(pidfile_pid "$RUN/mon.a.pid" ceph-mon)" ]]; then WHY="ceph-mon is not running"
  elif [[ -z "$(pidfile_pid "$RUN/osd.0.pid" ceph-osd)" ]]; then WHY="ceph-osd is not running"
  fi
  [[ -z "$WHY" ]]
}

start_rgw() { # <seconds to wait for it>
  local old
  old="$(dir_pids radosgw "$RUN/radosgw.pid")"
  if [[ -n "$old" ]]; then
    # shellcheck disable=SC2086
    kill -KILL $old 2>/dev/null || true
    # shellcheck disable=SC2086
    wait_gone 10 $old >/dev/null || die "old radosgw ($old) did not exit"
  fi
  rm -f "$RUN/radosgw.pid"
  start_daemon radosgw -c "$CONF" -n "$RGW_NAME" && wait_until "$1" rgw_answers
}

ensure_user() {
  local i
  for i in 1 2 3; do
    if timeout 60 radosgw-admin -c "$CONF" user info --uid "$S3_UID" </dev/null >/dev/null 2>>"$LOG/setup.log" 9>&-; then
      return 0
    fi
    echo "+ radosgw-admin user create --uid $S3_UID" >>"$LOG/setup.log"
    if timeout 60 radosgw-admin -c "$CONF" user create --uid "$S3_UID" --display-name "$S3_UID" \
      --access-key "$ACCESS_KEY" --secret "$SECRET_KEY" </dev/null >>"$LOG/setup.log" 2>&1 9>&-; then
      return 0
    fi
    sleep 0.5
  done
  die "could not create the S3 user '$S3_UID'"
}

write_env() {
  cat >"$DIR/s3.env" <<ENV
LOUPE_TEST_S3_ENDPOINT=http://127.0.0.1:$PORT
LOUPE_TEST_S3_REGION=us-east-1
LOUPE_TEST_S3_ACCESS_KEY=$ACCESS_KEY
LOUPE_TEST_S3_SECRET_KEY=$SECRET_KEY
LOUPE_TEST_S3_FORCE_PATH_STYLE=true
ENV
}

command -v radosgw >/dev/null && command -v ceph-mon >/dev/null && command -v ceph-osd >/dev/null \
  && command -v ceph >/dev/null && command -v radosgw-admin >/dev/null \
  || { say "ERROR: ceph binaries missing (apt-get install ceph-mon ceph-osd radosgw ceph-common)"; exit 1; }

mkdir -p "$(dirname "$DIR")"
exec 9>"$DIR.lock"
flock -w 300 9 || { say "ERROR: another start-rgw.sh/stop-rgw.sh holds $DIR.lock for 300 s"; exit 1; }

# ---- port taken? ours and healthy -> done; someone else's -> error ------------
if port_open "$PORT"; then
  owner="$(port_pid "$PORT")"
  ours="$(dir_pids radosgw "$RUN/radosgw.pid")"
  if [[ -n "$owner" ]] && ! grep -qx "$owner" <<<"$ours"; then
    die "127.0.0.1:$PORT is served by pid $owner ($(proc_cmdline "$owner")), not by the radosgw of $DIR;" \
      "stop it or set LOUPE_TEST_RGW_PORT"
  fi
  if [[ -z "$owner" && -z "$ours" ]]; then
    if rgw_answers; then say "127.0.0.1:$PORT answers (owner unknown: ss missing); assuming it is ours"; exit 0; fi
    die "127.0.0.1:$PORT is taken by something that is not answering HTTP"
  fi
  if daemons_alive && rgw_answers; then
    say "radosgw already answering on 127.0.0.1:$PORT"
    exit 0
  fi
  [[ -n "$WHY" ]] || WHY="radosgw holds the port but does not answer"
  note "radosgw on $PORT is ours but: $WHY"
fi

# ---- fast path: cluster still up, only radosgw gone -------------------------
if daemons_alive; then
  t0=$SECONDS
  if osd_up 3 10; then
    note "fast path: restarting radosgw (mon + osd alive)"
    if start_rgw "$FAST_RGW_TIMEOUT"; then
      ensure_user
      write_env
      say "radosgw restarted on 127.0.0.1:$PORT (cluster kept) in $((SECONDS - t0))s"
      exit 0
    fi
    WHY="radosgw did not answer within ${FAST_RGW_TIMEOUT}s"
  else
    WHY="mon does not answer or osd.0 is not up"
  fi
fi

# ---- full setup --------------------------------------------------------------
t0=$SECONDS
if [[ -f "$CONF" ]]; then
  say "rebuilding the cluster in $DIR (${WHY:-}); its buckets and objects are lost"
else
  say "building a fresh cluster in $DIR"
fi
if [[ -d "$DIR" ]]; then
  # the dir is ours only if it looks like one of ours (never rm -rf a random dir)
  [[ -f "$CONF" || -z "$(ls -A "$DIR")" ]] \
    || die "$DIR exists and is not a loupe rgw dir; remove it or set LOUPE_TEST_RGW_DIR"
  note "full rebuild: ${WHY:-}"
fi
# every daemon of this dir must be gone before the wipe (memstore: SIGKILL loses nothing we keep)
left="$(kill_dir_daemons 10)" || die "processes of $DIR still alive 10 s after SIGKILL: $left"
prev=""
if [[ -d "$LOG" ]]; then
  rm -rf "$LOG/previous"
  prev="$(mktemp -d "$DIR.prev-log.XXXXXX")"
  mv "$LOG" "$prev/log"
fi
rm -rf "$DIR"
mkdir -p "$RUN" "$LOG" "$DIR/mon/ceph-a" "$DIR/osd/ceph-0" "$DIR/rgw"
if [[ -n "$prev" ]]; then mv "$prev/log" "$LOG/previous"; rmdir "$prev"; fi

MON_PORT="$MON_PORT_WANTED"
while port_open "$MON_PORT"; do
  MON_PORT=$((MON_PORT + 1))
  ((MON_PORT < MON_PORT_WANTED + 100)) || die "no free mon port near $MON_PORT_WANTED"
done

FSID="$(cat /proc/sys/kernel/random/uuid)"
OSD_UUID="$(cat /proc/sys/kernel/random/uuid)"

cat >"$CONF" <<CONF
# generated by scripts/servers/start-rgw.sh — test-only single-node cluster
[global]
fsid = $FSID
mon host = v1:127.0.0.1:$MON_PORT
mon initial members = a
public addr = 127.0.0.1
ms bind ipv6 = false
ms bind msgr2 = false
auth cluster required = none
auth service required = none
auth client required = none
keyring = $DIR/keyring
run dir = $RUN
admin socket = $RUN/\$name.asok
log file = $LOG/\$name.log
crash dir = $DIR/crash
log to stderr = false
err to stderr = true
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon warn on insecure global id reclaim allowed = false
mon data avail warn = 2
mon data avail crit = 1
osd crush chooseleaf type = 0
# one OSD, no peers: never mark it out, and do not mark it down for missed beacons
# (a paused VM would otherwise trip the 15 min default)
mon osd down out interval = 0
mon warn on osd down out interval zero = false
mon osd report timeout = 86400
# batch map updates for 0.1 s instead of 1 s: setup 14 s -> 3 s, first write (pool creation) 4.5 s -> 0.5 s
paxos propose interval = 0.1

[mon]
mon data = $DIR/mon/ceph-\$id
pid file = $RUN/mon.\$id.pid

[osd]
osd data = $DIR/osd/ceph-\$id
pid file = $RUN/osd.\$id.pid
osd objectstore = memstore
memstore device bytes = $STORE_BYTES
osd crush update on start = false
osd class update on start = false
# no self-abort when a thread looks stuck (a paused VM makes every thread look stuck)
osd op thread suicide timeout = 0
osd command thread suicide timeout = 0
osd max markdown count = 1000

[$RGW_NAME]
pid file = $RUN/radosgw.pid
log file = $LOG/radosgw.log
rgw data = $DIR/rgw
rgw frontends = beast endpoint=127.0.0.1:$PORT tcp_nodelay=1
rgw lc debug interval = $LC_INTERVAL
# deleted/overwritten data goes to GC; default waits 2 h, which fills the RAM store across runs
rgw gc obj min wait = 60
rgw gc processor period = 60
CONF
: >"$DIR/keyring"

note "full setup: fsid $FSID mon port $MON_PORT rgw port $PORT store $STORE_BYTES bytes"
run monmaptool --create --fsid "$FSID" --add a "v1:127.0.0.1:$MON_PORT" "$DIR/monmap"
run ceph-mon -c "$CONF" -i a --mkfs --monmap "$DIR/monmap"
start_daemon ceph-mon -c "$CONF" -i a || die "ceph-mon did not start"
wait_until "$TIMEOUT" ceph_try 1 30 mon stat || die "ceph-mon on 127.0.0.1:$MON_PORT did not answer within ${TIMEOUT}s"

OSD_ID="$(ceph_cmd osd create "$OSD_UUID")" || die "ceph osd create failed"
[[ "$OSD_ID" == 0 ]] || die "unexpected osd id '$OSD_ID'"
run ceph-osd -c "$CONF" -i 0 --mkfs --osd-uuid "$OSD_UUID" --no-mon-config
ceph_cmd osd crush add-bucket node0 host >>"$LOG/setup.log" || die "ceph osd crush add-bucket failed"
ceph_cmd osd crush move node0 root=default >>"$LOG/setup.log" || die "ceph osd crush move failed"
ceph_cmd osd crush add osd.0 1.0 host=node0 >>"$LOG/setup.log" || die "ceph osd crush add failed"

# memstore saved the mkfs result to files in osd/ceph-0 (it loads them at mount)
if ! start_daemon ceph-osd -c "$CONF" -i 0 --no-mon-config; then
  note "ceph-osd failed to start; retrying once"
  sleep 1
  start_daemon ceph-osd -c "$CONF" -i 0 --no-mon-config || die "ceph-osd did not start"
fi
wait_until "$TIMEOUT" osd_up 1 30 || die "ceph-osd did not come up within ${TIMEOUT}s"

start_rgw "$TIMEOUT" || die "radosgw on 127.0.0.1:$PORT did not answer within ${TIMEOUT}s"
ensure_user
write_env
say "ceph cluster + radosgw started on 127.0.0.1:$PORT (mon $MON_PORT, dir $DIR) in $((SECONDS - t0))s"
