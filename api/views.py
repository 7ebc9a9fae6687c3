"""The token settings (part of the settings page) and the API's docs page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import botaccounts, tokens
from .forms import TokenForm


def settings_context(user) -> dict:
    """What the settings page shows of the person's tokens."""
    bot = botaccounts.BotAccount.objects.filter(user=user).first()
    return {
        "api_tokens": list(tokens.live_tokens(user)),
        "token_form": TokenForm(),
        "bot_account": bot,
        "may_become_bot": bot is None and botaccounts.may_become_bot(user),
    }


@login_required
def tokens_view(request):
    """GET: the settings page's token part; POST: a new token, its secret shown once."""
    if request.method != "POST":
        return redirect(reverse("settings") + "#api-tokens")
    form = TokenForm(request.POST)
    secret = None
    if form.is_valid():
        try:
            token, secret = tokens.make(
                request.user, form.cleaned_data["name"], form.cleaned_data["scopes"]
            )
        except tokens.TokenError:
            form.add_error(
                None,
                _("You have %(n)d tokens already: revoke one first.") % {"n": tokens.MAX_TOKENS},
            )
    context = {
        **settings_context(request.user),
        "token_form": TokenForm() if secret else form,
        "new_secret": secret,
    }
    return render(
        request, "api/tokens.html", context, status=200 if secret or form.is_valid() else 400
    )


@require_POST
@login_required
def revoke(request, token_id):
    if tokens.revoke(request.user, token_id):
        messages.success(request, _("The token was revoked: it works no more."))
    return redirect(reverse("settings") + "#api-tokens")


@require_POST
@login_required
def become_bot(request):
    try:
        botaccounts.become_bot(request.user)
        messages.success(request, _("This is a bot account now: it plays through the API."))
    except botaccounts.BotError as error:
        messages.error(request, str(error))
    return redirect(reverse("settings") + "#bot-account")


@require_POST
@login_required
def list_bot(request):
    botaccounts.set_listed(request.user, bool(request.POST.get("listed")))
    return redirect(reverse("settings") + "#bot-account")


def docs(request):
    return render(request, "api/docs.html")
