#!/usr/bin/env bash
# A production-like stack on loopback: nginx (TLS, static files, gzip/brotli) in front of two gunicorn web
# processes and a uvicorn process for the live match events, two Celery workers and beat, against PostgreSQL and Redis, with DEBUG=0.
# Everything lives under var/prod/; `make prod-down` stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
RUN="$ROOT/var/prod"
mkdir -p "$RUN/log" "$RUN/nginx"
BIN="$ROOT/.venv/bin"

bash tests/ensure_services.sh >/dev/null
if ! command -v nginx >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light libnginx-mod-http-brotli-filter >/dev/null \
    || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
fi

[ -s "$RUN/secret" ] || "$BIN/python" -c "import secrets; print(secrets.token_urlsafe(50))" > "$RUN/secret"
DB_NAME=${PROD_DB_NAME:-scorekeeper_prod}
psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$DB_NAME'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $DB_NAME"

cat > "$RUN/env" <<ENV
export DEBUG=0
export SECRET_KEY=$(cat "$RUN/secret")
export DATABASE_URL=postgres://postgres@127.0.0.1:5432/$DB_NAME
export REDIS_URL=${PROD_REDIS_URL:-redis://127.0.0.1:6379/3}
export ALLOWED_HOSTS=127.0.0.1,localhost
export CSRF_TRUSTED_ORIGINS=https://127.0.0.1:8443,https://localhost:8443
export TRUSTED_PROXIES=1  # nginx in front appends the client address to X-Forwarded-For
export THROTTLE_WRITES=${THROTTLE_WRITES:-100000/min}
export THROTTLE_CALCULATOR=${THROTTLE_CALCULATOR:-100000/min}
export STATS_REFRESH_SPACING_MS=${STATS_REFRESH_SPACING_MS:-250}
export GUNICORN_ACCESSLOG=$RUN/log/access.log
ENV
# shellcheck disable=SC1091
source "$RUN/env"

"$BIN/python" manage.py check --deploy --fail-level WARNING
"$BIN/python" manage.py migrate --noinput -v0
"$BIN/python" manage.py collectstatic --noinput -v0

for port in 8001 8002; do
  GUNICORN_BIND=127.0.0.1:$port "$BIN/gunicorn" -c deploy/gunicorn.conf.py --daemon \
    --pid "$RUN/web-$port.pid" --error-logfile "$RUN/log/web-$port.log"
done
# the live match events (server-sent events) from the ASGI app: uvicorn, one process, one coroutine per phone
setsid nohup "$BIN/uvicorn" config.asgi:application --host 127.0.0.1 --port 8003 --lifespan off --no-access-log \
  --proxy-headers --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1,::1}" --timeout-graceful-shutdown 3 \
  >"$RUN/log/live-8003.log" 2>&1 < /dev/null &
echo $! > "$RUN/live-8003.pid"
for n in 1 2; do
  "$BIN/celery" -A config worker -n "worker$n@%h" --concurrency="${WORKER_CONCURRENCY:-2}" --loglevel=INFO --detach \
    --pidfile="$RUN/worker-$n.pid" --logfile="$RUN/log/worker-$n.log"
done
"$BIN/celery" -A config beat --loglevel=INFO --detach --pidfile="$RUN/beat.pid" \
  --logfile="$RUN/log/beat.log" --schedule="$RUN/celerybeat-schedule"

# nginx: self-signed certificate for loopback TLS, our site file with local paths
if [ ! -s "$RUN/nginx/cert.pem" ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
    -keyout "$RUN/nginx/key.pem" -out "$RUN/nginx/cert.pem" >/dev/null 2>&1
fi
BROTLI_LOAD=""
BROTLI_ON="# brotli module not installed"
if [ -f /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so ]; then
  BROTLI_LOAD="load_module /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so;"
  BROTLI_ON="brotli on; brotli_comp_level 5; brotli_types text/css application/javascript application/json image/svg+xml application/manifest+json;"
fi
WEB_UPSTREAMS=127.0.0.1:8001,127.0.0.1:8002 LIVE_UPSTREAM=127.0.0.1:8003 SERVER_NAME="127.0.0.1 localhost" \
  LISTEN_HTTP=127.0.0.1:8080 LISTEN_HTTPS=127.0.0.1:8443 NGINX_STATIC_ROOT="$ROOT/staticfiles" \
  TLS_CERTIFICATE="$RUN/nginx/cert.pem" TLS_CERTIFICATE_KEY="$RUN/nginx/key.pem" python3 deploy/nginx_site.py \
  | sed -e "s#return 301 https://\$host\$request_uri;#return 301 https://\$host:8443\$request_uri;#" \
        -e "s@# brotli on;.*@$BROTLI_ON@" > "$RUN/nginx/site.conf"
cat > "$RUN/nginx/nginx.conf" <<NGINX
$BROTLI_LOAD
worker_processes 1;
worker_rlimit_nofile 8192;
pid $RUN/nginx/nginx.pid;
error_log $RUN/log/nginx-error.log warn;
events { worker_connections 4096; }  # an open phone: its connection and one to uvicorn
http {
    include /etc/nginx/mime.types;
    types { application/manifest+json webmanifest; }
    # when each request ended and how long it took in nginx and upstream: where a latency tail came from
    log_format timed '\$remote_addr \$msec "\$request" \$status \$body_bytes_sent rt=\$request_time urt=\$upstream_response_time';
    access_log $RUN/log/nginx-access.log timed;
    client_body_temp_path $RUN/nginx/body;
    proxy_temp_path $RUN/nginx/proxy;
    fastcgi_temp_path $RUN/nginx/fastcgi;
    uwsgi_temp_path $RUN/nginx/uwsgi;
    scgi_temp_path $RUN/nginx/scgi;
    sendfile on;
    include $RUN/nginx/site.conf;
}
NGINX
nginx -t -c "$RUN/nginx/nginx.conf" -p "$RUN/nginx" 2>"$RUN/log/nginx-test.log" || { cat "$RUN/log/nginx-test.log"; exit 1; }
nginx -c "$RUN/nginx/nginx.conf" -p "$RUN/nginx"

for _ in $(seq 1 40); do
  curl -ksf https://127.0.0.1:8443/healthz >/dev/null && break
  sleep 0.5
done
curl -ksf https://127.0.0.1:8443/healthz >/dev/null || { echo "prod-up: the stack did not answer" >&2; exit 1; }
curl -ksf https://127.0.0.1:8443/sw.js >/dev/null || { echo "prod-up: /sw.js did not answer through nginx" >&2; exit 1; }
echo "prod-up: https://127.0.0.1:8443 (nginx) -> gunicorn :8001 :8002, live events uvicorn :8003; celery worker1, worker2, beat; DEBUG=0"
echo "          environment in var/prod/env, logs in var/prod/log/; stop with make prod-down"
