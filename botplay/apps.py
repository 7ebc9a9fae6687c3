from django.apps import AppConfig


class BotplayConfig(AppConfig):
    name = "botplay"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the game signals)
