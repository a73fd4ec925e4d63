"""A page request that met another one in the database (a deadlock or serialization failure; PostgreSQL rolled it
back whole) answers 409 with a page saying that nothing was saved and to try again, not a server error. The API
answers the same in its error shape (leagues/api/errors.py)."""

import logging

from django.shortcuts import render

from .errors import busy_error

log = logging.getLogger(__name__)


class BusyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        busy = busy_error(exception)
        if busy is None:
            return None
        log.warning("request gave way to a concurrent one: %s", exception)
        back = request.get_full_path()
        return render(request, "busy.html", {"message": busy.message, "back": back}, status=busy.status)
