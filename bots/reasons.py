"""Why a bot would take an action, as data: a code and its parameters (ids and numbers,
never words), which the site puts into a sentence in the reader's language.

The reason is read off the bot's own evaluation (:mod:`bots.heuristics`): the action is
applied to a position sampled as the bot samples it (every secret of the other seats
redrawn), the rest of the turn played on as the greedy bot judges a turn, and the parts
of the heuristic that moved most are named: the struggle a follower helps win and the
faction counted on (King of Siam), the points a pyramid promises or scores, the group a
bid leads (Tal der Könige). Where none of them moved, the reason is the search itself.

Codes (parameters in brackets):

- ``siam.pass_takeover`` (province, faction): the pass ends the struggle, and the
  faction the seat counts on takes the province over;
- ``siam.pass_keep`` (cards, province, faction or None): nothing played now gains more
  than a card kept for a later struggle (``faction``: who leads the struggle now);
- ``siam.lead`` / ``siam.widen`` (province, faction, ahead, behind): the turn puts the
  faction the seat counts on ahead in a province / widens its lead there;
- ``siam.weaken`` (province, faction): the turn costs a rival faction its lead there;
- ``siam.take`` (faction, chance): the follower taken is of the faction most likely to
  rule (chance in per cent);
- ``tal.claim`` / ``tal.plan_claim`` (site, points): an overseer claims (or is planned to
  claim) a site whose pyramid can score up to ``points``;
- ``tal.guard`` / ``tal.contest`` (site): an overseer moved or planned onto a field of
  the seat's own site (where overseers keep thieves off) / another player's (where
  they count towards stealing and taking over);
- ``tal.submit`` (): the plan is complete;
- ``tal.worker`` (site): a worker now stands on a field of the seat's unfinished site;
- ``tal.complete`` (site, points): the stone finishes a pyramid, scoring ``points``;
- ``tal.build`` (site, colour, points): a stone on the seat's site, whose colours still
  allow ``points``;
- ``tal.bid_lead`` / ``tal.bid`` (group, stones): the tile makes the seat the highest
  bidder for a group (as far as it can know) / raises its bid there;
- ``tal.bluff`` (group): a tile of 0 rings, which the others cannot tell from a bid;
- ``tal.steal`` / ``tal.takeover`` (site);
- ``end`` (): nothing more this turn adds to the seat's prospects;
- ``best`` (tried): none of the above: of the actions weighed, this one came out best.
"""

from __future__ import annotations

import random
from typing import Any

from . import heuristics
from .common import Game, ends_turn

Reason = dict[str, Any]


def explain(
    engine: Any, state: Any, seat: int, action: dict[str, Any], players: int, salt: str = ""
) -> Reason:
    """The reason ``seat`` has for ``action`` in ``state``, from what that seat may know."""
    game = Game(engine, seat, players)
    rng = random.Random(f"reason:{salt}")
    before = game.sample(state, rng)
    after = game.apply(before, seat, action)
    turn = after if ends_turn(action) else game.finish_turn(after, rng)
    tried = len(engine.legal_actions(state, seat))
    explainer = _BY_TITLE.get(getattr(engine, "slug", ""))
    found = explainer(before, after, turn, seat, action, players) if explainer else None
    if found is not None:
        return found
    if action["type"].startswith("end_"):
        return {"code": "end"}
    return {"code": "best", "tried": tried}


# King of Siam -----------------------------------------------------------------------


def _leader(counts: list[int]) -> tuple[int | None, int, int]:
    """(the faction ahead or None on a tie, its followers, the runner-up's)."""
    ordered = sorted(counts, reverse=True)
    if ordered[0] == ordered[1]:
        return None, ordered[0], ordered[1]
    return counts.index(ordered[0]), ordered[0], ordered[1]


def _counted_on(state: Any, seat: int) -> int:
    """The faction whose rule is worth most to the seat: its followers there, weighed by
    the chance that faction rules (the heuristic's own sum)."""
    chances, _ = heuristics.siam_rule_chances(state)
    held = state.followers[seat]
    return max(range(3), key=lambda f: (chances[f] * held[f], chances[f]))


