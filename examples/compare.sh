#!/usr/bin/env bash
# The cost of a move, side by side: today's server (this checkout) against the build of
# another commit, each serving today's load generator in turn, on a fresh SQLite
# database each run. Prints each run's moves/s and move p99, then the ratios of the
# medians (today / BASE), and the median of each round's own ratio.
#
#   examples/compare.sh BASE [ROUNDS] [-- LOAD FLAGS]
#   examples/compare.sh e9726ef 3 -- --players 500 --pause-ms 0 --seconds 12
#
# BASE is built once (release) in target/compare/, beside this checkout, and kept
# there for the next run. The load's defaults here: 500 clients, no pause, 12 s.
# Run it on a quiet machine: anything else running moves both columns. docs/
# performance.md says when to run it and keeps each release's figures.
set -euo pipefail
cd "$(dirname "$0")/.."

base=${1:?usage: examples/compare.sh BASE [ROUNDS] [-- LOAD FLAGS]}
shift
rounds=3
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  rounds=$1
  shift
fi
[ "${1:-}" = "--" ] && shift
load_flags=("$@")
# Today's server as it is run: request logs at info (the default) and metrics on (a
# listener of their own, on any free port). TODAY_FLAGS replaces these, to measure
# what each costs: TODAY_FLAGS="" for no metrics, RUST_LOG=warn for no request logs.
read -r -a today_flags <<<"${TODAY_FLAGS---metrics 127.0.0.1:0}"
[ ${#load_flags[@]} -eq 0 ] && load_flags=(--players 500 --pause-ms 0 --seconds 12)

commit=$(git rev-parse --verify --quiet "$base^{commit}") || {
  echo "compare: $base is not a commit here" >&2
  exit 2
}
short=$(git rev-parse --short "$commit")
work=target/compare
mkdir -p "$work"
based="$work/tictactoe-$short"
if [ ! -x "$based" ]; then
  echo "building $short (release) in $work ..." >&2
  rm -rf "$work/src-$short"
  git worktree add --detach --force "$work/src-$short" "$commit" >/dev/null
  CARGO_TARGET_DIR="$PWD/$work/build" cargo build --release --quiet \
    --manifest-path "$work/src-$short/Cargo.toml" --bin tictactoe
  cp "$work/build/release/tictactoe" "$based"
  git worktree remove --force "$work/src-$short"
fi
echo "building today's server and the load generator (release) ..." >&2
cargo build --release --quiet --bin tictactoe --features measure --example load
today=target/release/tictactoe
load=target/release/examples/load

# shellcheck source=examples/measure.sh
source examples/measure.sh

declare -a base_rates base_p99s base_cpus today_rates today_p99s today_cpus
printf '%-8s %-14s %10s %10s %14s\n' round build moves/s "p99 ms" "CPU us/move"
for round in $(seq "$rounds"); do
  # Taking turns, so that a machine getting busier or quieter moves both alike.
  read -r rate p99 cpu < <(measure "$based" load_flags)
  base_rates+=("$rate"); base_p99s+=("$p99"); base_cpus+=("$cpu")
  printf '%-8s %-14s %10s %10s %14s\n' "$round" "$short" "$rate" "$p99" "$cpu"
  read -r rate p99 cpu < <(measure "$today" load_flags "${today_flags[@]}")
  today_rates+=("$rate"); today_p99s+=("$p99"); today_cpus+=("$cpu")
  printf '%-8s %-14s %10s %10s %14s\n' "$round" today "$rate" "$p99" "$cpu"
done

base_rate=$(printf '%s\n' "${base_rates[@]}" | median)
base_p99=$(printf '%s\n' "${base_p99s[@]}" | median)
today_rate=$(printf '%s\n' "${today_rates[@]}" | median)
today_p99=$(printf '%s\n' "${today_p99s[@]}" | median)
base_cpu=$(printf '%s\n' "${base_cpus[@]}" | median)
today_cpu=$(printf '%s\n' "${today_cpus[@]}" | median)
# Each round's own ratio too: a machine that runs faster or slower for minutes at a
# time (a shared host) moves both runs of a round alike, and the rounds' ratios stay.
ratios() { # ratios NAME_OF_TODAY NAME_OF_BASE: each round's today / base, one a line
  local -n t=$1 b=$2
  for i in "${!t[@]}"; do awk -v t="${t[$i]}" -v b="${b[$i]}" 'BEGIN { printf "%.3f\n", t / b }'; done
}
paired_rate=$(ratios today_rates base_rates | median)
paired_p99=$(ratios today_p99s base_p99s | median)
paired_cpu=$(ratios today_cpus base_cpus | median)
awk -v br="$base_rate" -v bp="$base_p99" -v bc="$base_cpu" -v tr="$today_rate" -v tp="$today_p99" \
  -v tc="$today_cpu" -v b="$short" -v pr="$paired_rate" -v pp="$paired_p99" -v pc="$paired_cpu" 'BEGIN {
  printf "medians: %s %d moves/s, p99 %.1f ms, %d us of server CPU a move; today %d moves/s, p99 %.1f ms, %d us\n", b, br, bp, bc, tr, tp, tc
  printf "today / %s: %.2fx moves/s, %.2fx p99, %.2fx CPU a move\n", b, tr / br, tp / bp, tc / bc
  printf "today / %s, the median of the rounds\x27 own ratios: %.2fx moves/s, %.2fx p99, %.2fx CPU a move\n", b, pr, pp, pc
}'
