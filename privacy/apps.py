from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    name = "privacy"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.core import checks

        from . import operator

        # Only under --deploy: a development site needs no imprint.
        checks.register(operator.check_operator, "privacy", deploy=True)
        checks.register(operator.check_address_retention, "privacy")
