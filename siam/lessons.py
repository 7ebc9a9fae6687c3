"""A first game's explanations (``learn``): the rule behind each step a King of Siam
player is asked to take, from the rules page (``rules_en.html`` / ``rules_de.html``),
read off that player's own view: what they see is what is explained."""

from __future__ import annotations

from typing import Any

from enginekit import N_, Message, msg

from .engine.maps import FACTION, FREE, KING, SWAP11, SWAP21


def lesson(view: dict[str, Any]) -> dict[str, Any] | None:
    """{"title": Message, "lines": [Message, ...], "suggest": {"action", "reason"}} for
    the step the viewer is asked to take (``suggest``: what the lesson teaches, the move
    "Suggest a move" names in a first game), or None when they are asked nothing."""
    return with_suggestion(_step(view), view)


def _step(view: dict[str, Any]) -> dict[str, Any] | None:
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
                suggest=_suggest(
                    actions[0]["action"], msg(N_("You have no card you may play now: you pass."))
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
            suggest=_card_to_play(view, actions, province),
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
            suggest=_follower_to_take(view, actions, land),
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


def _lesson(
    title: str, *lines: Message, suggest: dict[str, Any] | None = None, **title_args: Any
) -> dict[str, Any]:
    """The lesson, with the move it suggests (``suggest``: the action and its reason; by
    default the first one offered, for the rule the lesson explains)."""
    return {"title": msg(title, **title_args), "lines": list(lines), "suggest": suggest}


def with_suggestion(found: dict[str, Any] | None, view: dict[str, Any]) -> dict[str, Any] | None:
    """``found`` with the step's suggestion filled in where the lesson names none: a
    follower in the province fought over now, else the first action offered, with the
    lesson's rule as the reason."""
    if found is None or found["suggest"] is not None:
        return found
    actions = [entry["action"] for entry in view["actions"]]
    current = view.get("current_province")
    here = [a for a in actions if a.get("type") == "place" and a.get("province") == current]
    if here:
        mine = _favourite(view)
        here.sort(key=lambda a: a.get("faction") != mine)
        reason = msg(
            N_(
                "A follower in {province} counts in the struggle fought now: the faction with "
                "the most followers there takes it over."
            ),
            province=_current_name(view),
        )
        return {**found, "suggest": _suggest(here[0], reason)}
    return {**found, "suggest": _suggest(actions[0], found["lines"][0])}


def _suggest(action: dict[str, Any], reason: Message) -> dict[str, Any]:
    return {"action": action, "reason": reason}


def _card_to_play(view: dict[str, Any], actions: list[dict], province: str) -> dict[str, Any]:
    """The first game's first lesson is the struggle: a card that places followers,
    Khon Thai (one of each faction, anywhere) first, then a faction card."""
    kinds = {card["id"]: (card["kind"], card["name"]) for card in view.get("cards") or []}
    plays = [a["action"] for a in actions if a["action"].get("type") == "play"]
    order = {FREE: 0, FACTION: 1}
    plays.sort(key=lambda a: order.get(kinds.get(a["card"], ("", ""))[0], 2))
    card = kinds.get(plays[0]["card"], ("", plays[0]["card"]))[1]
    return _suggest(
        plays[0],
        msg(
            N_(
                "{card} puts followers on the board, and the faction with the most followers "
                "in {province} takes it over when everyone has passed. Passing places nothing."
            ),
            card=card,
            province=province,
        ),
    )


def _provinces_won(view: dict[str, Any]) -> dict[str, int]:
    """Per faction id: the provinces it holds or leads now."""
    won = {faction["id"]: 0 for faction in view.get("factions") or []}
    for province in view.get("provinces") or []:
        holder = province.get("controller")
        if holder is None:
            counts = province.get("followers") or {}
            ordered = sorted(counts.values(), reverse=True)
            if len(ordered) > 1 and ordered[0] > ordered[1]:
                holder = max(counts, key=counts.__getitem__)
        if holder in won:
            won[holder] += 1
    return won


def _favourite(view: dict[str, Any]) -> str | None:
    won = _provinces_won(view)
    return max(won, key=won.__getitem__) if won else None


def _follower_to_take(view: dict[str, Any], actions: list[dict], land: str) -> dict[str, Any]:
    """A follower of the faction that holds or leads the most provinces."""
    takes = [a["action"] for a in actions]
    favourite = _favourite(view)
    chosen = next((a for a in takes if a.get("faction") == favourite), takes[0])
    return _suggest(
        chosen,
        msg(
            N_(
                "Take a follower of the {faction}: they hold or lead the most provinces now, so "
                "they are the likeliest to rule {land}."
            ),
            faction=_faction_name(view, chosen.get("faction")),
            land=land,
        ),
    )


def _current_name(view: dict[str, Any]) -> str:
    current = view.get("current_province")
    return next((p["name"] for p in view.get("provinces") or [] if p["id"] == current), "")


def _faction_name(view: dict[str, Any], faction_id: str | None) -> str:
    return next((f["name"] for f in view.get("factions") or [] if f["id"] == faction_id), "")
