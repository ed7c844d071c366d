#!/usr/bin/env bash
# A 20 s PostgreSQL outage under the load of 100 clients on two servers, then a
# restart between two requests. Prints: every request's answer time and status by
# server (load), when each server stopped being ready and was ready again, the
# requests refused after the restart, and the database's check. See docs/web.md.
#
#   cargo build --release --bins --features measure --examples && examples/operate/pg-outage.sh

cd "$(dirname "$0")/../.."
. examples/operate/common.sh

start_postgres
serve a --db "$db"; a=$url
serve b --db "$db"; b=$url
watch_readiness a "$a"
watch_readiness b "$b"

"$load" "$a" "$b" --players 100 --pause-ms 60 --seconds 60 --check-db "$db" >"$work/load.txt" &
loading=$!
sleep 15
stopped=$(date +%s.%N)
pg_ctl -m fast stop >/dev/null
sleep 20
pg_start
started=$(date +%s.%N)
wait "$loading"
cat "$work/load.txt"
for server in a b; do
  down=$(first_at "$server" "$stopped" 503)
  up=$(first_at "$server" "$started" 200)
  printf 'server %s: not ready %.2f s after the database stopped; ready %.2f s after it was back\n' \
    "$server" "$(echo "$down - $stopped" | bc)" "$(echo "$up - $started" | bc)"
done

# A restart between two requests: none refused after it.
curl -s -o /dev/null -X POST "$a/api/games" -H 'Content-Type: application/json' -d '{"x":"human:Ada","o":"impossible"}'
pg_ctl -m fast -w stop >/dev/null
pg_start
refused=0
for i in $(seq 100); do
  server=$([ $((i % 2)) -eq 0 ] && echo "$a" || echo "$b")
  code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$server/api/games" -H 'Content-Type: application/json' -d '{"x":"human:Ada","o":"impossible"}')
  [ "$code" = 201 ] || refused=$((refused + 1))
done
echo "after a restart between two requests: $refused of 100 new games refused"
grep -h 'store cannot be used\|store answers again' "$work/a.log" "$work/b.log" | cut -c1-160
