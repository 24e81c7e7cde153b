"""Scorekeeper settings: one file, everything from environment variables.

With no environment at all the app runs: SQLite file, Celery eager, DEBUG on.
Every variable is listed in ``.env.example``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlparse

from celery.schedules import crontab
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent


def _fail(variable: str, problem: str) -> None:
    """Stop with one line naming the variable (no traceback)."""
    sys.stderr.write(f"config error: {variable}: {problem}\n")
    raise SystemExit(2)


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    _fail(name, f"expected 1/0, true/false, yes/no or on/off, got {raw!r}")
    return default  # unreachable


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        _fail(name, f"expected a whole number, got {raw!r}")
        return default


DEBUG = env_bool("DEBUG", True)
TESTING = "pytest" in sys.modules

_INSECURE_KEY = "django-insecure-dev-only-key-do-not-use-in-production"
SECRET_KEY = env_str("SECRET_KEY", _INSECURE_KEY)
if not DEBUG and (SECRET_KEY == _INSECURE_KEY or len(SECRET_KEY) < 32):
    _fail("SECRET_KEY", "production mode (DEBUG=0) needs a real secret key of at least 32 characters")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files served from our own static files (no CDN; works offline)
    "django_htmx",
    "scoring",
    "analytics",
    "frontend",
]

MIDDLEWARE = [
    # first: nothing below may read a forwarded header that the proxy did not send
    "config.middleware.ForwardedHeadersMiddleware",
    # a heavy request's place (scoring.api.throttles.HeavyThrottle) is given back when its response is closed
    "config.middleware.HeavyReleaseMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# --- database ---------------------------------------------------------------
_DEFAULT_DB = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
DATABASE_URL = env_str("DATABASE_URL", _DEFAULT_DB) or _DEFAULT_DB


def _database(url: str) -> dict[str, object]:
    import dj_database_url

    scheme = urlparse(url).scheme
    if scheme not in {"sqlite", "postgres", "postgresql", "pgsql"}:
        _fail("DATABASE_URL", f"unsupported scheme {scheme!r} (use sqlite:///path or postgres://user@host/db)")
    try:
        config = dict(dj_database_url.parse(url, conn_max_age=env_int("DB_CONN_MAX_AGE", 60), conn_health_checks=True))
    except Exception as exc:
        _fail("DATABASE_URL", f"cannot parse {url!r}: {exc}")
        raise
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["CONN_MAX_AGE"] = 0
        config["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    else:
        config.setdefault("OPTIONS", {})
        config["OPTIONS"]["connect_timeout"] = env_int("DB_CONNECT_TIMEOUT", 5)
    return config


DATABASES = {"default": _database(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- celery / redis -----------------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    _redis = urlparse(REDIS_URL)
    if _redis.scheme not in {"redis", "rediss", "unix"} or (_redis.scheme != "unix" and not _redis.hostname):
        _fail("REDIS_URL", f"expected redis://host:port/db, got {REDIS_URL!r}")
    try:
        _ = _redis.port
    except ValueError:
        _fail("REDIS_URL", f"the port in {REDIS_URL!r} is not a number")

# Live updates (frontend/views/live.py): the events stream of a match page. The ASGI app (uvicorn) serves it;
# WSGI only holds a stream (a whole thread) when LIVE_EVENTS_WSGI is on, and closes it after a short while.
LIVE_EVENTS_SECONDS = env_int("LIVE_EVENTS_SECONDS", 600)  # a stream is renewed this often (the phone reconnects)
LIVE_EVENTS_WSGI = env_bool("LIVE_EVENTS_WSGI", DEBUG and not TESTING)  # tests turn it on where they need it
LIVE_EVENTS_WSGI_SECONDS = env_int("LIVE_EVENTS_WSGI_SECONDS", 25)
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600),  # seconds before an unacked task is redelivered
    "socket_connect_timeout": 2,
    "max_retries": 1,
}
CELERY_TASK_PUBLISH_RETRY = False
# A worker waits for its broker however long it is away, trying again every second or two (config.celery), and
# queues the statistics catch-up each time it connects.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "config.celery:PromptReconnectConsumer"
# Celery's Django fix-up closes the database connection before and after every task unless this is set; then it
# closes them once every this many tasks, and config/celery.py drops the old, broken or unhealthy ones before and
# after each task as Django does around a request (CONN_MAX_AGE, CONN_HEALTH_CHECKS). Reconnecting per task cost
# a statistics refresh of a small group more CPU, in the worker and in PostgreSQL, than the refresh itself.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1000)
# A full rebuild is one task per group on a queue of its own. A worker started without -Q consumes both queues and
# takes from them in turn, so the refreshes that keep dashboards fresh do not wait behind a hundred groups.
STATS_REBUILD_QUEUE = env_str("STATS_REBUILD_QUEUE").strip() or "stats-rebuild"
CELERY_TASK_QUEUES = (Queue("celery"), Queue(STATS_REBUILD_QUEUE))
CELERY_TASK_ROUTES = {"analytics.stats_rebuild_part": {"queue": STATS_REBUILD_QUEUE}}
CELERY_TIMEZONE = "UTC"
# Statistics: catch up on stale snapshots every minute (rounds saved while the broker or worker was down)
# and rebuild everything from the scoring tables every night.
CELERY_BEAT_SCHEDULE = {
    "stats-catch-up": {"task": "analytics.stats_catch_up", "schedule": 60.0, "options": {"expires": 55}},
    "stats-rebuild-nightly": {
        "task": "analytics.stats_rebuild_all",
        "schedule": crontab(hour=3, minute=30),
    },
}

# A full rebuild run in one process (generate_history, tests; the workers spread theirs over their processes)
# recomputes groups side by side in this many threads (each with its own database connection): while one waits for
# PostgreSQL's aggregates, another replays rounds in Python. SQLite always uses one.
STATS_REBUILD_THREADS = max(1, env_int("STATS_REBUILD_THREADS", 2))
# A group's refresh runs its independent aggregate queries on this many connections side by side (PostgreSQL).
STATS_REFRESH_THREADS = max(1, env_int("STATS_REFRESH_THREADS", 2))
# A group's refresh starts no sooner than this many milliseconds after its previous one started (rounds arriving
# meanwhile ride on it); 0 turns the spacing off.  A quiet group's round is refreshed at once.
STATS_REFRESH_SPACING_MS = max(0, env_int("STATS_REFRESH_SPACING_MS", 250))
# A game night (analytics.nights): a match started more than this many hours after the previous match of the group
# started or finished begins a new night (members can split or merge nights by hand).
NIGHT_GAP_HOURS = max(1, env_int("NIGHT_GAP_HOURS", 4))

CACHES = {
    "default": (
        {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": REDIS_URL,
            # a Redis outage must cost a request milliseconds, not hang it (the throttles then let it through)
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if REDIS_URL and not TESTING
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# --- auth ---------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "scorekeeper@localhost")
INVITE_DAYS = env_int("INVITE_DAYS", 7)
# How many proxies stand in front of the app and append the address they were connected from to X-Forwarded-For
# (nginx: $proxy_add_x_forwarded_for). 0: the client address is the connection's (REMOTE_ADDR) and the header is
# ignored; N: the N-th address from the end of the header (the one our outermost proxy appended), never the
# client-supplied start of it. The sign-in throttles and DRF's NUM_PROXIES count clients by this address.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
if TRUSTED_PROXIES < 0:
    _fail("TRUSTED_PROXIES", f"expected 0 or more proxies, got {TRUSTED_PROXIES}")
# Who may send those headers: the proxy's own address(es) or networks, or "*". The same variable, with the same
# default, is what gunicorn's forwarded_allow_ips and uvicorn's --forwarded-allow-ips read, so the app servers and
# the app agree. From any other address X-Forwarded-For/-Proto/-Host are dropped before anything reads them
# (config.middleware.ForwardedHeadersMiddleware): a client that reaches a web host's port directly is counted by
# its own address, whatever header it makes up.
FORWARDED_ALLOW_IPS = env_list("FORWARDED_ALLOW_IPS", ["127.0.0.1", "::1"])


def _forwarded_check(items: list[str]) -> None:
    import ipaddress

    for item in items:
        try:
            _ = item == "*" or ipaddress.ip_network(item, strict=False)
        except ValueError:
            _fail("FORWARDED_ALLOW_IPS", f"expected addresses or networks (or *), separated by commas; got {item!r}")


_forwarded_check(FORWARDED_ALLOW_IPS)
# Sign-in throttles (scoring/signin/limits.py), counted in the cache over a window of AUTH_LIMIT_WINDOW seconds:
# failed log-ins per account and per client address, sign-up attempts per address, password-reset requests per
# address and per e-mail address. The right password while an account or address is blocked does not log in.
AUTH_LIMIT_WINDOW = env_int("AUTH_LIMIT_WINDOW", 15 * 60)
AUTH_LIMITS = {
    "login_account": env_int("AUTH_LIMIT_LOGIN_ACCOUNT", 10),
    "login_ip": env_int("AUTH_LIMIT_LOGIN_IP", 30),
    "signup_ip": env_int("AUTH_LIMIT_SIGNUP_IP", 20),
    "reset_ip": env_int("AUTH_LIMIT_RESET_IP", 10),
    "reset_email": env_int("AUTH_LIMIT_RESET_EMAIL", 3),
}
# manage.py backup: where it writes and how many of the newest backups it keeps (0: all)
BACKUP_DIR = env_str("BACKUP_DIR", "") or str(BASE_DIR / "var" / "backups")
BACKUP_KEEP = env_int("BACKUP_KEEP", 14)

# --- i18n -----------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("hu", "Magyar")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- static -----------------------------------------------------------------------
STATIC_URL = "/static/"
# where collectstatic writes (and, with DEBUG=0, where the app reads the static manifest staticfiles.json from)
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
# The browser libraries come from npm (frontend/package.json; `make` installs them), not from copies in the tree.
BROWSER_DEPS = BASE_DIR / "frontend" / "node_modules"
STATICFILES_DIRS = [
    ("vendor/htmx", BROWSER_DEPS / "htmx.org" / "dist"),
    ("vendor/plotly", BROWSER_DEPS / "plotly.js-basic-dist-min"),
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- REST API -----------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "scoring.api.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_RATES": {
        "calculator": env_str("THROTTLE_CALCULATOR", "120/min"),
        "writes": env_str("THROTTLE_WRITES", "240/min"),
        "auth": env_str("THROTTLE_AUTH", "20/min"),
        # exports, game night pages and images, dashboards, what-if previews: per user, pages and API together
        "heavy": env_str("THROTTLE_HEAVY", "60/min"),
    },
    # the client address for every throttle: see TRUSTED_PROXIES (None would take the whole, forgeable header)
    "NUM_PROXIES": TRUSTED_PROXIES,
}
# heavy requests one user may have in progress at once (0: no limit); one more answers 429 at once
THROTTLE_HEAVY_AT_ONCE = env_int("THROTTLE_HEAVY_AT_ONCE", 2)
SPECTACULAR_SETTINGS = {
    "TITLE": "Scorekeeper API",
    "DESCRIPTION": "Scores, explanations and statistics for NJET, MÜ, Meinz, Was sticht?, Sticheln, "
    "Abluxxen, Muzicando and Coloretto.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # PATCH bodies are validated whole (ApiView.payload): document their required fields as required
    "COMPONENT_SPLIT_PATCH": False,
    # request bodies documented apart from responses, so that they carry their own constraints (minLength 1
    # on names that cannot be blank) and leave out read-only fields
    "COMPONENT_SPLIT_REQUEST": True,
    # /api/docs/ under the site's Content-Security-Policy: Swagger UI from the sidecar package's static files,
    # its start-up script from a URL of ours (SpectacularSwaggerSplitView) rather than inline, and no badge
    # fetched from the online validator.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # a match's state ("open"/"finished") appears in several answers: one enum of that name in the schema
    "ENUM_NAME_OVERRIDES": {"MatchStateEnum": "scoring.models.Match.State"},
}

# --- production hardening (all on when DEBUG=0) -------------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
_DEFAULT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self'; frame-ancestors 'none'; "
    "base-uri 'self'; form-action 'self'; object-src 'none'"
)
# On in production; in development only when CSP is set explicitly (CSP="" turns it off).
CONTENT_SECURITY_POLICY = env_str("CSP", "" if DEBUG else _DEFAULT_CSP)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=()"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}

# --- group import ---------------------------------------------------------------
# Export documents up to IMPORT_MAX_BYTES are read (a larger one is refused with 413); those above
# IMPORT_ASYNC_BYTES are imported by a Celery task with progress (the API answers 202 with a status URL).
IMPORT_MAX_BYTES = env_int("IMPORT_MAX_BYTES", 20 * 1024 * 1024)
IMPORT_ASYNC_BYTES = env_int("IMPORT_ASYNC_BYTES", 1024 * 1024)
IMPORT_JOB_TTL = 24 * 3600  # seconds a job's status (and its queued document) is kept
