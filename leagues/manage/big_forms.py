"""Forms bigger than Django reads by default: a big open's round sheet.

Django refuses a form of more than DATA_UPLOAD_MAX_NUMBER_FIELDS fields (1,000) with a bare 400 before any view
runs. A round sheet sends a result and a version per board, with its token and reason: a 1,000-player open's 500
boards are 1,002 fields. A view marked `@many_fields` reads the form of a signed-in user up to
settings.ROUND_SHEET_MAX_BOARDS boards; every other form, and every form of an anonymous visitor, keeps Django's
limit. The middleware reads the form in process_view, before the CSRF check looks for its token in it.
"""

from urllib.parse import parse_qsl

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent
from django.http import QueryDict

FORM = "application/x-www-form-urlencoded"


def round_sheet_fields() -> int:
    """The most fields a round sheet sends: a result and a version a board, the token, the reason (and a margin)."""
    return 2 * settings.ROUND_SHEET_MAX_BOARDS + 10


def many_fields(view):
    """Mark a view whose form may have as many fields as the biggest round sheet."""
    view.form_max_fields = round_sheet_fields
    return view


def _form(body: bytes, max_fields: int) -> QueryDict:
    """The form as Django reads it (blank values kept, UTF-8 with its Latin-1 fallback), up to `max_fields`."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        text = body.decode("iso-8859-1")
    form = QueryDict(mutable=True)
    try:
        for key, value in parse_qsl(text, keep_blank_values=True, max_num_fields=max_fields):
            form.appendlist(key, value)
    except ValueError as exc:
        raise TooManyFieldsSent(f"The form has more than {max_fields} fields.") from exc
    form._mutable = False  # as request.POST always is
    return form


class ManyFieldsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        max_fields = getattr(view_func, "form_max_fields", None)
        if (
            max_fields is not None
            and request.method == "POST"
            and request.content_type == FORM
            and (request.encoding or "utf-8").lower() == "utf-8"
            and request.user.is_authenticated
        ):
            request.POST = _form(request.body, max_fields())
        return None
