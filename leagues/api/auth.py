"""Who a token is and what it may do: `Authorization: Bearer <token>` (or `Token <token>`) and the one
scope check every view uses (TokenScope). Kept apart from the views: DRF's settings import this module."""

from hmac import compare_digest

from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework import permissions
from rest_framework.authentication import get_authorization_header
from rest_framework.exceptions import AuthenticationFailed

from ..models import Scope

PREFIXES = (b"bearer", b"token")


class BearerOrTokenAuthentication(TokenAuthentication):
    """knox's digest lookup under either prefix; a revoked or expired token answers 401."""

    def authenticate_credentials(self, token: bytes):
        """The token, its user and its scopes in one query (knox reads the user's every token on each request to
        delete the expired ones: api_token_create deletes them, and an expired token is deleted when it is shown)."""
        key = token.decode("ascii")
        now = timezone.now()
        candidates = AuthToken.objects.filter(token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH])
        for auth_token in candidates.select_related("user", "api_token"):
            if auth_token.expiry is not None and auth_token.expiry < now:
                auth_token.delete()
            elif compare_digest(hash_token(key), auth_token.digest):
                return self.validate_user(auth_token)
        raise AuthenticationFailed(_("Invalid token."))

    def authenticate(self, request):
        auth = get_authorization_header(request).split()
        if not auth or auth[0].lower() not in PREFIXES:
            return None
        if len(auth) != 2:
            raise AuthenticationFailed(_("Invalid token header: expected 'Bearer <token>'."))
        if not (auth[1].isascii() and auth[1].decode("ascii").isprintable()):
            raise AuthenticationFailed(_("Invalid token."))  # tokens are printable ASCII; nothing else is looked up
        return self.authenticate_credentials(auth[1])


class TokenScope(permissions.BasePermission):
    """The one scope check of the API. A session (the workspace's browser) acts with the user's roles; a
    token also needs the view's scope: `read` for reads, the view's `required_scope` (default `results`)
    for writes. What the user may do with the scope is still decided by the services."""

    message: str | Promise = gettext_lazy("This token's scopes do not allow this request.")

    def has_permission(self, request, view):
        if request.auth is None:
            return True
        token = getattr(request.auth, "api_token", None)
        if token is None:
            return False
        if request.method in permissions.SAFE_METHODS:
            needed = getattr(view, "read_scope", Scope.READ)
        else:
            needed = getattr(view, "required_scope", Scope.RESULTS)
        if token.allows(needed):
            return True
        self.message = _("This token lacks the '%(scope)s' scope.") % {"scope": needed}
        return False
