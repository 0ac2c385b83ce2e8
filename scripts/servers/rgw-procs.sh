# Process helpers shared by start-rgw.sh and stop-rgw.sh (sourced; needs DIR set).
# A "daemon of this dir" is a ceph-mon/ceph-osd/radosgw(-admin) started with -c $DIR/ceph.conf.
# Zombies count as gone: they hold no port or file, and only their parent can reap them
# (the daemons fork themselves away from our shell, so that is never us).

CONF="$DIR/ceph.conf"
RUN="$DIR/run"
LOG="$DIR/log"

port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# pid listening on 127.0.0.1:<port> (empty if none, or if ss cannot tell)
port_pid() {
  command -v ss >/dev/null || return 0
  { ss -Hltnp "sport = :$1" 2>/dev/null || true; } | { grep -o 'pid=[0-9]*' || true; } | head -n 1 | cut -d= -f2
}

proc_state() { # <pid>: one-letter state (R S D Z ...); fails if there is no such process
  local s
  s="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  s="${s##*) }"
  echo "${s%% *}"
}

alive() { # <pid>: exists and is not a zombie
  local st
  st="$(proc_state "$1")" || return 1
  [[ "$st" != Z && "$st" != X ]]
}

proc_cmdline() { tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | cut -c1-200; }

# pid from a pid file, if that process is alive and its name matches the ERE <names>
pidfile_pid() { # <pidfile> <names>
  local pid comm
  [[ -s "$1" ]] || return 0
  pid="$(tr -dc 0-9 <"$1")"
  [[ -n "$pid" ]] && alive "$pid" || return 0
  comm="$(cat "/proc/$pid/comm" 2>/dev/null)" || return 0
  if [[ "$comm" =~ ^($2)$ ]]; then echo "$pid"; fi
}

re_escape() { sed 's/[][\.*^$(){}?+|]/\\&/g' <<<"$1"; }

# live pids of this dir's daemons named by the ERE <names>, from the process table
# (covers lost pid files) and from the given pid files
dir_pids() { # <names> [pidfile...]
  local names="$1" p f
  shift
  {
    for p in $(pgrep -f "^(/usr/bin/)?($names) (.* )?-c $(re_escape "$CONF")( |\$)" || true); do
      if alive "$p"; then echo "$p"; fi
    done
    for f in "$@"; do pidfile_pid "$f" "$names"; done
  } | sort -un
}

# wait until none of the pids is alive; on timeout print the ones left and fail
wait_gone() { # <seconds> <pid>...
  local deadline=$((SECONDS + $1)) p left
  shift
  while :; do
    left=""
    for p in "$@"; do if alive "$p"; then left+="$p "; fi; done
    if [[ -z "$left" ]]; then return 0; fi
    if ((SECONDS >= deadline)); then echo "$left"; return 1; fi
    sleep 0.1
  done
}

# SIGKILL every daemon of this dir and wait until they are gone; prints the ones left on failure
kill_dir_daemons() { # <seconds>
  local pids
  pids="$(dir_pids 'ceph-mon|ceph-osd|radosgw|radosgw-admin' "$RUN/mon.a.pid" "$RUN/osd.0.pid" "$RUN/radosgw.pid")"
  if [[ -z "$pids" ]]; then return 0; fi
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null || true
  # shellcheck disable=SC2086
  wait_gone "$1" $pids
}
