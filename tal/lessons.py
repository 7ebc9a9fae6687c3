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
    """{"title": Message, "lines": [Message], "suggest": {"action", "reason"}} for the
    phase the viewer acts in (``suggest``: the move the lesson teaches, which "Suggest a
    move" names in a first game), or None."""
    if not view.get("actions"):
        return None
    found = LESSONS.get(view.get("phase"))
    if found is None:
        return None
    title, text = found
    actions = [entry["action"] for entry in view["actions"]]
    suggest = SUGGEST.get(view["phase"], _first)(view, actions)
    if suggest is None:
        suggest = {"action": actions[0], "reason": msg(text)}
    return {"title": msg(title), "lines": [msg(text)], "suggest": suggest}


def _first(view: dict[str, Any], actions: list[dict]) -> None:
    return None  # the first action offered, for the phase's rule


def _of_type(actions: list[dict], kind: str) -> dict | None:
    return next((a for a in actions if a["type"] == kind), None)


def _site_of(node: str) -> int | None:
    return int(node.split("-", 1)[0]) if "-" in node else None


def _suggest(action: dict | None, key: str, **args: Any) -> dict[str, Any] | None:
    return {"action": action, "reason": msg(key, **args)} if action is not None else None


def _bid(view: dict[str, Any], actions: list[dict]) -> dict[str, Any] | None:
    """One tile, the highest, on the first group: then finish bidding."""
    me = view.get("viewer")
    laid = any(bid["player"] == me for group in view["market"]["groups"] for bid in group["bids"])
    if laid:
        return _suggest(
            _of_type(actions, "end_bids"),
            N_("Your tile is laid: finish bidding; when everyone has, the tiles are turned over."),
        )
    bids = [a for a in actions if a["type"] == "bid"]
    if not bids:
        return None
    group = bids[0]["group"]
    best = max((a for a in bids if a["group"] == group), key=lambda a: a["rings"])
    return _suggest(
        best,
        N_("Lay your highest tile on group {group}: the highest total of rings buys its stones."),
        group=group,
    )


def _unclaimed(view: dict[str, Any]) -> set[int]:
    return {s["site"] for s in view["sites"] if s["in_play"] and s["owner"] is None}


def _own(view: dict[str, Any]) -> set[int]:
    return {s["site"] for s in view["sites"] if s["owner"] == view.get("viewer")}


def _overseer(view: dict[str, Any], actions: list[dict]) -> dict[str, Any] | None:
    free = _unclaimed(view)
    claim = next((a for a in actions if a["type"] == "move" and _site_of(a["to"]) in free), None)
    if claim is not None:
        return _suggest(
            claim,
            N_(
                "Move an overseer onto a field of site {site}: it claims the site for you, "
                "and there you build your pyramid."
            ),
            site=_site_of(claim["to"]),
        )
    return _suggest(_of_type(actions, "end_moves"), N_("No site is left to claim: end your moves."))


def _plan(view: dict[str, Any], actions: list[dict]) -> dict[str, Any] | None:
    me = view.get("viewer")
    seat = next(s for s in view["seats"] if s["seat"] == me)
    plan, standing = seat.get("plan") or [], seat["overseers"]
    free = _unclaimed(view)
    for index, target in enumerate(plan):
        if target is not None and target != standing[index]:
            continue  # planned already
        step = next(
            (
                a
                for a in actions
                if a["type"] == "plan" and a["index"] == index and _site_of(a["to"]) in free
            ),
            None,
        )
        if step is not None:
            return _suggest(
                step,
                N_(
                    "Plan an overseer onto a field of site {site}: when the plans are carried "
                    "out it claims the site, if nobody gets there first."
                ),
                site=_site_of(step["to"]),
            )
    return _suggest(
        _of_type(actions, "submit_plan"),
        N_("Your plan is ready: hand it in; nobody sees it until every plan is in."),
    )


def _worker(view: dict[str, Any], actions: list[dict]) -> dict[str, Any] | None:
    own = _own(view)
    onto = next((a for a in actions if a["type"] == "move" and _site_of(a["to"]) in own), None)
    if onto is not None:
        return _suggest(
            onto,
            N_("A worker on a field of your site {site} builds 2 stones there later this round."),
            site=_site_of(onto["to"]),
        )
    return _suggest(
        _of_type(actions, "end_moves"),
        N_("Your workers stand where they build: end your moves."),
    )


def _build(view: dict[str, Any], actions: list[dict]) -> dict[str, Any] | None:
    build = _of_type(actions, "build")
    if build is None:
        return None
    return _suggest(
        build,
        N_(
            "Build on your site {site}: a stone you do not build goes onto the Pharaoh "
            "pyramid and scores nothing for you."
        ),
        site=build["site"],
    )


SUGGEST = {
    "bid": _bid,
    "overseer": _overseer,
    "plan": _plan,
    "worker": _worker,
    "build": _build,
}
