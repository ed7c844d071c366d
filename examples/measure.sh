# The one run that examples/compare.sh and examples/costs.sh take turns at (sourced by
# both, not run alone; `$load` is the load generator's binary).
#
#   measure BINARY LOAD_FLAGS_ARRAY [SERVE FLAGS...]
#
# serves BINARY on a new SQLite database (with SERVE FLAGS and the caller's RUST_LOG),
# runs the load generator against it with the flags in the array named
# LOAD_FLAGS_ARRAY, stops the server, and prints "MOVES_PER_SECOND P99_MS
# CPU_US_A_MOVE" (the server's CPU time over the moves played).
measure() {
  local binary=$1 scratch address server out
  local -n flags=$2
  shift 2
  scratch=$(mktemp -d)
  "$binary" --db "$scratch/games.db" serve --port 0 "$@" >"$scratch/out" 2>"$scratch/log" &
  server=$!
  for _ in $(seq 200); do
    address=$(sed -n 's|^Serving Tic Tac Toe on ||p' "$scratch/out" | head -n 1)
    [ -n "$address" ] && break
    sleep 0.05
  done
  if [ -z "$address" ]; then
    echo "measure: $binary did not start:" >&2
    cat "$scratch/log" >&2
    kill "$server" 2>/dev/null || true
    exit 1
  fi
  out=$("$load" "$address" --pid "$server" "${flags[@]}")
  kill "$server"
  wait "$server" 2>/dev/null || true
  rm -rf "$scratch"
  local rate p99 moves cpu
  rate=$(sed -n 's/^moves: [0-9]* (\([0-9]*\) moves\/s)$/\1/p' <<<"$out")
  p99=$(sed -n 's/^move latency: p50 [0-9.]* ms, p99 \([0-9.]*\) ms.*/\1/p' <<<"$out")
  moves=$(sed -n 's/^moves: \([0-9]*\) .*/\1/p' <<<"$out")
  cpu=$(sed -n 's/^server CPU: \([0-9.]*\) s .*/\1/p' <<<"$out")
  echo "$rate $p99 $(awk -v c="$cpu" -v m="$moves" 'BEGIN { printf "%d", c * 1e6 / m }')"
}

# The median of the numbers on standard input, one a line (the lower of the middle two).
median() { sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
