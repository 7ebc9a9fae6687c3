from django.apps import AppConfig


class TalConfig(AppConfig):
    name = "tal"
    verbose_name = "Tal der Könige"

    def ready(self):
        from games import jinja, registry

        from . import lessons, reasons, review, scores, thumbnail
        from .engine import ENGINE, ENGINE_V1
        from .template_globals import GLOBALS

        # The games started before ruling 19 go on (and replay) by rules version 1.
        for engine in (ENGINE_V1, ENGINE):
            registry.register(
                engine,
                board_template="tal/board.html",
                rules_url_name="tal_rules",
                stylesheet="tal/board.css",
                shows_result=True,
                points=scores.points,
                points_label=scores.POINTS_LABEL,
                lesson=lessons.lesson,
                reason=reasons.reason,
                thumbnail=thumbnail.draw,
                story=review.story,
            )
        jinja.add_globals(**GLOBALS)
