"""Taking an event out of FIDE mode (issue #31): a page that warns what it means, then a form that needs a
reason and a ticked confirmation, by the one service every door uses (services.fide_mode)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import PermissionDenied, ServiceError
from ..models import Event
from ..permissions import is_league_organiser
from ..services.fide_mode import fide_mode_leave
from ..text import refuse_control_characters


class LeaveForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Why does the event leave FIDE mode?"),
        max_length=300,
        validators=[refuse_control_characters],
    )
    confirm = forms.BooleanField(
        label=gettext_lazy("I understand: the event leaves FIDE mode for good, and its TRF file says so."),
        required=False,
    )


@login_required
def fide_mode(request, slug):
    event = get_object_or_404(Event, slug=slug)
    if not is_league_organiser(request.user, event.league_id):
        raise DjangoPermissionDenied
    form = LeaveForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                fide_mode_leave(
                    event=event,
                    user=request.user,
                    confirmed=form.cleaned_data["confirm"],
                    reason=form.cleaned_data["reason"],
                )
            except PermissionDenied:
                raise DjangoPermissionDenied from None
            except ServiceError as exc:
                field = getattr(exc, "field", "")
                form.add_error(field if field in form.fields else None, exc.message)
            else:
                messages.success(request, _("The event has left FIDE mode."))
                return redirect("manage:event", slug=event.slug)
    return render(request, "leagues/manage/fide_mode.html", {"event": event, "form": form}, status=status)
