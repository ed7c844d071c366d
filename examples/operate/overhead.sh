#!/usr/bin/env bash
# What the server's request logs and metrics cost: the unpaced load of 500 clients on
# a server with both on (every request's line at info, in JSON, to a file; `--metrics`
# on, and scraped every second as Prometheus would) against one with both off
# (RUST_LOG=warn, no `--metrics`), one after the other, ROUNDS times (default 3), each
# on a new SQLite database. Prints each run's moves/s and move latency. See docs/web.md.
# MODES="off logs metrics on" measures logs and metrics apart too.
#
#   cargo build --release --bins --features measure --examples && examples/operate/overhead.sh [ROUNDS]

cd "$(dirname "$0")/../.."
. examples/operate/common.sh

rounds=${1:-3}
seconds=15

run() {
  local name=$1 round=$2
  local db="$work/$name-$round.db"
  local serving=(--db "$db" --) log=warn scraper=
  case "$name" in
    on|logs) log=info; serving+=(--log-format json);;
  esac
  case "$name" in
    on|metrics)
      local metrics_port
      metrics_port=$(free_port)
      serving+=(--metrics "127.0.0.1:$metrics_port")
      ( while true; do curl -s -o /dev/null "http://127.0.0.1:$metrics_port/metrics"; sleep 1; done ) &
      scraper=$!
      pids+=("$scraper");;
  esac
  RUST_LOG=$log serve "$name-$round" "${serving[@]}"
  local server=$pid
  "$load" "$url" --players 500 --pause-ms 0 --seconds "$seconds" --pid "$server" >"$work/$name-$round.txt"
  if [ -n "$scraper" ]; then kill "$scraper" 2>/dev/null || true; fi
  kill "$server"
  wait "$server" 2>/dev/null || true
  printf '%-3s round %s: %s; %s; log %s lines\n' "$name" "$round" \
    "$(sed -n 's/^moves: [0-9]* (\(.*\))$/\1/p' "$work/$name-$round.txt")" \
    "$(sed -n 's/^move latency: //p' "$work/$name-$round.txt")" \
    "$(wc -l <"$work/$name-$round.log")"
}

for round in $(seq "$rounds"); do
  for mode in ${MODES:-off on}; do
    run "$mode" "$round"
  done
done
