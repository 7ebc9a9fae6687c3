"""A first game's explanations (``learn``): the rule behind each phase a Tal der Könige
player is asked to act in, from the rules page (``rules_en.html`` / ``rules_de.html``),
read off that player's own view."""

from __future__ import annotations

from typing import Any

from enginekit import N_, msg

LESSONS = {
    "bid": (
        N_("Auction: buy stones"),
        N_(
            "Groups of five stones are for sale. Lay face-down bid tiles on the groups you want "
            "(at most 10 rings of yours on one group), then finish bidding. Each group goes to the "
            "highest total above 0; on a tie, to whoever laid a tile on it first. The tiles with 0 "
            "are for bluffing, and all tiles come back after the auction."
        ),
    ),
    "overseer": (
        N_("Overseers: claim building sites"),
        N_(
            "Move your two overseers openly, together at most 6 steps. One step crosses one "
            "line: from an area to a neighbouring area, from an area to a field that borders it, "
            "or to the next field of the same site. An overseer that ends on a field of an "
            "unclaimed site in play claims it with one of your scarabs."
        ),
    ),
    "plan": (
        N_("Overseers, in secret"),
        N_(
            "From round 2 everyone plans their overseers in secret: nobody sees your plan until "
            "every plan is in. Then all plans are carried out from the start player on; a planned "
            "field that is taken by then sends the overseer to the area that field borders."
        ),
    ),
    "worker": (
        N_("Workers: get ready to build"),
        N_(
            "Move your workers openly, together at most 6 steps. Later in the round you build 2 "
            "stones for each worker standing on a field of one of your own sites."
        ),
    ),
    "steal": (
        N_("Stealing (you may)"),
        N_(
            "Where you have more overseers on the fields of another player's site than its owner, "
            "and workers there, you may take up to 2 stones per worker from the top level of its "
            "unfinished pyramid. Stealing is optional: finish when you are done."
        ),
    ),
    "takeover": (
        N_("Taking over (you may)"),
        N_(
            "Where you have more overseers and more workers on another player's unfinished site "
            "than its owner, you may put your own scarab on it; the owner gets theirs back."
        ),
    ),
    "build": (
        N_("Building: score with colours"),
        N_(
            "On your own sites you build 2 stones per worker on their fields, level by level. A "
            "finished pyramid scores by its size and colours: one colour beats layers (each level "
            "one colour) beats mixed. Stones you cannot or will not build go onto the Pharaoh "
            "pyramid; when it is finished, the game ends."
        ),
    ),
}


def lesson(view: dict[str, Any]) -> dict[str, Any] | None:
    """{"title": Message, "lines": [Message]} for the phase the viewer acts in, or None."""
    if not view.get("actions"):
        return None
    found = LESSONS.get(view.get("phase"))
    if found is None:
        return None
    title, text = found
    return {"title": msg(title), "lines": [msg(text)]}
