"""A suggested move's reason in words (``botplay``): the bot says why as a code and ids
(``bots.reasons``); this turns them into a Message for the player's view, with the names
that view gives the provinces and factions."""

from __future__ import annotations

from typing import Any

from enginekit import N_, Message, msg

PHRASES = {
    "siam.pass_takeover": N_(
        "Your pass ends the struggle: the {faction}, the faction you count on, take over "
        "{province}."
    ),
    "siam.pass_keep": N_(
        "Passing keeps your cards ({cards} left) for the struggles to come: no card played now "
        "gains more than it costs."
    ),
    "siam.pass_keep_leader": N_(
        "Passing keeps your cards ({cards} left) for the struggles to come: no card played now "
        "gains more than it costs, and the {faction} lead in {province}."
    ),
    "siam.lead": N_(
        "It puts the {faction}, the faction you count on, ahead in {province} ({ahead} to "
        "{behind} followers)."
    ),
    "siam.widen": N_(
        "It widens the lead of the {faction}, the faction you count on, in {province} ({ahead} "
        "to {behind} followers)."
    ),
    "siam.weaken": N_("It costs the {faction} their lead in {province}."),
    "siam.take": N_(
        "The {faction} look likeliest to rule {land} (about {chance} %): their followers count "
        "most in the end."
    ),
}


def reason(found: dict[str, Any], view: dict[str, Any]) -> Message | None:
    """The sentence for ``found`` (``bots.explain``), or None for a code of no title."""
    code = found["code"]
    if code == "siam.pass_keep" and found.get("faction") is not None and found.get("province"):
        code = "siam.pass_keep_leader"
    key = PHRASES.get(code)
    if key is None:
        return None
    args: dict[str, Any] = {}
    for name in ("cards", "ahead", "behind", "chance"):
        if name in found:
            args[name] = found[name]
    if found.get("province"):
        args["province"] = _province(view, found["province"])
    if found.get("faction") is not None:
        args["faction"] = view["factions"][found["faction"]]["name"]
    if "{land}" in key:
        args["land"] = view.get("land", "")
    return msg(key, **args)


def _province(view: dict[str, Any], province: str) -> str:
    return next((p["name"] for p in view.get("provinces") or [] if p["id"] == province), province)
