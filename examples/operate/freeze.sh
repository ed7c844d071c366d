#!/usr/bin/env bash
# One of two servers on one PostgreSQL frozen (SIGSTOP) for 10 s, ten times, under the
# load of 100 clients: the live server's requests answered as before, nothing lost or
# doubled. Prints the load's figures by server (the frozen one's requests wait for it)
# and the database's check. See docs/web.md.
#
#   cargo build --release --bins --features measure --examples && examples/operate/freeze.sh

cd "$(dirname "$0")/../.."
. examples/operate/common.sh

start_postgres
serve a --db "$db"; a=$url; frozen=$pid
serve b --db "$db"; b=$url

"$load" "$a" "$b" --players 100 --pause-ms 60 --seconds 160 --check-db "$db" >"$work/load.txt" &
loading=$!
for round in $(seq 10); do
  sleep 5
  kill -STOP "$frozen"
  sleep 10
  kill -CONT "$frozen"
done
wait "$loading"
cat "$work/load.txt"
echo "server a ($a) was frozen 10 times for 10 s; server b ($b) served on"
