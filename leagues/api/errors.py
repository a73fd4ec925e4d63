"""One error shape for the whole API: {"code": stable machine code, "message": human text, ...}."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from ..errors import ServiceError


def api_exception_handler(exc, context):
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


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            return f"{key}: {_first_message(value)}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)