def _siam(before, after, turn, seat, action, players) -> Reason | None:
    kind = action["type"]
    favourite = _counted_on(turn, seat)
    if kind == "pass":
        won = [p for p in after.resolved if p not in before.resolved]
        if won and after.controller[won[0]] == favourite:
            return {"code": "siam.pass_takeover", "province": won[0], "faction": favourite}
        current = before.current()
        leader = _leader(before.counts[current])[0] if current else None
        return {
            "code": "siam.pass_keep",
            "cards": before.cards_left(seat),
            "province": current,
            "faction": leader,
        }
    if kind == "take":
        chances, _ = heuristics.siam_rule_chances(turn)
        taken = next(f for f in range(3) if after.followers[seat][f] > before.followers[seat][f])
        if taken == max(range(3), key=chances.__getitem__):
            return {"code": "siam.take", "faction": taken, "chance": round(100 * chances[taken])}
    current = before.current()
    # The struggle now first, then the others in the order they are fought over.
    for province in sorted(before.track, key=lambda p: p != current):
        if before.controller[province] is not None:
            continue
        was, was_ahead, was_behind = _leader(before.counts[province])
        now, ahead, behind = _leader(turn.counts[province])
        if now == favourite and was != favourite:
            code = "siam.lead"
        elif now == favourite and ahead - behind > was_ahead - was_behind:
            code = "siam.widen"
        elif was is not None and was != favourite and now != was:
            return {"code": "siam.weaken", "province": province, "faction": was}
        else:
            continue
        return {
            "code": code,
            "province": province,
            "faction": favourite,
            "ahead": ahead,
            "behind": behind,
        }
    return None


# Tal der Könige ---------------------------------------------------------------------


def _promise(site: Any) -> int:
    """The most a site's pyramid can still score, by the colours it holds."""
    return round(heuristics.tal_site_worth(site.size, site.levels, True))


def _field_site(node: str) -> int | None:
    return int(node.split("-", 1)[0]) if "-" in node else None


def _tal(before, after, turn, seat, action, players) -> Reason | None:
    kind = action["type"]
    if kind == "move":
        site = _field_site(action["to"])
        if site is None:
            return None
        if before.sites[site].owner != seat and after.sites[site].owner == seat:
            return {"code": "tal.claim", "site": site, "points": _promise(after.sites[site])}
        if action["figure"] == "worker" and after.sites[site].owner == seat:
            if not after.sites[site].finished:
                return {"code": "tal.worker", "site": site}
        if action["figure"] == "worker":
            return None
    if kind in ("move", "plan") and action.get("figure", "overseer") == "overseer":
        site = _field_site(action["to"])
        if site is None or not before.sites[site].in_play:
            return None
        owner = before.sites[site].owner
        if owner is None:
            return {"code": "tal.plan_claim", "site": site, "points": _promise(before.sites[site])}
        return {"code": "tal.guard" if owner == seat else "tal.contest", "site": site}
    if kind == "submit_plan":
        return {"code": "tal.submit"}
    if kind == "build":
        site = after.sites[action["site"]]
        if site.finished:
            return {"code": "tal.complete", "site": site.number, "points": _promise(site)}
        return {
            "code": "tal.build",
            "site": site.number,
            "colour": action["colour"],
            "points": _promise(site),
        }
    if kind == "bid":
        group = action["group"]
        stones = len(before.groups[group - 1])
        totals: dict[int, int] = {}
        for bidder, rings in after.bids[group - 1]:  # the first to lay a tile wins a tie
            totals[bidder] = totals.get(bidder, 0) + rings
        best = max(totals.values(), default=0)
        if action["rings"] == 0:
            return {"code": "tal.bluff", "group": group}
        if best > 0 and next(s for s, t in totals.items() if t == best) == seat:
            return {"code": "tal.bid_lead", "group": group, "stones": stones}
        return {"code": "tal.bid", "group": group, "stones": stones}
    if kind in ("steal", "takeover"):
        return {"code": f"tal.{kind}", "site": action["site"]}
    return None


_BY_TITLE = {"siam": _siam, "tal": _tal}
