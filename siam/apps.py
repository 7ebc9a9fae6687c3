from django.apps import AppConfig


class SiamConfig(AppConfig):
    name = "siam"
    verbose_name = "King of Siam"

    def ready(self):
        from games import jinja, registry

        from . import lessons, reasons, review, scores, thumbnail
        from .engine import ENGINE
        from .template_globals import GLOBALS

        registry.register(
            ENGINE,
            board_template="siam/board.html",
            rules_url_name="siam_rules",
            stylesheet="siam/board.css",
            shows_result=True,
            points=scores.points,
            points_label=scores.POINTS_LABEL,
            lesson=lessons.lesson,
            reason=reasons.reason,
            thumbnail=thumbnail.draw,
            story=review.story,
        )
        jinja.add_globals(**GLOBALS)
