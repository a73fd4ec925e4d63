"""Template context for every page: the leagues the logged-in user organises (the management menu), and how often a
page following a worker's task asks for its progress (PROGRESS_POLL_MS, static/progress.js)."""

from django.conf import settings
from django.utils.functional import SimpleLazyObject

from ..models import League
from ..permissions import organised_league_ids


def manage(request):
    user = getattr(request, "user", None)
    if not user or not user.is_authenticated:
        return {}

    def leagues():
        if user.is_superuser:
            return list(League.objects.all())
        return list(League.objects.filter(pk__in=organised_league_ids(user)))

    return {"manage_leagues": SimpleLazyObject(leagues), "progress_poll_ms": settings.PROGRESS_POLL_MS}
