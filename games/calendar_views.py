"""The calendar feed and its "new link" button (the feed itself is in ``ical``)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from . import ical


@require_GET
def calendar_feed(request, token):
    user = ical.user_for_token(token)
    if user is None:
        raise Http404
    response = HttpResponse(ical.build(user), content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, max-age=300"
    return response


@login_required
@require_POST
def new_calendar_link(request):
    ical.new_link(request.user)
    messages.success(request, _("Your calendar has a new link; the old one no longer works."))
    return redirect("settings")
