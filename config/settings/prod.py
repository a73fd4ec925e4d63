"""Production: refuse to start without the settings that must not have defaults."""

import os

from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int

from .base import *  # noqa: F403

for _name in ("SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS"):
    if not os.environ.get(_name) and not os.environ.get(f"{_name}_FILE"):
        raise ImproperlyConfigured(f"{_name} must be set in production")
if DEBUG:  # noqa: F405
    raise ImproperlyConfigured("DEBUG must be off in production (DEBUG=false)")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)  # false only without TLS, e.g. a benchmark
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
# joining the browsers' HSTS preload list is a decision per domain (and hard to undo): SECURE_HSTS_PRELOAD=true
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
