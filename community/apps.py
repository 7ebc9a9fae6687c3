from django.apps import AppConfig


class CommunityConfig(AppConfig):
    name = "community"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import frame, receivers  # noqa: F401  (receivers: connects the game signals)

        frame.register()
