# What the scripts of examples/operate share: a throwaway PostgreSQL cluster, servers
# started and stopped, and a readiness watcher. Sourced, not run. Needs Debian's
# postgresql (initdb, pg_ctl as the postgres user, through runuser) and curl; run as
# root from the repository, after `cargo build --release --bins --features measure --examples`.

set -euo pipefail
bin=target/release/tictactoe
load=target/release/examples/load
pg=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=$(mktemp -d /tmp/tictactoe-operate.XXXXXX)
chown postgres "$work"
pids=()
trap 'for pid in "${pids[@]}"; do kill -CONT "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done; pg_ctl stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

pg_ctl() { runuser -u postgres -- "$pg/pg_ctl" -D "$work/data" -l "$work/postgres.log" "$@"; }

# A new cluster on a free port ($pg_port), with a database `games`; sets $db to its
# address.
start_postgres() {
  runuser -u postgres -- "$pg/initdb" -D "$work/data" -A trust -U tictactoe >/dev/null
  pg_port=$(free_port)
  pg_start
  runuser -u postgres -- "$pg/psql" -h 127.0.0.1 -p "$pg_port" -U tictactoe -d postgres -qc 'CREATE DATABASE games'
  db="postgres://tictactoe@127.0.0.1:$pg_port/games"
}

# Starts (again) the cluster start_postgres made, and waits until it takes connections.
pg_start() {
  pg_ctl -o "-p $pg_port -k $work -c listen_addresses=127.0.0.1" -w start >/dev/null
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# Starts `tictactoe serve` with the rest of the arguments as its own (those after a
# `--`, serve's); sets $url and $pid.
serve() {
  local name=$1; shift
  local global=() served=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do global+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  served=("$@")
  "$bin" "${global[@]}" serve --port 0 "${served[@]}" >"$work/$name.out" 2>"$work/$name.log" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 200); do
    url=$(sed -n 's|^Serving Tic Tac Toe on ||p' "$work/$name.out" 2>/dev/null || true)
    [ -n "$url" ] && return
    sleep 0.05
  done
  cat "$work/$name.log"; echo "$name did not start"; exit 1
}

# Writes "seconds status" to $work/$1.ready every 50 ms: readiness of server $2.
watch_readiness() {
  local name=$1 at=$2
  ( while true; do
      printf '%s %s\n' "$(date +%s.%N)" "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$at/readyz")"
      sleep 0.05
    done ) >"$work/$name.ready" &
  pids+=("$!")
}

# The first moment (seconds since the epoch) at or after $2 when $1's readiness
# answered $3.
first_at() {
  awk -v from="$2" -v code="$3" '$1 >= from && $2 == code { print $1; exit }' "$work/$1.ready"
}
