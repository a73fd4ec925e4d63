"""Errors the services raise: each has a stable machine-readable code and a human message."""

from django.utils.translation import gettext_lazy as _


class ServiceError(Exception):
    code = "invalid"
    status = 400

    def __init__(self, message, *, code: str | None = None, current=None):
        super().__init__(str(message))
        self.message = message
        if code:
            self.code = code
        self.current = current


class NotFound(ServiceError):
    code = "not_found"
    status = 404


class PermissionDenied(ServiceError):
    code = "permission_denied"
    status = 403


class Conflict(ServiceError):
    """The change was based on stale data; `current` holds what is stored now."""

    code = "stale"
    status = 409


DEFAULT_PERMISSION_MESSAGE = _("You may not enter results for this game.")
