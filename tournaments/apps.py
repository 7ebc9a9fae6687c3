from django.apps import AppConfig
from django.db.models.signals import post_migrate


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import frame, receivers, tasks  # noqa: F401  (signals; the tasks' names)

        frame.register()
        post_migrate.connect(_default_ladders, sender=self)


def _default_ladders(sender, **kwargs) -> None:
    from .ladders import ensure_defaults

    ensure_defaults()
