from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "End-of-game review"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import frame

        frame.register()
