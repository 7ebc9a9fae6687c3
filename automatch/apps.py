from django.apps import AppConfig


class AutomatchConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "automatch"
    verbose_name = "Automatch"

    def ready(self) -> None:
        from . import frame, tasks  # noqa: F401  (tasks: the beat task's name)

        frame.register()
