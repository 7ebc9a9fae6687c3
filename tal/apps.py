from django.apps import AppConfig


class TalConfig(AppConfig):
    name = "tal"
    verbose_name = "Tal der Könige"

    def ready(self):
        from games import registry

        from .engine import ENGINE

        registry.register(
            ENGINE,
            board_template="tal/board.html",
            stylesheet="tal/board.css",
        )
