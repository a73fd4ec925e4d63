"""Document the error answers every operation can give, in the one error shape of the API."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from drf_spectacular.utils import OpenApiResponse

from .serializers import ErrorSerializer


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """`Authorization: Bearer <token>` (or `Token <token>`): tokens users make in the workspace."""

    target_class = "leagues.api.auth.BearerOrTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "An API token with the scopes the request needs."}


class AutoSchema(BaseAutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        errors = {"400": "Invalid input", "404": "Not found", "429": "Too many requests"}
        if self.method != "GET" or hasattr(self.view, "read_scope"):  # reads that need a token's scope
            errors |= {"401": "Not authenticated", "403": "Not allowed"}
        for status, description in errors.items():
            if status not in responses:
                responses[status] = self._get_response_for_code(
                    OpenApiResponse(ErrorSerializer, description=description), status
                )
        return responses
