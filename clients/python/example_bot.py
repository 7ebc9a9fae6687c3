"""The example bot: takes up every challenge and plays every game of its token's account
on its turn, through the API alone, with the random player of the site's ``bots``
package (by kind of action, seeded by the position, as the site's own computer player
decides): it works for every title.

    PYTHONPATH=<the repository> python example_bot.py --url URL --token TOKEN
"""

from __future__ import annotations

import argparse
import hashlib
import random
from typing import Any

from pbw_client import Bot, Client

from bots.common import pick_random


def choose(offered: list[dict[str, Any]], salt: str) -> dict[str, Any]:
    rng = random.Random(hashlib.sha256(salt.encode()).digest())
    return pick_random([entry["action"] for entry in offered], rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    args = parser.parse_args()
    with Client(args.url, args.token) as client:
        Bot(client, choose).run()


if __name__ == "__main__":
    main()
