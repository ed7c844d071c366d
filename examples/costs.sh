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
cargo build --release --quiet --bin tictactoe --example load
server=target/release/tictactoe
load=target/release/examples/load

# One run: RUST_LOG=$1, load flags $2, then serve's flags; prints
# "MOVES_PER_SECOND P99_MS CPU_US_A_MOVE".
run() {
  local log=$1 flags=$2 scratch address pid out
  shift 2
  scratch=$(mktemp -d)
  RUST_LOG=$log "$server" --db "$scratch/games.db" serve --port 0 "$@" \
    >"$scratch/out" 2>"$scratch/log" &
  pid=$!
  for _ in $(seq 200); do
    address=$(sed -n 's|^Serving Tic Tac Toe on ||p' "$scratch/out" | head -n 1)
    [ -n "$address" ] && break
    sleep 0.05
  done
  # shellcheck disable=SC2086 # the load's flags are words
  out=$("$load" "$address" --pid "$pid" --players 500 --pause-ms 0 --seconds 12 $flags)
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rm -rf "$scratch"
  local rate p99 moves cpu
  rate=$(sed -n 's/^moves: [0-9]* (\([0-9]*\) moves\/s)$/\1/p' <<<"$out")
  p99=$(sed -n 's/^move latency: p50 [0-9.]* ms, p99 \([0-9.]*\) ms.*/\1/p' <<<"$out")
  moves=$(sed -n 's/^moves: \([0-9]*\) .*/\1/p' <<<"$out")
  cpu=$(sed -n 's/^server CPU: \([0-9.]*\) s .*/\1/p' <<<"$out")
  echo "$rate $p99 $(awk -v c="$cpu" -v m="$moves" 'BEGIN { printf "%d", c * 1e6 / m }')"
}

ways=("reference" "no request logs" "JSON logs" "no metrics" "signed in")
way() {
  case $1 in
    0) run info "" --metrics 127.0.0.1:0 ;;
    1) run warn "" --metrics 127.0.0.1:0 ;;
    2) run info "" --metrics 127.0.0.1:0 --log-format json ;;
    3) run info "" ;;
    4) run info "--signed-in" --metrics 127.0.0.1:0 ;;
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

median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "medians:"
for i in "${!ways[@]}"; do
  printf '       %-16s %10s %10s %14s\n' "${ways[$i]}" "$(median <<<"${rates[$i]}")" \
    "$(median <<<"${p99s[$i]}")" "$(median <<<"${cpus[$i]}")"
done
