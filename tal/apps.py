from django.apps import AppConfig


class TalConfig(AppConfig):
    name = "tal"
    verbose_name = "Tal der Könige"

    def ready(self):
        from games import jinja, registry

        from .engine import ENGINE
        from .template_globals import GLOBALS

        registry.register(
            ENGINE,
            board_template="tal/board.html",
            rules_url_name="tal_rules",
            stylesheet="tal/board.css",
            shows_result=True,
        )
        jinja.add_globals(**GLOBALS)
