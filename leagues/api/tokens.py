"""The endpoints where users make, list and revoke their own API tokens."""

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from ..models import Scope
from ..services.tokens import api_token_create, api_token_revoke, api_tokens_of
from .auth import TokenScope
from .serializers import ErrorSerializer


class TokenSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=Scope.choices), min_length=1)
    expires_at = serializers.DateTimeField(required=False, allow_null=True)
    prefix = serializers.CharField(read_only=True, help_text="The token's first characters, to recognise it.")
    created_at = serializers.DateTimeField(read_only=True)


class NewTokenSerializer(TokenSerializer):
    token = serializers.CharField(read_only=True, help_text="The token itself: shown in this answer only.")


def _shown(api_token, key=None) -> dict:
    data = {
        "name": api_token.name,
        "scopes": api_token.scopes,
        "expires_at": api_token.auth_token.expiry,
        "prefix": api_token.auth_token.token_key,
        "created_at": api_token.auth_token.created,
    }
    if key:
        data["token"] = key
    return data


class TokenListView(APIView):
    """Your API tokens: list them (prefixes only) or make one (the token is in this answer only)."""

    permission_classes = (permissions.IsAuthenticated, TokenScope)
    read_scope = Scope.TOKENS
    required_scope = Scope.TOKENS

    @extend_schema(responses={200: TokenSerializer(many=True), 401: ErrorSerializer, 403: ErrorSerializer})
    def get(self, request):
        tokens = [_shown(token) for token in api_tokens_of(request.user)]
        return Response(TokenSerializer(tokens, many=True).data)

    @extend_schema(request=TokenSerializer, responses={201: NewTokenSerializer})
    def post(self, request):
        body = TokenSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        token, key = api_token_create(
            user=request.user,
            name=body.validated_data["name"],
            scopes=body.validated_data["scopes"],
            expires_at=body.validated_data.get("expires_at"),
            acting_token=getattr(request.auth, "api_token", None),
        )
        return Response(NewTokenSerializer(_shown(token, key)).data, status=status.HTTP_201_CREATED)


class TokenDetailView(APIView):
    """Revoke one of your tokens by its prefix: it stops working at once."""

    permission_classes = (permissions.IsAuthenticated, TokenScope)
    read_scope = Scope.TOKENS
    required_scope = Scope.TOKENS

    @extend_schema(responses={204: None, 401: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer})
    def delete(self, request, prefix):
        api_token_revoke(user=request.user, token_key=prefix, acting_token=getattr(request.auth, "api_token", None))
        return Response(status=status.HTTP_204_NO_CONTENT)
