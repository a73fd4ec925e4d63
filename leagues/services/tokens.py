"""API tokens a user makes for themself: named, scoped, optionally expiring, shown once, stored hashed."""

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from knox.models import AuthToken

from ..errors import NotFound, PermissionDenied, ServiceError
from ..models import ApiToken, Scope


def api_token_create(
    *,
    user: User,
    name: str,
    scopes: list[str],
    expires_at: datetime | None = None,
    acting_token: ApiToken | None = None,
) -> tuple[ApiToken, str]:
    """A new token for `user`; returns (ApiToken, the token string, which is never shown again).
    A token that makes a token can give it only scopes it has itself, and never outlives it: without an expiry the
    new token expires with its maker, and a later expiry is refused."""
    name = name.strip()
    if not name:
        raise ServiceError(_("Give the token a name."), code="invalid")
    scopes = sorted(set(scopes))
    if not scopes or any(scope not in Scope.values for scope in scopes):
        raise ServiceError(
            _("Choose one or more scopes: %(scopes)s.") % {"scopes": ", ".join(Scope.values)}, code="invalid"
        )
    if expires_at is not None and expires_at <= timezone.now():
        raise ServiceError(_("The expiry date must be in the future."), code="invalid")
    if acting_token is not None and not all(acting_token.allows(scope) for scope in scopes):
        raise PermissionDenied(_("A token can only make tokens with scopes it has itself."))
    makers_expiry = acting_token.auth_token.expiry if acting_token is not None else None
    if makers_expiry is not None:
        if expires_at is None:
            expires_at = makers_expiry
        elif expires_at > makers_expiry:
            raise PermissionDenied(
                _("A token can only make tokens that expire no later than itself (%(expiry)s).")
                % {"expiry": makers_expiry.isoformat(timespec="seconds")}
            )
    with transaction.atomic():
        AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()  # expired: no use to anyone
        auth_token, key = AuthToken.objects.create(user=user, expiry=None)
        if expires_at is not None:
            AuthToken.objects.filter(pk=auth_token.pk).update(expiry=expires_at)
            auth_token.expiry = expires_at
        token = ApiToken.objects.create(auth_token=auth_token, name=name[:80], scopes=scopes, made_by=acting_token)
    return token, key


def api_token_revoke(*, user: User, token_key: str, acting_token: ApiToken | None = None) -> None:
    """Revoke one of the user's own tokens (by its shown prefix): it stops working at once, and so do the tokens
    it made, and theirs. A token that revokes a token may revoke only those whose scopes it has itself."""
    with transaction.atomic():
        revoked = ApiToken.objects.select_for_update().filter(auth_token__user=user, auth_token__token_key=token_key)
        if acting_token is not None:
            for token in revoked:
                if not all(acting_token.allows(scope) for scope in token.scopes):
                    raise PermissionDenied(_("A token can only revoke tokens with scopes it has itself."))
        made = _made_by(list(revoked.values_list("pk", flat=True)))
        AuthToken.objects.filter(user=user, pk__in=made).delete()
        deleted, _rows = AuthToken.objects.filter(user=user, token_key=token_key).delete()
    if not deleted:
        raise NotFound(_("You have no token %(key)s.") % {"key": token_key}, code="unknown_token")


def _made_by(makers: list[str]) -> set[str]:
    """The tokens made by these tokens, and by those, all the way down (their keys: knox's digests)."""
    made: set[str] = set()
    while makers:
        makers = [
            pk for pk in ApiToken.objects.filter(made_by__in=makers).values_list("pk", flat=True) if pk not in made
        ]
        made.update(makers)
    return made


def api_tokens_of(user: User) -> QuerySet[ApiToken]:
    """The user's tokens that still work, newest first."""
    now = timezone.now()
    return (
        ApiToken.objects.filter(auth_token__user=user)
        .exclude(auth_token__expiry__lt=now)
        .select_related("auth_token")
        .order_by("-auth_token__created")
    )
