"""The settings page's forms for push devices, webhooks, chat handles and game channels."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Game

from . import netsafe
from .models import Events, Handle, PushDevice, Webhook


class EventsField(forms.MultipleChoiceField):
    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs):
        super().__init__(choices=Events.choices, required=False, label=_("Send"), **kwargs)


class DeviceForm(forms.ModelForm):
    events = EventsField()

    class Meta:
        model = PushDevice
        fields = ("name", "events", "quiet_hours", "digest")


class SubscriptionForm(forms.Form):
    """What the settings page's script posts: the browser's PushSubscription.toJSON()."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.RegexField(regex=r"^[A-Za-z0-9_-]{80,100}={0,2}$", max_length=200)
    auth = forms.RegexField(regex=r"^[A-Za-z0-9_-]{16,40}={0,2}$", max_length=100)
    name = forms.CharField(max_length=60, required=False)

    def clean_endpoint(self):
        endpoint = self.cleaned_data["endpoint"]
        try:
            netsafe.resolve(endpoint)
        except netsafe.Refused as error:
            raise forms.ValidationError(_("This push service cannot be reached.")) from error
        return endpoint


def check_url(url: str) -> str:
    try:
        netsafe.resolve(url)
    except netsafe.Refused as error:
        raise forms.ValidationError(
            _("The site cannot post to this address: %(reason)s."), params={"reason": error}
        ) from error
    return url


def url_field() -> forms.URLField:
    return forms.URLField(
        label=_("Webhook URL"),
        max_length=1000,
        assume_scheme="https",
        widget=forms.URLInput(attrs={"size": 50, "placeholder": "https://"}),
    )


class WebhookForm(forms.ModelForm):
    events = EventsField(initial=[Events.TURN, Events.REMINDER, Events.INVITED, Events.MENTION])
    url = url_field()

    class Meta:
        model = Webhook
        fields = ("service", "url", "events", "quiet_hours", "digest")

    def clean_url(self):
        return check_url(self.cleaned_data["url"])


class WebhookEditForm(forms.ModelForm):
    events = EventsField()

    class Meta:
        model = Webhook
        fields = ("events", "quiet_hours", "digest")


class GameChannelForm(forms.ModelForm):
    """A game's channel, set by its creator: every turn (mentioning who is to move),
    the start and the end of the game."""

    game = forms.ModelChoiceField(queryset=Game.objects.none(), label=_("Game"))
    url = url_field()

    class Meta:
        model = Webhook
        fields = ("game", "service", "url")

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].queryset = channel_games(user)

    def clean_url(self):
        return check_url(self.cleaned_data["url"])

    def clean_game(self):
        game = self.cleaned_data["game"]
        if Webhook.objects.filter(game=game).exists():
            raise forms.ValidationError(_("This game already has a channel."))
        return game


def channel_games(user):
    """The games ``user`` created that are still to be played."""
    if user is None or not user.is_authenticated:
        return Game.objects.none()
    live = [Game.Status.OPEN, Game.Status.ACTIVE]
    return Game.objects.filter(created_by=user, status__in=live).order_by("-pk")


class HandlesForm(forms.Form):
    """How the player is named on each chat service, for a game channel's mentions."""

    discord = forms.RegexField(
        regex=r"^\d{5,25}$",
        required=False,
        label=_("Discord user ID"),
        help_text=_("In Discord: Settings, Advanced, Developer Mode; then “Copy User ID”."),
    )
    slack = forms.RegexField(
        regex=r"^[UW][A-Z0-9]{4,20}$",
        required=False,
        label=_("Slack member ID"),
        help_text=_("In Slack: your profile, “Copy member ID” (it starts with U)."),
    )
    matrix = forms.RegexField(
        regex=r"^@[a-z0-9._=/+-]+:[A-Za-z0-9.-]+(:\d+)?$",
        required=False,
        label=_("Matrix user ID"),
        help_text=_("Like @name:matrix.org"),
    )

    def save(self, user) -> None:
        for service in ("discord", "slack", "matrix"):
            handle = self.cleaned_data.get(service, "").strip()
            if handle:
                Handle.objects.update_or_create(
                    user=user, service=service, defaults={"handle": handle}
                )
            else:
                Handle.objects.filter(user=user, service=service).delete()


def handles_initial(user) -> dict[str, str]:
    return dict(Handle.objects.filter(user=user).values_list("service", "handle"))
