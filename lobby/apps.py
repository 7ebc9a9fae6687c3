from django.apps import AppConfig


class LobbyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby"

    def ready(self) -> None:
        from . import frame, receivers  # noqa: F401  (receivers: connects the game signals)

        frame.register()
