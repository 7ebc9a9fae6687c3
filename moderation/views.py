from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.views import game_route

from . import reports


class ReportForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("What is wrong?"),
        max_length=reports.REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
    )


def _file(request, reported, message, back, context):
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            reports.file_report(request.user, reported, form.cleaned_data["reason"], message)
        except reports.ReportError as error:
            form.add_error("reason", str(error))
        else:
            messages.success(
                request, _("Thank you. Your report was received; a moderator will look at it.")
            )
            return redirect(back)
    return render(
        request,
        "moderation/report.html",
        {**context, "form": form, "reported": reported, "back": back},
        status=400 if form.errors else 200,
    )


@login_required
def report_player(request, username):
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    return _file(request, player, None, player_url(player), {})


def player_url(player) -> str:
    return reverse("profile", args=[player.username])


@game_route
def report_message(request, game):
    """Report one chat line of a game the reporter may see (``?message=<id>``)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        message_id = int(request.GET.get("message") or request.POST.get("message") or "")
    except (ValueError, OverflowError):
        message_id = None
    message = game.chat.filter(pk=message_id, hidden=False).select_related("user").first()
    if message is None:
        return render(request, "404.html", status=404)
    return _file(request, message.user, message, game.get_absolute_url(), {"message": message})


@require_POST
@login_required
def mute(request, username):
    player = get_object_or_404(get_user_model(), username=username)
    muted = request.POST.get("mute") != "0"
    try:
        reports.set_muted(request.user, player, muted)
    except reports.ReportError as error:
        messages.error(request, str(error))
    else:
        if muted:
            messages.success(
                request, _("You no longer see chat messages from %(name)s.") % {"name": player.name}
            )
        else:
            messages.success(
                request, _("You see chat messages from %(name)s again.") % {"name": player.name}
            )
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}):
        back = player_url(player)
    return redirect(back)
