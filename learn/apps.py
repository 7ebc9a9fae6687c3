from django.apps import AppConfig


class LearnConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "learn"

    def ready(self) -> None:
        from . import frame

        frame.register()
