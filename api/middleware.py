"""A bot account acts through the API only: its session may read the site and change
its settings, and nothing else (a move, a join, a chat line)."""

from django.shortcuts import render
from django.utils.translation import gettext as _

from .botaccounts import is_bot_account

# Where a bot account's person may still post from a browser.
ALLOWED = ("/api/", "/settings/", "/accounts/", "/language/")


class BotAccountsUseTheApi:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            request.method == "POST"
            and not request.path.startswith(ALLOWED)
            and is_bot_account(request.user)
        ):
            message = _("A bot account plays through the API only.")
            return render(request, "404.html", {"message": message}, status=403)
        return self.get_response(request)
