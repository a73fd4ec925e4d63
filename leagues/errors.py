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


class FieldError(ServiceError):
    """A refusal that belongs to one field of the form."""

    def __init__(self, field: str, message: str, *, code: str = "invalid") -> None:
        super().__init__(message, code=code)
        self.field = field


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


class Busy(ServiceError):
    """Another request changed the same rows at the same moment (a database deadlock or serialization failure):
    this one was rolled back whole, and asking again works."""

    code = "busy"
    status = 409


class ConfirmationNeeded(ServiceError):
    """The change is allowed but has a consequence the user must choose about first (sent again with the choice)."""

    status = 409


#: PostgreSQL's codes for a transaction given up because of another one: serialization failure, deadlock
BUSY_SQLSTATES = frozenset({"40001", "40P01"})


def busy_error(exc: BaseException) -> Busy | None:
    """A database deadlock or serialization failure as the error users read (409, try again); None otherwise."""
    cause = exc.__cause__ if exc.__cause__ is not None else exc
    if getattr(cause, "sqlstate", None) not in BUSY_SQLSTATES:
        return None
    return Busy(
        _("Someone else changed this event at the same moment, so nothing of this was saved. Please try again.")
    )


DEFAULT_PERMISSION_MESSAGE = _("You may not enter results for this game.")
