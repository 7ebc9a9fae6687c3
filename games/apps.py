from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from django.core import checks

        from . import extend, premoves
        from .registry import check_board_templates

        checks.register(check_board_templates)
        # The viewer's queue for their next turn shows on their page (games.premoves).
        extend.add_key_part(premoves.premove_key_sql(), name="games.premove")
