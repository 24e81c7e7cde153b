#!/usr/bin/env bash
# Stop what prod_up.sh started (PostgreSQL and Redis keep running).
set -uo pipefail
cd "$(dirname "$0")/.."
RUN="$(pwd)/var/prod"
[ -f "$RUN/nginx/nginx.pid" ] && nginx -c "$RUN/nginx/nginx.conf" -p "$RUN/nginx" -s quit 2>/dev/null
for pidfile in "$RUN"/web-*.pid "$RUN"/live-*.pid "$RUN"/worker-*.pid "$RUN"/beat.pid; do
  [ -f "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -KILL "$pid" 2>/dev/null
  rm -f "$pidfile"
done
echo "prod-down: stopped"
