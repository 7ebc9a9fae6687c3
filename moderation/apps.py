from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import frame

        frame.register()
