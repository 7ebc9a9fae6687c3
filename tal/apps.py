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
            rules_url_name="tal_rules",
            stylesheet="tal/board.css",
            shows_result=True,
        )
