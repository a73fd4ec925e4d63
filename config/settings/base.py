"""Settings shared by every environment; values come from the environment with safe defaults."""

from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.email import email_settings
from config.env import env_bool, env_int, env_list, env_secret, env_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_secret("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-development-key-only-for-debug"  # noqa: S105 - only with DEBUG on
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",  # only until migration 0009 has moved its tokens to knox
    "knox",
    "corsheaders",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "leagues",
    "tiebreaks",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "leagues.csp.content_security_policy",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "leagues.page_cache.CachedPageMiddleware",  # a current cached page for an anonymous reader: answered here
    "leagues.http_cache.PublicCacheMiddleware",  # before the session's: it sees (and drops) its Vary: Cookie
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "leagues.manage.big_forms.ManyFieldsMiddleware",  # before the CSRF check reads a big round sheet's form
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "leagues.api.middleware.ApiHeadersMiddleware",
    "leagues.busy.BusyMiddleware",  # a request that met another in the database: 409, "try again"
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "leagues.manage.context.manage",
            ],
            # dates written as the league of the page does (leagues/dates.py): in place of Django's date filter
            "builtins": ["leagues.templatetags.dates"],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_secret("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"), conn_max_age=env_int("CONN_MAX_AGE", 0)
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# reverse proxies in front of gunicorn that set X-Forwarded-For/-Proto; 0 means those headers are not trusted
NUM_PROXIES = env_int("NUM_PROXIES", 0)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# the login throttle of every login door (leagues/manage/login.py), counted in the shared cache
AUTHENTICATION_BACKENDS = ["leagues.manage.login.ThrottledModelBackend"]
LOGIN_ATTEMPTS = env_int("LOGIN_ATTEMPTS", 5)  # failed logins per username and address ...
LOGIN_ADDRESS_ATTEMPTS = env_int("LOGIN_ADDRESS_ATTEMPTS", 30)  # ... or per address, whatever the names ...
LOGIN_LOCKOUT_SECONDS = env_int("LOGIN_LOCKOUT_SECONDS", 900)  # ... within this time, then refused
PASSWORD_RESET_EMAILS = env_int("PASSWORD_RESET_EMAILS", 3)  # reset e-mails to one account ...
PASSWORD_RESET_ADDRESS_ATTEMPTS = env_int("PASSWORD_RESET_ADDRESS_ATTEMPTS", 10)  # ... reset requests per address ...
PASSWORD_RESET_WINDOW_SECONDS = env_int("PASSWORD_RESET_WINDOW_SECONDS", 3600)  # ... within this time

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("el", _("Greek")),
    ("tr", _("Turkish")),
    ("he", _("Hebrew")),
    ("nb", _("Norwegian Bokmål")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]  # English dates day-month-year (config/formats/en)
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "manage:dashboard"
LOGOUT_REDIRECT_URL = "leagues:home"

# Email (config/email.py): EMAIL_URL or EMAIL_HOST…; the console in `make demo`. Links in emails start with SITE_URL.
globals().update(email_settings(DEBUG))
EMAIL_RETRY_SECONDS: int  # set just above; named here for the type checker
# a follower's news (pairings, results) waits this long for more of the same event, then goes out in one e-mail
FOLLOW_DIGEST_SECONDS = env_int("FOLLOW_DIGEST_SECONDS", 60)
# the site's public address: links in emails, the printed pages' QR codes, the widgets' code, calendar entries (never
# the address a request came by: public pages are kept for every reader). Unset: the development server, or with DEBUG
# off the first name in ALLOWED_HOSTS over HTTPS.
_SITE_NAMES = [name.lstrip(".") for name in ALLOWED_HOSTS if name.lstrip(".") and "*" not in name]
SITE_URL = env_str(
    "SITE_URL", "http://127.0.0.1:8000" if DEBUG or not _SITE_NAMES else f"https://{_SITE_NAMES[0]}"
).rstrip("/")

