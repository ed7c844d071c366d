#!/usr/bin/env bash
# What the server's request logs and metrics cost: the unpaced load of 500 clients on
# a server with both on (every request's line at info, in JSON, to a file; `--metrics`
# on, and scraped every second as Prometheus would) against one with both off
# (RUST_LOG=warn, no `--metrics`), one after the other, ROUNDS times (default 3), each
# on a new SQLite database. Prints each run's moves/s and move latency. See docs/web.md.
#
#   cargo build --release --bins --examples && examples/operate/overhead.sh [ROUNDS]

cd "$(dirname "$0")/../.."
. examples/operate/common.sh

rounds=${1:-3}
seconds=15

run() {
  local name=$1 round=$2
  local db="$work/$name-$round.db"
  if [ "$name" = on ]; then
    local metrics_port
    metrics_port=$(free_port)
    RUST_LOG=info serve "$name-$round" --db "$db" --log-format json --metrics "127.0.0.1:$metrics_port"
    ( while true; do curl -s -o /dev/null "http://127.0.0.1:$metrics_port/metrics"; sleep 1; done ) &
    pids+=("$!")
    local scraper=$!
  else
    RUST_LOG=warn serve "$name-$round" --db "$db"
  fi
  local server=$pid
  "$load" "$url" --players 500 --pause-ms 0 --seconds "$seconds" --pid "$server" >"$work/$name-$round.txt"
  [ "$name" = on ] && kill "$scraper"
  kill "$server"
  wait "$server" 2>/dev/null || true
  printf '%-3s round %s: %s; %s; log %s lines\n' "$name" "$round" \
    "$(sed -n 's/^moves: [0-9]* (\(.*\))$/\1/p' "$work/$name-$round.txt")" \
    "$(sed -n 's/^move latency: //p' "$work/$name-$round.txt")" \
    "$(wc -l <"$work/$name-$round.log")"
}

for round in $(seq "$rounds"); do
  run off "$round"
  run on "$round"
done
