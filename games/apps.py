from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from django.core import checks

        from .registry import check_board_templates

        checks.register(check_board_templates)