# Celery: no broker configured means tasks run in-process, so `runserver` works alone.
CELERY_BROKER_URL = env_secret("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_BROKER_URL = (
    CELERY_BROKER_URL or "memory://localhost/"
)  # eager: nothing is sent (with a host: kombu stays quiet)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# a killed worker's unacknowledged task is handed out again after the visibility timeout
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 120),
    "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 10),
    "unacked_restore_throttle": 1,
    # a request publishes after its commit: a Redis that accepts and never answers costs it half a second
    # per try, never a hang (workers and beat wait as long as they need: config/celery.py)
    "socket_timeout": 0.5,
    "socket_connect_timeout": 0.5,
}
CELERY_TASK_IGNORE_RESULT = True
# a request sends its recompute after its commit: a broker that does not answer costs it about a second,
# never an error (the sweep sends what was missed)
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
# A TRF import of more players × rounds than this is confirmed at once and run by a worker, the page following
# its progress (leagues/services/trf_jobs.py); smaller ones are imported in the request. Measured with
# tests/bench/bench_import.py on the 2-core bench at load 4-5: 400 × 9 (3,600) confirmed in the request in about
# 1 s, 2,000 × 11 (22,000) imported by the task in about 3.7 s; 4,000 keeps a confirmation within a second or
# two on a busy machine, and every bigger file off the request.
TRF_IMPORT_IN_REQUEST_MAX = env_int("TRF_IMPORT_IN_REQUEST_MAX", 4000)
# A PGN text of an event's games longer than this (characters) is read, matched to the boards and attached by a
# worker, the page following its progress (leagues/services/pgn_jobs.py); a shorter one is read in the request (twice:
# the preview, then the attach). Measured on the 2-core machine under load 10-13 (tests/pgn_event.py's open): 200,000
# characters (about 450 games with their moves) read by python-chess in 1.1 to 4 s, a 2,000-game file (900,000) in
# 7 to 15 s, which no request should wait for.
PGN_ATTACH_IN_REQUEST_MAX_CHARS = env_int("PGN_ATTACH_IN_REQUEST_MAX_CHARS", 200_000)
# The most boards of a round a signed-in user's round sheet may send (a result and a version each): Django
# reads at most 1,000 fields of a form (DATA_UPLOAD_MAX_NUMBER_FIELDS, kept for every other form and for anonymous
# visitors), a 1,000-player open's sheet has 1,002 (leagues/manage/big_forms.py). 1,500 boards: a 3,000-player open.
ROUND_SHEET_MAX_BOARDS = env_int("ROUND_SHEET_MAX_BOARDS", 1500)
# the workers write it in the broker's Redis; /healthz reads it (leagues/broker.py)
WORKER_HEARTBEAT_KEY = env_str("WORKER_HEARTBEAT_KEY", "chess-league:worker-heartbeat")
# /healthz calls a queue stalled when it has had tasks waiting this long and no worker started one of them meanwhile
QUEUE_STALLED_SECONDS = env_int("QUEUE_STALLED_SECONDS", 300)
# Whole public pages are cached until the event changes (leagues/page_cache/). Several web processes
# must share the cache: Redis (CACHE_URL, else the broker's Redis); in-process memory without a broker.
CACHE_URL = env_secret("CACHE_URL") or (CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "")
CACHES: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": CACHE_URL,
        "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "chess-league"),
        "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
    }
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
}

# HTTP caching of public pages for readers who are not logged in (leagues/http_cache.py): browsers keep a
# page PUBLIC_MAX_AGE seconds, a CDN PUBLIC_S_MAXAGE, and may serve it stale while it asks again for
# PUBLIC_STALE_WHILE_REVALIDATE; short, because results come in live (a 304 answers the asking again)
PUBLIC_MAX_AGE = env_int("PUBLIC_MAX_AGE", 5)
PUBLIC_S_MAXAGE = env_int("PUBLIC_S_MAXAGE", 10)
PUBLIC_STALE_WHILE_REVALIDATE = env_int("PUBLIC_STALE_WHILE_REVALIDATE", 30)

# how often a page of a running round asks for itself again in the reader's browser (static/live.js), seconds
LIVE_REFRESH_SECONDS = env_int("LIVE_REFRESH_SECONDS", 30)
# how often a page following a worker's long task (a pairing, an import) asks for its progress (static/progress.js), ms
PROGRESS_POLL_MS = env_int("PROGRESS_POLL_MS", 1000)

# how long a web process trusts an event's page stamp before asking the shared cache again (seconds)
PAGE_STAMP_SECONDS = float(env_str("PAGE_STAMP_SECONDS", "1") or 0)

# a page whose render takes at least this long (milliseconds) is rendered by a worker after each change while one
# is alive, its readers getting the page as it was meanwhile (leagues/page_cache/worker.py); 0: web processes render all
PAGE_HEAVY_RENDER_MS = env_int("PAGE_HEAVY_RENDER_MS", 100)

