"""Document the error answers every operation can give, in the one error shape of the API."""

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from drf_spectacular.utils import OpenApiResponse

from .serializers import ErrorSerializer


class AutoSchema(BaseAutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        errors = {"400": "Invalid input", "404": "Not found", "429": "Too many requests"}
        if self.method != "GET":
            errors |= {"401": "Not authenticated", "403": "Not allowed"}
        for status, description in errors.items():
            if status not in responses:
                responses[status] = self._get_response_for_code(
                    OpenApiResponse(ErrorSerializer, description=description), status
                )
        return responses
