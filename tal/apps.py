from django.apps import AppConfig


class TalConfig(AppConfig):
    name = "tal"
    verbose_name = "Tal der Könige"

    def ready(self):
        from games import registry

        from . import lessons, scores
        from .engine import ENGINE

        registry.register(
            ENGINE,
            board_template="tal/board.html",
            rules_url_name="tal_rules",
            stylesheet="tal/board.css",
            shows_result=True,
            points=scores.points,
            points_label=scores.POINTS_LABEL,
            lesson=lessons.lesson,
        )
