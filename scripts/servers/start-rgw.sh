#!/usr/bin/env bash
# Start a single-node Ceph cluster (1 mon, 1 memstore OSD, no mgr) plus radosgw
# on 127.0.0.1, for tests. All state lives under $LOUPE_TEST_RGW_DIR.
#
#   scripts/servers/start-rgw.sh
#
# - RGW port already answers            -> nothing to do.
# - mon + osd of this dir still running -> restart radosgw only (fast path,
#                                          buckets/objects are kept).
# - otherwise                           -> wipe the dir, build a fresh cluster.
#
# Environment:
#   LOUPE_TEST_RGW_DIR           scratch dir (default /tmp/loupe-rgw)
#   LOUPE_TEST_RGW_PORT          S3 port (default 7480)
#   LOUPE_TEST_RGW_MON_PORT      preferred mon port (default 6789; next free one is used if taken)
#   LOUPE_TEST_RGW_STORE_BYTES   memstore size in bytes (default 6 GiB, RAM, lost on OSD restart)
#   LOUPE_TEST_RGW_LC_INTERVAL   rgw_lc_debug_interval: seconds per lifecycle "day" (default 10)
#   LOUPE_TEST_RGW_TIMEOUT       seconds to wait for each daemon (default 120)
#   LOUPE_TEST_RGW_ACCESS_KEY / LOUPE_TEST_RGW_SECRET_KEY  S3 credentials
#                                (default loupe-test-access / loupe-test-secret)
# Writes $LOUPE_TEST_RGW_DIR/s3.env (LOUPE_TEST_S3_ENDPOINT/REGION/ACCESS_KEY/SECRET_KEY/
# FORCE_PATH_STYLE); pids in run/{mon.a,osd.0,radosgw}.pid; logs in log/.
# Deleted objects are garbage-collected after ~60-120 s (rgw gc obj min wait = 60).
# Needs: ceph-mon ceph-osd radosgw ceph-common (ensure-servers.sh installs them).
set -euo pipefail

DIR="${LOUPE_TEST_RGW_DIR:-/tmp/loupe-rgw}"
PORT="${LOUPE_TEST_RGW_PORT:-7480}"
MON_PORT_WANTED="${LOUPE_TEST_RGW_MON_PORT:-6789}"
STORE_BYTES="${LOUPE_TEST_RGW_STORE_BYTES:-6442450944}"
LC_INTERVAL="${LOUPE_TEST_RGW_LC_INTERVAL:-10}"
TIMEOUT="${LOUPE_TEST_RGW_TIMEOUT:-120}"
ACCESS_KEY="${LOUPE_TEST_RGW_ACCESS_KEY:-loupe-test-access}"
SECRET_KEY="${LOUPE_TEST_RGW_SECRET_KEY:-loupe-test-secret}"
S3_UID=loupe
RGW_NAME=client.rgw.loupe

CONF="$DIR/ceph.conf"
RUN="$DIR/run"
LOG="$DIR/log"
CEPH=(timeout 60 ceph -c "$CONF" --connect-timeout 30)

say() { echo "[start-rgw] $*" >&2; }
die() {
  say "ERROR: $*"
  for f in "$LOG"/setup.log "$LOG"/mon.a.log "$LOG"/osd.0.log "$LOG"/radosgw.log; do
    [[ -s "$f" ]] && { say "--- last lines of $f ---"; tail -n 25 "$f" >&2; }
  done
  exit 1
}

port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# pid from a pid file, if that process is alive and is the expected binary
live_pid() { # <pidfile> <comm>
  local pid
  [[ -s "$1" ]] || return 1
  pid="$(tr -dc 0-9 <"$1")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  [[ "$(cat /proc/"$pid"/comm 2>/dev/null)" == "$2"* ]] || return 1
  echo "$pid"
}

# pids of daemons started with this dir's ceph.conf (covers lost pid files)
conf_pids() { # <binary>
  pgrep -f "^(/usr/bin/)?$1 .*-c $CONF( |\$)" || true
}

stop_pid() { # <pid>...
  local p i
  for p in "$@"; do kill -TERM "$p" 2>/dev/null || true; done
  for i in $(seq 1 50); do
    local alive=0
    for p in "$@"; do kill -0 "$p" 2>/dev/null && alive=1; done
    ((alive)) || return 0
    sleep 0.2
  done
  for p in "$@"; do kill -KILL "$p" 2>/dev/null || true; done
}

wait_for() { # <what> <command...>
  local what="$1"; shift
  local deadline=$((SECONDS + TIMEOUT))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "$what did not come up within ${TIMEOUT}s"
    sleep 0.5
  done
}

