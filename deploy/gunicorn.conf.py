"""gunicorn settings for Scorekeeper; every value can be overridden from the environment."""

import gc
import multiprocessing
import os


def _bind() -> str:
    """GUNICORN_BIND when set; otherwise this host's BIND_ADDRESS (its private address in a multi-host layout,
    deploy/README.md; loopback by default) and WEB_PORT (the systemd unit's instance)."""
    explicit = os.environ.get("GUNICORN_BIND", "").strip()
    if explicit:
        return explicit
    host = os.environ.get("BIND_ADDRESS", "").strip() or "127.0.0.1"
    port = os.environ.get("WEB_PORT", "").strip() or "8001"
    if ":" in host and not host.startswith("["):  # an IPv6 address
        host = f"[{host}]"
    return f"{host}:{port}"


bind = _bind()
workers = int(os.environ.get("GUNICORN_WORKERS", str(min(4, multiprocessing.cpu_count() * 2 + 1))))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# The app is imported once in the master and the workers are forked from it: a (re)started worker is ready at
# once instead of spending a second of CPU importing Django, and the imported code is shared copy-on-write.
# Nothing opens a database or Redis connection at import time, so no socket is shared across the fork.
# Deploy new code with a restart of the unit (a HUP reloads the config, not code imported by the master).
preload_app = os.environ.get("GUNICORN_PRELOAD", "1") != "0"


def pre_fork(server: object, worker: object) -> None:
    """Move everything the master holds (Django, the app, its URLconf: config/warmup.py) out of the garbage
    collector's reach before forking: a worker's full collection then scans only its own objects (3 ms instead of
    80-100 ms of CPU, measured at 50 rounds/s) and leaves the inherited pages shared instead of writing to all of
    them."""
    gc.freeze()


# A worker is replaced after this many requests, a guard against slow leaks. It must stay rare: at 2 000 a busy
# loopback stack replaced a worker every few seconds (the /ping baseline ran at 1 750 req/s instead of 2 700).
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "100000"))
max_requests_jitter = max_requests // 10
# Request limits at or above nginx's (large_client_header_buffers 4 8000, deploy/nginx/scorekeeper.conf): what
# nginx lets through is read here, and a larger request is refused by nginx with a JSON answer rather than by
# gunicorn with its HTML page. 8190 bytes is the longest request line gunicorn takes short of "unlimited"; nginx's
# 32 000 bytes of headers hold fewer fields than 32 768.
limit_request_line = 8190
limit_request_field_size = 8190
limit_request_fields = 32768
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-")
errorlog = "-"
# The app logs to stderr (LOGGING in config/settings.py). Under systemd that is the journal; a daemonised
# gunicorn with --error-logfile (make prod-up) would drop it, so send it to the error log file too.
capture_output = True
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "warning")
# the proxy's address(es): the only peer whose X-Forwarded-* headers count (the settings read the same variable)
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
proxy_allow_ips = forwarded_allow_ips
wsgi_app = "config.wsgi:application"
