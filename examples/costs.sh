#!/usr/bin/env bash
# What each part of a move's path costs, measured on this checkout's release build:
# the same unpaced load (500 clients, no pause, 12 s, a new SQLite database each run)
# against today's server run each way below in turn, ROUNDS times (3). Prints each
# run's moves/s, move p99 and server CPU a move, then each way's medians. The ways:
#
#   reference       request logs at info (text), metrics on: the server as it is run
#   no request logs RUST_LOG=warn
#   JSON logs       --log-format json
#   no metrics      without --metrics
#   signed in       every client plays signed in (a personal token), every game rated
#
#   examples/costs.sh [ROUNDS]
#
# Run it on a quiet machine. docs/performance.md ("The cost of a move") keeps the
# figures; examples/compare.sh puts the whole against an older commit.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
echo "building today's server and the load generator (release) ..." >&2
cargo build --release --quiet --bin tictactoe --features measure --example load
server=target/release/tictactoe
load=target/release/examples/load

# shellcheck source=examples/measure.sh
source examples/measure.sh
guests=(--players 500 --pause-ms 0 --seconds 12)
signed_in=("${guests[@]}" --signed-in)

ways=("reference" "no request logs" "JSON logs" "no metrics" "signed in")
way() {
  case $1 in
    0) RUST_LOG=info measure "$server" guests --metrics 127.0.0.1:0 ;;
    1) RUST_LOG=warn measure "$server" guests --metrics 127.0.0.1:0 ;;
    2) RUST_LOG=info measure "$server" guests --metrics 127.0.0.1:0 --log-format json ;;
    3) RUST_LOG=info measure "$server" guests ;;
    4) RUST_LOG=info measure "$server" signed_in --metrics 127.0.0.1:0 ;;
  esac
}

declare -A rates p99s cpus
printf '%-6s %-16s %10s %10s %14s\n' round way moves/s "p99 ms" "CPU us/move"
for round in $(seq "$rounds"); do
  for i in "${!ways[@]}"; do
    read -r rate p99 cpu < <(way "$i")
    rates[$i]+="$rate "; p99s[$i]+="$p99 "; cpus[$i]+="$cpu "
    printf '%-6s %-16s %10s %10s %14s\n' "$round" "${ways[$i]}" "$rate" "$p99" "$cpu"
  done
done

echo "medians:"
for i in "${!ways[@]}"; do
  printf '       %-16s %10s %10s %14s\n' "${ways[$i]}" "$(tr ' ' '\n' <<<"${rates[$i]}" | median)" \
    "$(tr ' ' '\n' <<<"${p99s[$i]}" | median)" "$(tr ' ' '\n' <<<"${cpus[$i]}" | median)"
done