# run a command, output to setup.log; die on failure
run() {
  echo "+ $*" >>"$LOG/setup.log"
  "$@" >>"$LOG/setup.log" 2>&1 || die "failed: $*"
}

rgw_answers() { curl -fsS -m 2 -o /dev/null "http://127.0.0.1:$PORT/" 2>/dev/null; }

start_rgw() {
  # stale radosgw of ours (e.g. hung, port closed) -> stop it first
  local old
  old="$(conf_pids radosgw)"
  if [[ -n "$old" ]]; then stop_pid $old; fi
  rm -f "$RUN/radosgw.pid"
  run radosgw -c "$CONF" -n "$RGW_NAME"
  wait_for "radosgw on 127.0.0.1:$PORT" rgw_answers
}

ensure_user() {
  if ! timeout 60 radosgw-admin -c "$CONF" user info --uid "$S3_UID" >/dev/null 2>&1; then
    run timeout 60 radosgw-admin -c "$CONF" user create --uid "$S3_UID" --display-name "$S3_UID" \
      --access-key "$ACCESS_KEY" --secret "$SECRET_KEY"
  fi
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
  && command -v ceph >/dev/null \
  || { say "ERROR: ceph binaries missing (apt-get install ceph-mon ceph-osd radosgw ceph-common)"; exit 1; }

if rgw_answers; then
  say "radosgw already answering on 127.0.0.1:$PORT"
  exit 0
fi
if port_open "$PORT"; then
  die "127.0.0.1:$PORT is taken by something that is not answering HTTP"
fi

# ---- fast path: cluster still up, only radosgw gone -------------------------
if [[ -f "$CONF" ]] && live_pid "$RUN/mon.a.pid" ceph-mon >/dev/null \
   && live_pid "$RUN/osd.0.pid" ceph-osd >/dev/null \
   && grep -q "endpoint=127.0.0.1:$PORT\$" "$CONF" \
   && "${CEPH[@]}" osd stat 2>/dev/null | grep -q '1 up'; then
  t0=$SECONDS
  start_rgw
  ensure_user
  write_env
  say "radosgw restarted on 127.0.0.1:$PORT (cluster kept) in $((SECONDS - t0))s"
  exit 0
fi

# ---- full setup --------------------------------------------------------------
t0=$SECONDS
if [[ -d "$DIR" ]]; then
  for b in radosgw ceph-osd ceph-mon; do
    p="$(conf_pids "$b")"
    if [[ -n "$p" ]]; then stop_pid $p; fi
  done
  # the dir is ours only if it looks like one of ours (never rm -rf a random dir)
  if [[ -f "$CONF" || -z "$(ls -A "$DIR")" ]]; then
    rm -rf "$DIR"
  else
    die "$DIR exists and is not a loupe rgw dir; remove it or set LOUPE_TEST_RGW_DIR"
  fi
fi
mkdir -p "$RUN" "$LOG" "$DIR/mon/ceph-a" "$DIR/osd/ceph-0" "$DIR/rgw"

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

[mon]
mon data = $DIR/mon/ceph-\$id
pid file = $RUN/mon.\$id.pid

[osd]
osd data = $DIR/osd/ceph-\$id
pid file = $RUN/osd.\$id.pid
osd objectstore = memstore
memstore device bytes = $STORE_BYTES
osd crush update on start = false

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

echo "== $(date -Is) full setup: fsid $FSID mon port $MON_PORT rgw port $PORT" >>"$LOG/setup.log"
run monmaptool --create --fsid "$FSID" --add a "v1:127.0.0.1:$MON_PORT" "$DIR/monmap"
run ceph-mon -c "$CONF" -i a --mkfs --monmap "$DIR/monmap"

run ceph-mon -c "$CONF" -i a
wait_for "ceph-mon on 127.0.0.1:$MON_PORT" "${CEPH[@]}" mon stat

OSD_ID="$("${CEPH[@]}" osd create "$OSD_UUID" 2>>"$LOG/setup.log")" || die "ceph osd create failed"
[[ "$OSD_ID" == 0 ]] || die "unexpected osd id '$OSD_ID'"
run ceph-osd -c "$CONF" -i 0 --mkfs --osd-uuid "$OSD_UUID"
run "${CEPH[@]}" osd crush add-bucket node0 host
run "${CEPH[@]}" osd crush move node0 root=default
run "${CEPH[@]}" osd crush add osd.0 1.0 host=node0

run ceph-osd -c "$CONF" -i 0
osd_up() { "${CEPH[@]}" osd stat 2>/dev/null | grep -q '1 up'; }
wait_for "ceph-osd" osd_up

start_rgw
ensure_user
write_env
say "ceph cluster + radosgw started on 127.0.0.1:$PORT (mon $MON_PORT, dir $DIR) in $((SECONDS - t0))s"
