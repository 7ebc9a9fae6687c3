"""What a player of Tal der Könige scored, for the profile's average: their points."""

from __future__ import annotations

from enginekit import N_

POINTS_LABEL = N_("points")


def points(result: dict) -> list[int] | None:
    found = (result.get("details") or {}).get("points")
    return list(found) if isinstance(found, list) else None
