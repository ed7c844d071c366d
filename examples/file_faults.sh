#!/usr/bin/env bash
# The database file under faults, under load: `tictactoe serve` on a new SQLite file,
# 100 clients playing (examples/load.rs), and 4 s in, one fault done to the file as an
# operator might: `rm` (removed), `mv` (another database moved over it), or `console`
# (removed, then console commands run on the path at once). With `full`, the file is on
# a 3 MB tmpfs with 2 MB free (root only), and the clients play for 70 s, on a disk that
# fills within seconds; the space is freed before the restart. The clients play on; then
# the server is stopped, what docs/reliability.md says to do is done, a server is
# started again on the path, and every game the clients were answered is read back
# from the file (`load --check-answered`). Not a test: run it by hand, on a release
# build (docs/reliability.md has the figures).
#
#   cargo build --release --bin tictactoe --features measure --example load
#   bash examples/file_faults.sh rm|mv|console|full
#
# The server logs with RUST_LOG=warn,tictactoe=info,tictactoe_web=warn: all but the line per
# request (tictactoe_web's info), so that what it says of the fault can be counted.
set -euo pipefail
fault=${1:?rm, mv, console or full}
bin=$(cd "$(dirname "$0")/.." && pwd)/target/release
dir=$(mktemp -d)
db=$dir/games.db
seconds=10
port=${PORT:-18090}
if [ "$fault" = full ]; then
  disk=$(mktemp -d)
  mount -t tmpfs -o size=3m tmpfs "$disk"
  trap 'umount "$disk"' EXIT
  head -c 1M /dev/zero >"$disk/ballast"
  db=$disk/games.db
  seconds=70
  df -h "$disk" | tail -1
fi

serve() {
  RUST_LOG=warn,tictactoe=info,tictactoe_web=warn "$bin/tictactoe" --db "$db" serve --port "$port" \
    >>"$dir/out" 2>>"$dir/log" &
  server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return; sleep 0.1; done
  echo "the server did not start"; cat "$dir/log"; exit 1
}

if [ "$fault" = mv ]; then
  # Another database of the program's, to be moved over the served file.
  "$bin/tictactoe" --db "$dir/other.db" play --x random --o random >/dev/null
fi
serve
"$bin/examples/load" "http://127.0.0.1:$port" --players 100 --seconds "$seconds" \
  --answered-to "$dir/answered" >"$dir/load" &
load=$!
sleep 4
fault_at=$(date +%s.%N)
echo "== the fault at $(date -u -d @"$fault_at" +%T.%3N) (UTC)"
case $fault in
  full) ;;
  rm) rm "$db" ;;
  mv) mv "$dir/other.db" "$db" ;;
  console)
    rm "$db"
    # At once, before the server notices: a command that reads and one that writes.
    "$bin/tictactoe" --db "$db" scores >"$dir/console" 2>&1 || echo "scores: exit $?" >>"$dir/console"
    "$bin/tictactoe" --db "$db" play --x random --o random >>"$dir/console" 2>&1 \
      || echo "play: exit $?" >>"$dir/console"
    ;;
esac
if [ "$fault" != full ]; then
  # How long until the server is not ready (/readyz asked every 10 ms).
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 503 ]; do
    sleep 0.01
  done
  echo "== not ready $(echo "$(date +%s.%N) - $fault_at" | bc) s after the fault"
fi
wait $load
kill -INT $server; wait $server || true
echo "== the server's log ($(wc -l <"$dir/log") lines)"; cat "$dir/log"
[ -f "$dir/console" ] && { echo "== the console commands"; cat "$dir/console"; }
echo "== files"; ls "$dir"
if [ "$fault" = full ]; then
  # What the operator does: frees some space (a server refuses to start on a full disk).
  rm "$disk/ballast"
fi
if [ "$fault" = mv ]; then
  # What the operator does: keeps the other file aside, puts the saved copy in place.
  mv "$db" "$dir/other-again.db"
  mv "$dir"/games.db.saved-* "$db"
fi
serve
echo "== the load"; cat "$dir/load"
echo "== after a restart, every game answered read back"
"$bin/examples/load" --check-answered "$dir/answered" --check-db "$db"
kill -INT $server; wait $server || true
rm -rf "$dir"
