"""Django's email settings from the environment: EMAIL_URL, or the usual EMAIL_* variables.

EMAIL_URL forms: ``smtp://user:password@host:25`` (plain), ``smtp+tls://…:587`` (STARTTLS),
``smtps://…:465`` (TLS from the start), ``console://`` (printed), ``locmem://`` (kept in memory).
User and password are percent-decoded. Without EMAIL_URL: EMAIL_HOST and friends; with neither, the
console backend when DEBUG is on (``make demo``), else SMTP on localhost:25.
"""

from typing import Any
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_secret, env_str

BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
}


def email_settings(debug: bool) -> dict[str, Any]:
    url = env_secret("EMAIL_URL")
    settings: dict[str, Any] = {
        "EMAIL_TIMEOUT": env_int("EMAIL_TIMEOUT", 10),
        # the first retry of an email the mail server refused, in seconds; each next one waits twice as long
        "EMAIL_RETRY_SECONDS": env_int("EMAIL_RETRY_SECONDS", 10),
        "DEFAULT_FROM_EMAIL": env_str("DEFAULT_FROM_EMAIL", "chess-league <noreply@localhost>"),
    }
    settings["SERVER_EMAIL"] = env_str("SERVER_EMAIL", settings["DEFAULT_FROM_EMAIL"])
    if url:
        return settings | parse_email_url(url)
    host = env_str("EMAIL_HOST")
    if not host:
        backend = env_str("EMAIL_BACKEND", BACKENDS["console"] if debug else BACKENDS["smtp"])
        return settings | {"EMAIL_BACKEND": backend, "EMAIL_HOST": "localhost", "EMAIL_PORT": 25}
    return settings | {
        "EMAIL_BACKEND": env_str("EMAIL_BACKEND", BACKENDS["smtp"]),
        "EMAIL_HOST": host,
        "EMAIL_PORT": env_int("EMAIL_PORT", 25),
        "EMAIL_HOST_USER": env_str("EMAIL_HOST_USER"),
        "EMAIL_HOST_PASSWORD": env_secret("EMAIL_HOST_PASSWORD"),
        "EMAIL_USE_TLS": env_bool("EMAIL_USE_TLS", False),
        "EMAIL_USE_SSL": env_bool("EMAIL_USE_SSL", False),
    }


def parse_email_url(url: str) -> dict[str, Any]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in ("console", "locmem"):
        return {"EMAIL_BACKEND": BACKENDS[scheme]}
    if scheme not in ("smtp", "smtp+tls", "smtps"):
        raise ImproperlyConfigured(f"EMAIL_URL: unknown scheme {parts.scheme!r} (smtp, smtp+tls, smtps, console)")
    if not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL names no host")
    default_port = {"smtp": 25, "smtp+tls": 587, "smtps": 465}[scheme]
    return {
        "EMAIL_BACKEND": BACKENDS["smtp"],
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": parts.port or default_port,
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": scheme == "smtp+tls",
        "EMAIL_USE_SSL": scheme == "smtps",
    }
