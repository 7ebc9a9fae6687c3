"""What a player of King of Siam scored, for the profile's average: the followers they
had won when the game ended (the count the rules decide by, whichever faction rules)."""

from __future__ import annotations

from enginekit import N_

POINTS_LABEL = N_("followers won")


def points(result: dict) -> list[int] | None:
    followers = (result.get("details") or {}).get("followers")
    if not isinstance(followers, list):
        return None  # a game the site ended (time-out, resignation) before the scoring
    return [sum(seat.values()) for seat in followers]
