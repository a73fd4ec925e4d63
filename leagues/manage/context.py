"""Template context for every page: the leagues the logged-in user organises (the management menu)."""

from django.utils.functional import SimpleLazyObject

from ..models import League, Role


def manage(request):
    user = getattr(request, "user", None)
    if not user or not user.is_authenticated:
        return {}

    def leagues():
        if user.is_superuser:
            return list(League.objects.all())
        ids = Role.objects.filter(user=user, kind=Role.Kind.ORGANISER).values_list("league_id", flat=True)
        return list(League.objects.filter(pk__in=ids))

    return {"manage_leagues": SimpleLazyObject(leagues)}
