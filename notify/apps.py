from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "notify"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # receivers connect the game signals; tasks are called by name (notify.outbox).
        from . import frame, receivers, tasks  # noqa: F401

        frame.register()
