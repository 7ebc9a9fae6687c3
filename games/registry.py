"""The engines the site can host, filled by each game app's AppConfig.ready().

Engines are kept per (slug, rules_version) so that a game started under an
older rules version keeps being replayed by the rules it was started with.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

GENERIC_BOARD = "games/board_generic.html"  # the legal actions as buttons, for any title


@dataclass(frozen=True)
class GameKind:
    engine: Any
    board_template: str = GENERIC_BOARD
    rules_url_name: str | None = None
    stylesheet: str | None = None  # a static path, linked on the game page
    # True when the board template shows the engine's result itself.
    shows_result: bool = False
    # What each seat scored by the title's own count, from a finished game's result
    # (None where it says nothing), and what that count is called (a msgid, e.g.
    # "points"): the profile's average per title. None: the title keeps no score.
    points: Callable[[dict], list[int] | None] | None = None
    points_label: str = ""
    # The rule behind the step a player is asked to take, from their view
    # (a walkthrough's explanation, see ``learn``): None where the title has none.
    lesson: Callable[[dict], Any] | None = None
    # A suggested move's reason in words: the bot's reason (``bots.explain``: a code and
    # ids) and the player's view -> a Message, or None for a code the title does not
    # phrase (``botplay`` phrases the codes every title shares).
    reason: Callable[[dict, dict], Any] | None = None
    # A small drawing of the board (SVG markup, escaped) from a spectator's view, for
    # the lists of games to watch (``games.thumbnails``). None: the title draws none.
    thumbnail: Callable[[dict], str] | None = None
    # The story of a finished game, read from the public view after each position
    # (position 0 first): each seat's points as the game went and the chapters worth
    # telling (the end-of-game review, ``review``). None: the title tells none.
    story: Callable[[Iterable[dict]], dict] | None = None

    @property
    def slug(self) -> str:
        return self.engine.slug

    @property
    def name(self) -> str:
        """In the reader's language: engines keep English names, marked for translation."""
        return gettext(self.engine.name)


_kinds: dict[tuple[str, int], GameKind] = {}
_current: dict[str, int] = {}


def register(
    engine: Any,
    board_template: str = GENERIC_BOARD,
    rules_url_name: str | None = None,
    stylesheet: str | None = None,
    shows_result: bool = False,
    points: Callable[[dict], list[int] | None] | None = None,
    points_label: str = "",
    lesson: Callable[[dict], Any] | None = None,
    reason: Callable[[dict, dict], Any] | None = None,
    thumbnail: Callable[[dict], str] | None = None,
    story: Callable[[Iterable[dict]], dict] | None = None,
) -> None:
    _kinds[(engine.slug, engine.rules_version)] = GameKind(
        engine,
        board_template,
        rules_url_name,
        stylesheet,
        shows_result,
        points,
        points_label,
        lesson,
        reason,
        thumbnail,
        story,
    )
    _current[engine.slug] = max(_current.get(engine.slug, 0), engine.rules_version)


def unregister(slug: str) -> None:
    for key in [k for k in _kinds if k[0] == slug]:
        del _kinds[key]
    _current.pop(slug, None)


def get(slug: str, rules_version: int | None = None) -> GameKind:
    """The kind for slug, at rules_version (the newest if None). KeyError if unknown."""
    return _kinds[(slug, rules_version if rules_version is not None else _current[slug])]


def kinds() -> list[GameKind]:
    return [_kinds[(slug, version)] for slug, version in sorted(_current.items())]


def check_board_templates(app_configs=None, **kwargs) -> list:
    """A Django system check: every registered title's board template exists. A
    misspelt name would otherwise fail on the first game page of that title."""
    from django.core import checks
    from django.template import TemplateDoesNotExist
    from django.template.loader import get_template

    problems = []
    for kind in kinds():
        try:
            get_template(kind.board_template)
        except TemplateDoesNotExist:
            problems.append(
                checks.Error(
                    f"The board template {kind.board_template!r} of {kind.slug!r} does not exist.",
                    hint="Fix the name given to games.registry.register, or leave it out "
                    "for the generic board.",
                    id="games.E001",
                )
            )
    return problems
