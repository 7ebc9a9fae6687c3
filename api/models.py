"""Personal access tokens: a program acts for its person through the API (``api.tokens``)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# What a token may do: read (every GET), play (act, undo, the queue, agreements, the
# lobby, tournaments), chat (write in a game's chat).
SCOPES = (
    ("read", _("read: my games, positions, chat, the lobby")),
    ("play", _("play: moves, take-backs, joining and leaving games, agreements")),
    ("chat", _("chat: write in my games' chats")),
)


class Token(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    scopes = models.CharField(max_length=40)  # space-separated names of SCOPES
    # sha256 of the secret: the secret itself is shown once and stored nowhere.
    digest = models.CharField(max_length=64, unique=True)
    hint = models.CharField(max_length=12)  # the secret's first letters, to tell tokens apart
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"

    @property
    def scope_names(self) -> list[str]:
        return [name for name, _label in SCOPES if name in self.scope_set]

    @property
    def scope_set(self) -> frozenset[str]:
        return frozenset(self.scopes.split())


class BotAccount(models.Model):
    """An account that a program plays through the API (``api.botaccounts``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_account"
    )
    # Its person lets others challenge it (``GET /api/v1/bots``).
    listed = models.BooleanField(_("listed for challenges"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bot {self.user_id}"
