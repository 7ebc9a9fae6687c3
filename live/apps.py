from django.apps import AppConfig


class LiveConfig(AppConfig):
    """Live updates: a game page, and any page of a signed-in player, hear of a change
    the moment it is committed (server-sent events), instead of polling for it."""

    name = "live"

    def ready(self) -> None:
        from . import parts, receivers  # noqa: F401  (receivers: connects the game signals)

        parts.register()
