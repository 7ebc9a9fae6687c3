"""Starting a first game: the learner against one computer player of the easiest
strength, on the real engine, in a private game that only they see."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from games import extend, play, registry
from games.models import Game

from .models import Walkthrough

# Two seats: the learner and one computer. A week per move: a first game is played at
# leisure (and a practice game sends no turn mail, see notify.practice).
PLAYERS = 2
DAYS_PER_MOVE = 7


def titles() -> list[dict]:
    """What the lobby offers: each title that explains its steps, and each of its maps."""
    offered = []
    for kind in registry.kinds():
        if kind.lesson is None:
            continue
        maps = _choices(kind.engine, "map")
        for value, label in maps or [(None, kind.engine.name)]:
            offered.append({"kind": kind.slug, "map": value, "name": gettext(label)})
    return offered


def _choices(engine, option: str) -> list[tuple[str, str]]:
    for spec in engine.options_schema():
        if spec["name"] == option and spec["type"] == "choice":
            return [(value, label) for value, label in spec["choices"]]
    return []


def start(user, kind_slug, map_choice=None) -> Game:
    """A new first game of ``kind_slug`` (on ``map_choice``, for a title with maps)."""
    play.refuse_blocked(user)
    try:
        kind = registry.get(kind_slug) if isinstance(kind_slug, str) else None
    except KeyError:
        kind = None
    if kind is None or kind.lesson is None:
        raise play.PlayError(_("There is no first game of this kind."), 404)
    options = {}
    maps = dict(_choices(kind.engine, "map"))
    if maps:
        if map_choice not in maps:
            raise play.PlayError(_("Choose one of the maps."))
        options["map"] = map_choice
    computers = extend.computer_players()
    if computers is None:
        raise play.PlayError(_("No computer player can play here now."), 503)
    easiest = computers.strengths[0][0]
    name = _(maps[map_choice]) if maps else kind.name
    with transaction.atomic():
        game = play.create_game(
            user,
            kind,
            title=_("First game: %(name)s") % {"name": name},
            players=PLAYERS,
            options=options,
            time_limit_days=DAYS_PER_MOVE,
            private=True,
            computer_players=[easiest],
        )
        Walkthrough.objects.create(game=game, learner=user)
    return game
