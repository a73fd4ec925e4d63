"""One error shape for the whole API: {"code": stable machine code, "message": human text, ...}."""

import logging

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from ..errors import ServiceError, busy_error

log = logging.getLogger(__name__)


def api_exception_handler(exc, context):
    exc = _counted(exc, context)
    busy = busy_error(exc)
    if busy is not None:  # met another request in the database: rolled back whole, 409 and "try again"
        log.warning("request gave way to a concurrent one: %s", exc)
        exc = busy
    if isinstance(exc, ServiceError):
        return Response({"code": exc.code, "message": exc.message}, status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "message": _first_message(exc.detail), "fields": exc.detail}
        response.status_code = status.HTTP_400_BAD_REQUEST
    elif isinstance(exc, exceptions.APIException):
        response.data = {
            "code": exc.default_code if not hasattr(exc.detail, "code") else exc.detail.code,
            "message": str(exc.detail),
        }
    return response


REFUSED_BEFORE_THROTTLES = (exceptions.NotAuthenticated, exceptions.AuthenticationFailed, exceptions.PermissionDenied)


def _counted(exc, context):
    """DRF refuses an unauthenticated or forbidden request before its throttles run: count it now, so the
    answer carries the X-RateLimit-* headers too and a client over its limit gets 429 whatever it asks."""
    view, request = context.get("view"), context.get("request")
    if not isinstance(exc, REFUSED_BEFORE_THROTTLES) or view is None or request is None:
        return exc
    if hasattr(request._request, "rate_limit"):
        return exc  # counted already (refused by the view itself)
    for throttle in view.get_throttles():
        if not throttle.allow_request(request, view):
            return exceptions.Throttled(throttle.wait())
    return exc


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            return f"{key}: {_first_message(value)}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)
