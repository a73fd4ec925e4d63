"""Production: refuse to start without the settings that must not have defaults, or with a placeholder."""

import os

from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int

from .base import *  # noqa: F403

for _name in ("SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS"):
    if not os.environ.get(_name) and not os.environ.get(f"{_name}_FILE"):
        raise ImproperlyConfigured(f"{_name} must be set in production")
if DEBUG:  # noqa: F405
    raise ImproperlyConfigured("DEBUG must be off in production (DEBUG=false)")


def _repeats(key: str) -> bool:
    """Mostly a few characters over and over ("abcde" ten times, give or take a few): some shift of the key
    matches itself in four places out of five (a random key's shifts match in about one in sixty)."""
    return any(
        sum(a == b for a, b in zip(key, key[shift:], strict=False)) >= 0.8 * (len(key) - shift)
        for shift in range(1, len(key) // 2 + 1)
    )


def _is_placeholder(key: str) -> bool:
    """Too short, too few distinct characters, repetitive, or a value copied from an example."""
    lowered = key.lower()
    return (
        len(key) < 50
        or len(set(key)) < 5
        or _repeats(key)
        or any(word in lowered for word in ("insecure", "change-me", "changeme"))
    )


if _is_placeholder(SECRET_KEY):  # noqa: F405
    raise ImproperlyConfigured(
        "SECRET_KEY is a placeholder or shorter than 50 characters (or repeats a few characters); production "
        "needs a random one, e.g. "
        'python -c "import secrets; print(secrets.token_urlsafe(50))"'
    )
if CELERY_TASK_ALWAYS_EAGER or not CELERY_BROKER_URL.startswith(("redis://", "rediss://")):  # noqa: F405
    raise ImproperlyConfigured(
        "CELERY_BROKER_URL must name the Redis broker in production (redis://:PASSWORD@HOST:6379/0); "
        "without it results would be recomputed inside the web process"
    )

# Database connections: a psycopg pool in each process (Django 5.2), each connection checked before it is
# handed out, so a restarted PostgreSQL costs no request an error. Sizing (docs/operations.md): a process's
# threads ≤ DB_POOL_MAX_SIZE, and every process's DB_POOL_MAX_SIZE added up ≤ PostgreSQL's max_connections.
# DB_POOL=false: persistent connections (CONN_MAX_AGE) with health checks instead.
_database = DATABASES["default"]  # noqa: F405
_database["CONN_HEALTH_CHECKS"] = True  # with the pool: ConnectionPool.check_connection at every checkout
if env_bool("DB_POOL", True) and _database["ENGINE"].endswith("postgresql"):
    _database["CONN_MAX_AGE"] = 0  # the pool keeps the connections (Django refuses both)
    _database.setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("DB_POOL_MIN_SIZE", 1),
        "max_size": env_int("DB_POOL_MAX_SIZE", 8),
        "timeout": env_int("DB_POOL_TIMEOUT", 10),  # seconds a request waits for a free connection
        "max_idle": 300,
    }

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)  # false only without TLS, e.g. a benchmark
# health probes (the image's HEALTHCHECK, load balancers) ask over plain HTTP inside the network
SECURE_REDIRECT_EXEMPT = [r"^ping$", r"^healthz$"]
# X-Forwarded-Proto is a client's word unless a proxy we run sets it (NUM_PROXIES in base)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if NUM_PROXIES else None  # noqa: F405
SESSION_COOKIE_HTTPONLY = True
# collected at image build: hashed names (cached for ever by browsers), compressed copies, a manifest
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# joining the browsers' HSTS preload list is a decision per domain (and hard to undo): SECURE_HSTS_PRELOAD=true
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
