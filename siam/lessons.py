"""A first game's explanations (``learn``): the rule behind each step a King of Siam
player is asked to take, from the rules page (``rules_en.html`` / ``rules_de.html``),
read off that player's own view: what they see is what is explained."""

from __future__ import annotations

from typing import Any

from enginekit import N_, Message, msg

from .engine.maps import FACTION, FREE, KING, SWAP11, SWAP21


def lesson(view: dict[str, Any]) -> dict[str, Any] | None:
    """{"title": Message, "lines": [Message, ...]} for the step the viewer is asked to
    take, or None when they are asked nothing."""
    actions = view.get("actions") or []
    if not actions:
        return None
    pending = view.get("pending")
    province = _current_name(view)
    invader = (view.get("invader") or {}).get("name", "")
    land = view.get("land", "")
    if pending is None:
        if all(a["action"].get("type") == "pass" for a in actions):
            return _lesson(
                N_("Nothing to play: pass"),
                msg(
                    N_(
                        "Every player has the same eight action cards and plays at most eight in "
                        "the game. The very last action card of the game may only be played if it "
                        "makes its player (or team) win; with none you may play, you pass."
                    )
                ),
            )
        return _lesson(
            N_("Your turn: play a card or pass"),
            msg(
                N_(
                    "The game is eight power struggles, one per province, in the order of the "
                    "track. Now {province} is fought over. On your turn you play one action card "
                    "or pass; passing does not stop you from playing a card later."
                ),
                province=province,
            ),
            msg(
                N_(
                    "When every player has passed in a row, the faction with the most followers "
                    "in {province} takes it over; on a tie, or if it is empty, the {invader} march "
                    "in. Four provinces to the {invader} end the game at once."
                ),
                province=province,
                invader=invader,
            ),
            msg(
                N_(
                    "In the end you want as many followers as possible of the faction that rules "
                    "{land}: the one with the most provinces."
                ),
                land=land,
            ),
        )
    card = pending.get("card_name", "")
    stage, kind = pending.get("stage"), pending.get("kind")
    if stage == "take":
        return _lesson(
            N_("Take a follower"),
            msg(
                N_(
                    "After carrying out a card, as far as it can be carried out, you must take one "
                    "follower from any province that has not been taken over yet and put it in "
                    "front of you. This is how you gain influence: count on the faction you "
                    "expect to rule {land}."
                ),
                land=land,
            ),
        )
    if kind == KING:
        return _lesson(
            N_("{card}: change the order of the struggles"),
            msg(
                N_(
                    "{card} swaps two face-up province tiles on the track and puts a King marker "
                    "on one of them: the provinces are fought over in another order. A tile with "
                    "a King marker can no longer be swapped."
                ),
                card=card,
            ),
            card=card,
        )
    if kind == FREE:
        return _lesson(
            N_("{card}: one follower of each faction"),
            msg(
                N_(
                    "{card} places one follower of each faction from the supply in any provinces, "
                    "the same or different ones. No follower is ever placed in a province that has "
                    "already been taken over."
                ),
                card=card,
            ),
            card=card,
        )
    if kind == FACTION:
        faction = _faction_name(view, (pending.get("to_place") or [None])[0])
        return _lesson(
            N_("{card}: two followers of one faction"),
            msg(
                N_(
                    "A faction card places two {faction} followers from the supply, in one or two "
                    "provinces next to a province the {faction} control, or next to their home "
                    "province as long as no other faction and no invader holds it. The board "
                    "outlines the provinces you may choose."
                ),
                faction=faction,
            ),
            card=card,
        )
    if kind == SWAP11:
        return _lesson(
            N_("1 vs 1: swap two followers"),
            msg(
                N_(
                    "1 vs 1 swaps one follower of one province with one follower of another "
                    "province. The provinces need not be neighbours, and the colours may be the "
                    "same. Right after another 1 vs 1 it may not undo that swap."
                )
            ),
        )
    if kind == SWAP21:
        return _lesson(
            N_("2 vs 1: two for one"),
            msg(
                N_(
                    "2 vs 1 swaps two followers of one province with one follower of a "
                    "neighbouring province. When no neighbouring pair allows it, it becomes a "
                    "one-for-one swap between neighbours."
                )
            ),
        )
    return None


def _lesson(title: str, *lines: Message, **title_args: Any) -> dict[str, Any]:
    return {"title": msg(title, **title_args), "lines": list(lines)}


def _current_name(view: dict[str, Any]) -> str:
    current = view.get("current_province")
    return next((p["name"] for p in view.get("provinces") or [] if p["id"] == current), "")


def _faction_name(view: dict[str, Any], faction_id: str | None) -> str:
    return next((f["name"] for f in view.get("factions") or [] if f["id"] == faction_id), "")
