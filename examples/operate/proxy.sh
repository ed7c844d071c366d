#!/usr/bin/env bash
# The proxies of docs/web.md route around a server whose readiness fails: server A on a
# PostgreSQL database that is then stopped (A stays up, not ready), server B on SQLite.
# For each of Caddy, HAProxy and nginx (Debian's packages) in front of both, prints how
# many new games were refused while A was ready, while A was not, and after A was
# ready again (and how many of those went to A).
#
#   cargo build --release --bins --features measure --examples && examples/operate/proxy.sh

cd "$(dirname "$0")/../.."
. examples/operate/common.sh
proxies=examples/operate/proxies

start_postgres
serve a --db "$db"; a=$url
serve b --db "$work/b.db"; b=$url
host() { echo "${1#http://}"; }

# $1 requests for a new game through the proxy at $2, 20 ms apart: how many refused, and
# how many of the games made are A's.
ask() {
  local refused=0 on_a=0 id code
  for _ in $(seq "$1"); do
    answer=$(curl -s -m 5 -w ' %{http_code}' -X POST "$2/api/games" -H 'Content-Type: application/json' -d '{"x":"human:Ada","o":"impossible"}')
    code=${answer##* }
    if [ "$code" = 201 ]; then
      id=$(echo "$answer" | sed 's/.*"id":"\([0-9a-f]*\)".*/\1/')
      [ "$(curl -s -o /dev/null -w '%{http_code}' "$a/api/games/$id")" = 200 ] && on_a=$((on_a + 1))
    else
      refused=$((refused + 1))
    fi
    sleep 0.02
  done
  echo "$refused refused, $on_a on A"
}

for proxy in caddy haproxy nginx; do
  port=$(free_port)
  case $proxy in
    caddy) SERVER_A=$(host "$a") SERVER_B=$(host "$b") PORT=$port \
             caddy run --config "$proxies/Caddyfile" --adapter caddyfile >"$work/caddy.log" 2>&1 & ;;
    haproxy) SERVER_A=$(host "$a") SERVER_B=$(host "$b") PORT=$port \
             haproxy -db -f "$proxies/haproxy.cfg" >"$work/haproxy.log" 2>&1 & ;;
    nginx) sed -e "s/SERVER_A/$(host "$a")/; s/SERVER_B/$(host "$b")/; s/PORT/$port/" \
             "$proxies/nginx.conf" >"$work/nginx.conf"
           nginx -c "$work/nginx.conf" -p "$work" >"$work/nginx.log" 2>&1 & ;;
  esac
  proxied=$!
  pids+=("$proxied")
  front="http://127.0.0.1:$port"
  sleep 2
  ready=$(ask 40 "$front")
  pg_ctl -m fast stop >/dev/null
  sleep 1
  down=$(ask 100 "$front")
  pg_start
  sleep 3
  back=$(ask 40 "$front")
  echo "$proxy: A and B ready: $ready; A not ready (its database stopped): $down; A ready again: $back"
  kill "$proxied"; wait "$proxied" 2>/dev/null || true
done
