"""Production: refuse to start without the settings that must not have defaults."""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403

for _name in ("SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS"):
    if not os.environ.get(_name) and not os.environ.get(f"{_name}_FILE"):
        raise ImproperlyConfigured(f"{_name} must be set in production")
if DEBUG:  # noqa: F405
    raise ImproperlyConfigured("DEBUG must be off in production (DEBUG=false)")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
