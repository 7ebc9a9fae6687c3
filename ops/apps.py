from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings
        from django.contrib import admin
        from django.utils.text import format_lazy
        from django.utils.translation import gettext_lazy as _

        from . import heartbeat, receivers  # noqa: F401  (receivers: the metrics' signals)

        heartbeat.connect()
        # The release in the admin's header: what an operator checks after an upgrade.
        admin.site.site_header = format_lazy(
            "{} · {}", _("Play by Web administration"), settings.VERSION
        )
