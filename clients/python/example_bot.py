"""The example bot: takes up every challenge and plays every game of its token's account
on its turn, through the API alone, with a player of the site's ``bots`` package.

It reads each game as its seat sees it (``GET /games/{id}``: the engine's view, whose
``actions`` are the actions offered) and decides from that view alone
(``bots.choose_from_view``: the title's engine rebuilds a position from the view, the
other seats' secrets drawn at random), as the site's own computer player decides:

- ``random``: any offered action (by kind of action, seeded by the position);
- ``greedy`` (the default): the action whose turn scores best;
- ``strong``: a search of at most ``--playouts`` playouts within ``--seconds`` a decision.

A title whose engine the bot does not know (or one that cannot rebuild a position from a
view) is played at random.

    PYTHONPATH=<the repository> python example_bot.py --url URL --token TOKEN
        [--strength random|greedy|strong] [--seconds 1.0] [--playouts 200]
"""

from __future__ import annotations

import argparse
import hashlib
import random
from collections.abc import Callable
from typing import Any

from pbw_client import Bot, Client

from bots import STRENGTHS, Budget, choose_from_view
from bots.common import pick_random
from siam.engine import ENGINE as SIAM
from tal.engine import ENGINE as TAL
from tal.engine import ENGINE_V1 as TAL_V1

# (kind, rules version) -> engine: the API names both for every game it shows.
ENGINES: dict[tuple[str, int], Any] = {
    (engine.slug, engine.rules_version): engine for engine in (SIAM, TAL, TAL_V1)
}

Strategy = Callable[[dict[str, Any], str], dict[str, Any]]


def strategy(
    strength: str = "greedy", seconds: float | None = 1.0, playouts: int | None = 200
) -> Strategy:
    """How the bot picks an action in a game the API shows it (``Bot``'s strategy).
    ``seconds`` and ``playouts`` bound the strong player (the site's own budget by
    default; no clock, ``seconds=None``, makes its decisions reproducible)."""
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength: {strength!r}")
    budget = Budget(seconds=seconds, playouts=playouts)

    def choose(game: dict[str, Any], salt: str) -> dict[str, Any]:
        view = game["view"]
        offered = [entry["action"] for entry in view["actions"]]
        engine = ENGINES.get((game["kind"], game.get("rules_version", 0)))
        if strength == "random" or not hasattr(engine, "from_view"):
            return pick_random(offered, random.Random(hashlib.sha256(salt.encode()).digest()))
        action = choose_from_view(
            engine,
            view,
            game["my_seat"],
            strength,
            budget=budget,
            salt=salt,
            players=game["players"],
        )
        if action not in offered:  # a rebuilt position that is not the view's: a bug
            raise ValueError(f"{game['kind']} game {game['id']}: {action} is not offered")
        return action

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--strength", choices=STRENGTHS, default="greedy")
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="the strong player's time a decision"
    )
    parser.add_argument(
        "--playouts", type=int, default=200, help="the strong player's playouts a decision"
    )
    args = parser.parse_args()
    with Client(args.url, args.token) as client:
        Bot(client, strategy(args.strength, args.seconds, args.playouts)).run()


if __name__ == "__main__":
    main()
