"""Cursor pages for the big lists (games, players): stable under inserts, as fast on page 1,000 as on
page 1. `?offset=` still answers limit/offset pages with a count (deprecated for these lists)."""

from rest_framework.pagination import CursorPagination

from .pagination import Pagination


class CursorOrOffset(CursorPagination):
    _offset: Pagination | None
    ordering = "id"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 500

    def _offset_asked(self, request) -> bool:
        return "offset" in request.query_params

    def paginate_queryset(self, queryset, request, view=None):
        if self._offset_asked(request):
            self._offset = Pagination()
            return self._offset.paginate_queryset(queryset, request, view)
        self._offset = None
        return super().paginate_queryset(queryset, request, view)

    def get_paginated_response(self, data):
        if self._offset is not None:
            response = self._offset.get_paginated_response(data)
            response["Deprecation"] = "true"
            return response
        return super().get_paginated_response(data)

    def get_schema_operation_parameters(self, view):
        return [
            *super().get_schema_operation_parameters(view),
            {
                "name": "offset",
                "required": False,
                "in": "query",
                "description": "Deprecated: limit/offset pages (with a count) instead of cursor pages.",
                "schema": {"type": "integer", "minimum": 0},
            },
        ]
