from rest_framework.pagination import LimitOffsetPagination


class Pagination(LimitOffsetPagination):
    """Limit/offset pages; the limit is capped and a huge offset simply gives an empty page."""

    default_limit = 50
    max_limit = 500
    max_offset = 10**9

    def get_offset(self, request):
        return min(super().get_offset(request), self.max_offset)
