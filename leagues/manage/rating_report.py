"""The organiser's FIDE rating report of an event: the page and its TRF download (a team league's report, its
season's games from every match card, from leagues/services/rating_report_teams.py)."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render

from ..errors import PermissionDenied, ServiceError
from ..models import Event
from ..services.rating_report import rating_report, rating_report_trf
from ..services.rating_report_teams import team_rating_report, team_rating_report_trf


def _refusing(view):
    """Answer the service's refusal as the site's styled 403 (not the organiser) or 404 (a team event)."""

    def wrapped(request, slug):
        event = get_object_or_404(Event, slug=slug)
        try:
            return view(request, event)
        except PermissionDenied:
            raise DjangoPermissionDenied from None
        except ServiceError:
            raise Http404 from None

    return login_required(wrapped)


@_refusing
def rating_report_page(request, event):
    if event.is_team:
        team_report = team_rating_report(event=event, user=request.user)
        return render(request, "leagues/manage/rating_report_team.html", {"event": event, "report": team_report})
    report = rating_report(event=event, user=request.user)
    return render(request, "leagues/manage/rating_report.html", {"event": event, "report": report})


@_refusing
def rating_report_download(request, event):
    build = team_rating_report_trf if event.is_team else rating_report_trf
    response = HttpResponse(build(event=event, user=request.user), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-rating-report.trf"'
    response["Cache-Control"] = "private, no-store"
    return response