# fault-injection for the pipeline tests only: seconds a recompute sleeps after reading the results
RECOMPUTE_TEST_DELAY = float(env_str("RECOMPUTE_TEST_DELAY", "0") or 0)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "standings-sweep": {"task": "leagues.tasks.standings_sweep", "schedule": env_int("SWEEP_SECONDS", 60)},
    "match-cards-auto-confirm": {"task": "leagues.tasks.match_cards_auto_confirm", "schedule": 3600},
    "match-cards-remind": {"task": "leagues.tasks.match_cards_remind", "schedule": 3600},
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "leagues.api.schema.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "leagues.api.auth.BearerOrTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
        "leagues.api.auth.TokenScope",
    ],
    "DEFAULT_PAGINATION_CLASS": "leagues.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "leagues.api.errors.api_exception_handler",
    "NUM_PROXIES": NUM_PROXIES,
    "DEFAULT_THROTTLE_CLASSES": [
        "leagues.api.throttling.AnonThrottle",
        "leagues.api.throttling.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_ANON_RATE", "600/minute"),
        "user": env_str("API_USER_RATE", "3000/minute"),
        # the open-data downloads (export.trf, export.json, CSV, XLSX, a season's zip) per address, whoever asks
        "export": env_str("API_EXPORT_RATE", "60/minute"),
    },
}
# the most requests of one API client a web process counts ahead in one Redis round trip: a busy client's next
# requests to that process ask Redis nothing (leagues/rate_limits.py, take); 1: every request asks Redis
API_COUNT_AHEAD = env_int("API_COUNT_AHEAD", 16)
# API tokens (knox): shown once, stored as SHA-512 digests; expiry is chosen per token
KNOX_TOKEN_MODEL = "knox.AuthToken"  # noqa: S105 - a model name, not a token
REST_KNOX = {"TOKEN_TTL": None, "TOKEN_PREFIX": "cl_", "AUTH_HEADER_PREFIX": "Bearer"}
# CORS: a club website's browser code may read the public API, never write (GET only)
CORS_URLS_REGEX = r"^/api/(v1|schema)/"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]
CORS_ALLOW_CREDENTIALS = False
CORS_EXPOSE_HEADERS = [
    "ETag",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "Link",
    "Retry-After",
    "X-Export-Built",
    "X-Export-Stale",
]
# webhooks: receivers on private, loopback or link-local addresses are refused unless this is on
WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = env_bool("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", False)
# the whole of one delivery (connecting, sending, the receiver's answer), whatever the receiver does
WEBHOOKS_TIMEOUT_SECONDS = env_int("WEBHOOKS_TIMEOUT_SECONDS", 5)
# the name servers that look up the receivers' names (comma-separated "address" or "address:port"); empty: the
# servers of /etc/resolv.conf. The lookup counts in the delivery's time above.
WEBHOOKS_DNS_SERVERS = env_list("WEBHOOKS_DNS_SERVERS", [])
# deliveries to one subscription under way at once, across every worker (more wait their turn)
WEBHOOKS_CONCURRENCY_PER_SUBSCRIPTION = env_int("WEBHOOKS_CONCURRENCY_PER_SUBSCRIPTION", 2)
WEBHOOKS_RETRY_SECONDS = env_int("WEBHOOKS_RETRY_SECONDS", 30)
WEBHOOKS_MAX_ATTEMPTS = 8
WEBHOOKS_PAUSE_AFTER_FAILURES = env_int("WEBHOOKS_PAUSE_AFTER_FAILURES", 5)
API_GUIDE = BASE_DIR / "docs" / "api-guide.md"  # served as the schema's description, at /api/docs/
SPECTACULAR_SETTINGS = {
    "TITLE": "chess-league API",
    "DESCRIPTION": API_GUIDE.read_text(encoding="utf-8") if API_GUIDE.exists() else "See docs/api-guide.md.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "ResultCodeEnum": "leagues.models.Result",
        "EventKindEnum": "leagues.models.Event.Kind",  # the events read and the event created (POST) share it
        "RegistrationStatusEnum": "leagues.models.Registration.Status",
        "RegistrationActionEnum": "leagues.api.registration.BULK_ACTIONS",
        "ByeKindEnum": "leagues.api.pairings.BYE_KINDS",  # a bye set by hand and a bye requested share it
        "CupDeciderResultEnum": "leagues.models.cups.CupTie.DeciderResult",  # not a game's result code
        "CupTieDecidedByEnum": "leagues.models.cups.CupTie.DecidedBy",  # not who decided a tie-break order
        "TiebreakDecidedByEnum": "leagues.services.tiebreak_decisions.DECIDED_BY",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "django.utils.autoreload": {"level": "WARNING"},  # runserver prints its own line
        # in-process tasks (no broker): one "task succeeded" line per saved result is noise
        **({"celery.app.trace": {"level": "WARNING"}} if CELERY_TASK_ALWAYS_EAGER else {}),
    },
}
