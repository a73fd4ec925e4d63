from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination


class Pagination(LimitOffsetPagination):
    """Limit/offset pages: each a whole number (400 otherwise); the limit is capped at 500 and a huge offset
    simply gives an empty page."""

    default_limit = 50
    max_limit = 500
    max_offset = 10**9

    def _whole_number(self, request, name, minimum):
        value = request.query_params.get(name)
        if value is None or value == "":
            return None
        if not (value.isascii() and value.isdigit()) or len(value) > 12 or int(value) < minimum:
            raise ValidationError({name: [_("Expected a whole number of at least %(n)s.") % {"n": minimum}]})
        return int(value)

    def get_limit(self, request):
        limit = self._whole_number(request, self.limit_query_param, 1)
        return self.default_limit if limit is None else min(limit, self.max_limit)

    def get_offset(self, request):
        offset = self._whole_number(request, self.offset_query_param, 0)
        return 0 if offset is None else min(offset, self.max_offset)
