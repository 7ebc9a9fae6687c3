from django.apps import AppConfig


class AgreementsConfig(AppConfig):
    name = "agreements"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import frame

        frame.register()
