from django.apps import AppConfig


class NotesConfig(AppConfig):
    name = "notes"
    verbose_name = "Private notes"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import frame

        frame.register()
