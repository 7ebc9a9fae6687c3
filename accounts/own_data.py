"""The pages of a player's own data: download it, delete the account (``accounts.export``,
``accounts.erase``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from . import erase, export


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=gettext_lazy("Your password"), widget=forms.PasswordInput, strip=False
    )
    username = forms.CharField(label=gettext_lazy("Your user name, typed out"), max_length=150)

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        if username != self.user.get_username():
            raise forms.ValidationError(_("Type your user name exactly as it is."))
        return username


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request):
    form = DeleteAccountForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            erase.delete_account(request.user)
        except erase.EraseError as error:
            messages.error(request, str(error))
            return redirect("settings")
        logout(request)
        messages.success(request, _("Your account has been deleted."))
        return redirect("/")
    return render(request, "accounts/delete_account.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def download_data(request):
    """GET: what the download holds; POST: the zip (rate-limited: it reads every game)."""
    if request.method == "POST":
        try:
            export.claim(request.user)
        except export.TooSoon as error:
            messages.error(request, str(error))
            return redirect("download_data")
        response = HttpResponse(export.archive(request.user), content_type="application/zip")
        name = f"my-data-{timezone.now():%Y-%m-%d}.zip"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    return render(request, "accounts/download_data.html")
