"""Information-set Monte-Carlo tree search (single observer, determinised).

One tree for the deciding seat's information set. Every playout samples a
fresh position with the engine's ``determinize`` (the other seats' secrets
redrawn), walks the tree choosing among the actions legal in that sample
(UCB1, each child's count of how often it was available standing in for the
parent's visits), adds one node, plays on at random for ``ROLLOUT_ACTIONS``
actions (by kind, see :func:`bots.play.pick_random`; none by default: random
steps cost as much as tree steps and won no more games in King of Siam)
and scores the end with the result or the title's heuristic. Rewards are per
seat, and each node is judged by the seat that chose it, so the same search
serves two to four players.

Large action sets (Tal offers some ninety moves a step) would spread a small
budget so thin that no action is tried twice, so a node only considers as
many of its actions as its visits warrant (progressive widening). At the
root the actions come in the order of their one-step score (what the greedy
bot would play first), and each root child starts with that score as one
visit, so a small budget refines the greedy choice instead of replacing it
with noise; deeper down they come in random order.

Tal der Könige: why the search lost to its own heuristic, and what changed
==========================================================================
Measured (bench/bots.py and single games traced move by move, two seats, 200
playouts): the old strong bot won 83.8 % of 40 games against random and 40 %
of 10 against greedy. Traced games showed why:

1. The heuristic, not the budget. Both bots claimed large sites (an empty
   claimed large site was worth 0.9 points, a small one 0.3) and spread their
   stones over them; a large pyramid needs 14 stones and the Pharaoh pyramid
   (every stone not built goes onto it) ended the game after 3-5 rounds, so
   most games ended 0 : 0, a shared win. The search optimised that wrong
   score harder than greedy did. Greedy with the new heuristic
   (:func:`bots.heuristics.tal`: a pyramid counts by its chance to be finished
   before the Pharaoh pyramid is, held stones by what the workers can build
   this round, the auction by who may still outbid) beat greedy with the old
   one 78.8 % of 40 games; it finished 47 small pyramids to the old one's 2.
2. Leaves scored across phases. After ``end_build`` the tree went on into the
   next round's auction, where the heuristic credits the first bidder with
   every group it leads: ending the build early (and dumping fourteen stones
   onto the Pharaoh pyramid) scored 0.84 in the tree against 0.42 as it stood.
   For Tal the tree now holds the seat's own turn only
   (:func:`bots.policies.own_turn_only`); the other seats' answers are the
   heuristic's business. Greedy's turn finishing stopped at ``end_*`` too
   (:func:`bots.common.ends_turn`), which crossed into the next round as well.
3. Secret plans scored before they act. A plan step changes nothing on the
   board, so every plan scored alike; and the other seat, planning at the
   same time, chose in the tree knowing the bot's plan. Before a leaf is
   scored the plan is now handed in (:func:`bots.policies.tal_close`), the
   seats planning at the same time plan blind (by the default policy,
   outside the tree), and the plans are carried out.
4. Re-planning for ever. Weighing every plan again at each plan step let
   sampling noise rewrite the plan: one game had 292 plan steps (each a full
   search, most of the game's time). Each overseer is now planned once and a
   complete plan handed in (:func:`bots.policies.tal_choices`,
   :func:`bots.policies.tal_settled`).

Bids are determinised (the other seats' tiles redrawn, the ten-rings limit
kept) and simultaneous plans no longer leak; neither budget nor rollouts
were the cause (King of Siam, unchanged, keeps its figures). With these
changes the strong bot won 75 % of 20 games against the new greedy at 100
playouts (4.45 points a game to 1.00; 18 small pyramids finished to 6); the
benchmark's figures over 200 games are in the commit that records them.

Round 2 (two seats, strong against greedy, 200 games each): the speed-ups (same
decisions, some 1.8 times the playouts a second) bought no strength, because the
budget is not the limit: 100 playouts won 62.7 %, 400 won 62.5 %, 200 won 59.0 %;
EXPLORATION 0.1 won 60.0 %; a flatter score in the search
(:data:`bots.heuristics.TAL_SEARCH_SCALE`, two seats) 64.8 % and 62.5 % on a second
set of games. Against a table of mediums the strong seat won 1.57 times its fair
share in three seats and 0.88 in four. What is left is the model: the tree holds the
seat's own turn and scores it with the heuristic greedy plays by, and bids often all
score alike.

Round 3 (Tal, strong against greedy, 100 playouts; traces of single games with
the strong seat's bids, groups won, stones built and points). In four seats a game
lasts two or three rounds (the Pharaoh pyramid gains 16-20 stones a round) and is
won by whoever finishes a small pyramid, best of one colour. Two faults showed:

1. Bids. The heuristic gives a seat still to bid the chance ``TAL_OUTBID`` of
   passing any lead it can pass, so a lead of 4 rings was worth no more than one of
   7, and the search, which lays one tile a step, saw no gain in stacking tiles on
   a group short of the tenth ring (a sure win, four tiles deep). With three seats
   still to bid, every bid looked worthless: the strong start player of a round
   often laid nothing (once with the three black stones its half-built black
   pyramid needed on offer, which would have won the game). The search now counts
   a lead the safer the more rings a rival must lay to pass it
   (:func:`bots.heuristics.tal_auction_shares`, ``graded``); greedy keeps the old
   model.
2. The multi-seat score. Each seat was scored against its best rival only, so a
   move feeding a trailing seat cost nothing. In three and four seats the search
   now scores a seat against the mean of the others (``_against_field``); in two
   seats the two are the same.

Screening (40-60 games of ``bench/bots.py``, each scored by its ``_one_game``,
before -> after on the same games): the field score alone
4 seats 25.0 -> 43.8 % (games 0-39), 32.9 -> 43.8 % (100-159), 3 seats 47.5 ->
53.3 % (0-59); graded outbids on top: 4 seats 53.1 % (0-39) and 55.3 % (100-159), 3 seats
83.6 %, 2 seats 67.5 -> 74.2 % (0-59). Tried and dropped: a Pharaoh pyramid rate
per seat count in the rounds-left guess (4 seats, 17.5 stones a round: 32.1 %
against 25.0 % with the old score, 35.6 % against 43.8 % with the field score; 12
and 25 stones: 28.1 %, 24.6 %), the field score
at scale 0.25 or 1.0 (37.5 %, 36.4 % against 43.8 %), a graded divisor of 7
(49.6 % against 53.1 %), and letting stones in hand count for sites still to be
claimed or workers still to move (4.4-7.5 %: far worse). Benchmark
(``bench/bots.py --titles tal --pairs strong-greedy --playouts 100 --positions 0
--jobs 1``, before = main):

- ``--seats 3,4 --games 100``: 3 seats 46.2 % (1.39x fair) -> 79.3 % (70.4-86.1,
  2.38x); 4 seats 22.1 % (0.88x) -> 54.8 % (45.1-64.2, 2.19x).
- ``--seats 2 --games 200``: 64.2 % (57.4-70.6) -> 73.8 % (67.2-79.4).
  A fresh set (``--first-game 200``): 56.2 % (49.3-62.9) -> 72.5 % (65.9-78.2).
- ``--seats 2 --pairs strong-random --games 200 --positions 20``: 100 % (98.1-100);
  ``--seats 2,3,4 --games 0 --positions 20``: decision p90 at the default budget
  0.105 / 0.038 / 0.105 s (max 0.214 s).
- ``--seats 2 --games 200 --playouts 200`` (the site's default count; its clock of
  1 s does not bind): 59.0 % (52.1-65.6) -> 80.2 % (74.2-85.2).
- A fresh set (``--seats 3,4 --games 100 --first-game 100``): 3 seats 53.7 % (1.61x) -> 71.5 %
  (62.0-79.4, 2.15x); 4 seats 31.9 % (1.28x) -> 57.3 % (47.5-66.6, 2.29x).

Goals met at 100 playouts: two seats >= 65 % with the interval's lower end > 55 %
(also at 200), three and four seats >= 2x the fair share (4 seats: the interval's
lower end 1.8x and 1.9x, so "2x" holds for the estimate, not beyond doubt). What is
still not modelled: the other seats' replies (the tree holds the seat's own turn),
the colours of the stones a bid would bring, and how many rounds are left by seat
count (the guess assumes 8 stones a round on the Pharaoh pyramid; 4 seats add 16-20).
King of Siam plays exactly as before (six games, 2-4 seats, strong against greedy
at 50 playouts: the same actions on main and here).
"""

from __future__ import annotations

import bisect
import math
import random
from typing import Any

from . import policies
from .common import FINISH_TURN_LIMIT, Budget, Game, ends_turn, now, pick_random

EXPLORATION = 0.5
ROLLOUT_ACTIONS = 0  # random actions after the tree before the heuristic judges
# Progressive widening: a node with n visits considers WIDEN_BASE + sqrt(n) actions.
WIDEN_BASE = 3
# Root actions scored one step ahead for the order (beyond: a sample, then the rest at random).
PRIOR_WIDTH = 60
CLOCK_MARGIN = 0.03  # seconds kept for the last playout and the answer
SETTLE_LIMIT = 200  # steps played outside the tree before a leaf is scored (a bound)


class Node:
    __slots__ = (
        "action",
        "seat",
        "children",
        "visits",
        "available",
        "reward",
        "ranked",
        "untried",
        "places",
        "taken",
    )

    def __init__(self, action: dict[str, Any] | None = None, seat: int | None = None) -> None:
        self.action = action
        self.seat = seat  # who chose ``action`` to get here
        self.children: dict[tuple, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        # Root only: its children, the best one-step score first. Below the root, where
        # the choices are the same in every sample (policies.fixed_choices): the children
        # in the order of the choices, with (taken) their places in it, and (untried) the
        # choices without a child yet with (places) theirs; None until first reached.
        self.ranked: list[Node] = []
        self.taken: list[int] = []
        self.untried: list[dict[str, Any]] | None = None
        self.places: list[int] = []

    def ucb(self) -> float:
        mean = self.reward / self.visits
        return mean + EXPLORATION * math.sqrt(math.log(max(self.available, 1)) / self.visits)


def _key(seat: int, action: dict[str, Any]) -> tuple:
    # An engine builds each kind of action with its keys in one order, and the type
    # comes first, so the values tell actions apart: no sorting, no keys.
    return (seat, *action.values())


def _grow(node: Node, seat: int, rng: random.Random) -> Node:
    """A new child of a node with fixed choices, for an untried choice drawn as
    ``rng.choice(untried)`` would draw it, kept in the order of the choices."""
    drawn = rng.choice(range(len(node.untried)))
    child = Node(node.untried.pop(drawn), seat)
    place = node.places.pop(drawn)
    at = bisect.bisect(node.taken, place)
    node.taken.insert(at, place)
    node.ranked.insert(at, child)
    return child


def _settle(
    game: Game, position: Any, blind: set[int], rng: random.Random, close: policies.Closer
) -> Any:
    """Play on outside the tree until the position can be scored: seats choosing blind
    (at the same time as the bot) by the default policy, a secret choice handed in."""
    engine = game.engine
    for _ in range(SETTLE_LIMIT):
        if engine.result(position) is not None:
            break
        active = engine.active_seats(position)
        if not active:
            break
        if game.seat in active:
            blind |= active - {game.seat}
        blind &= active
        seat = game.seat if game.seat in active else min(active)
        action = close(position, seat)
        if action is None and seat in blind:
            action = pick_random(engine.legal_actions(position, seat), rng)
        if action is None:
            break
        position = game.apply(position, seat, action)
    return position


def _widening(node: Node) -> int:
    return WIDEN_BASE + int(math.sqrt(node.visits))


def _prime_root(game: Game, state: Any, root: Node, rng: random.Random) -> None:
    """Score the seat's actions as the greedy bot does: their order, and one visit each."""
    engine = game.engine
    sample = game.sample(state, rng)
    actions = policies.choices_for(engine)(
        sample, game.seat, engine.legal_actions(sample, game.seat)
    )
    scored = actions if len(actions) <= PRIOR_WIDTH else rng.sample(actions, PRIOR_WIDTH)
    finish = len(actions) <= FINISH_TURN_LIMIT  # as the greedy bot judges them
    close = policies.closer_for(engine)
    values = []
    for action in scored:
        position = game.apply(sample, game.seat, action)
        if finish and not ends_turn(action):
            position = game.finish_turn(position, rng)
        position = _settle(game, position, set(), rng, close)
        values.append((game.values(position)[game.seat], rng.random(), action))
    values.sort(key=lambda v: (-v[0], v[1]))
    for value, _, action in values:
        child = Node(action, game.seat)
        child.visits, child.reward = 1, value
        root.children[_key(game.seat, action)] = child
        root.ranked.append(child)
    root.visits = len(values)


def search(
    game: Game,
    state: Any,
    budget: Budget,
    rng: random.Random,
    started: float | None = None,
) -> dict[str, Any]:
    """The seat's action after at most ``budget``: its playouts, or its clock counted
    from ``started`` (the moment the decision began; now if not given), less the
    time one last playout may take."""
    engine = game.engine
    settled = policies.settled_for(engine)
    done = settled(state, game.seat)
    if done is not None:
        return done
    begun = now() if started is None else started
    deadline = None if budget.seconds is None else begun + budget.seconds - CLOCK_MARGIN
    root = Node()
    close = policies.closer_for(engine)
    own_turn = policies.own_turn_only(engine)
    fixed = policies.fixed_choices(engine)
    choices = policies.choices_for(engine)
    _prime_root(game, state, root, rng)
    playouts = 0
    while (budget.playouts is None or playouts < budget.playouts) and (
        deadline is None or now() < deadline
    ):
        playouts += 1
        position = game.sample(state, rng)
        node = root
        path = [root]
        blind: set[int] = set()
        # Only the seat's own tree moves so far: its choices are the ones of the node.
        pure = fixed
        # Selection and expansion.
        while True:
            if engine.result(position) is not None:
                break
            active = engine.active_seats(position)
            if not active:
                break
            if game.seat in active:
                # Seats deciding at the same time as this one (Tal's secret plans) must
                # not see its choice: they choose by the default policy, outside the tree.
                blind |= active - {game.seat}
            blind &= active
            seat = game.seat if game.seat in active else min(active)
            if seat in blind:
                position = game.apply(
                    position, seat, pick_random(engine.legal_actions(position, seat), rng)
                )
                pure = False
                continue
            done = settled(position, seat) if seat == game.seat else None
            if done is not None:
                position = game.apply(position, seat, done)
                pure = False
                continue
            if own_turn and (
                seat != game.seat or (node.action is not None and ends_turn(node.action))
            ):
                break
            width = _widening(node)
            untried = []
            present = []
            if node is root:
                # The seat's own choices are the same in every sample (its view lists
                # them): the ranked children made by _prime_root, the best first.
                present = root.ranked[:width]
            elif pure:
                if node.untried is None:
                    node.untried = choices(position, seat, engine.legal_actions(position, seat))
                    node.places = list(range(len(node.untried)))
                untried = node.untried
                present = node.ranked
            else:
                for action in choices(position, seat, engine.legal_actions(position, seat)):
                    child = node.children.get(_key(seat, action))
                    if child is None:
                        untried.append(action)
                    else:
                        present.append(child)
            # Widening below the root: only the first children made while visits are few.
            present = present[:width]
            for child in present:
                child.available += 1
            if untried and len(present) < width:
                if pure and node is not root:
                    child = _grow(node, seat, rng)
                else:
                    action = rng.choice(untried)
                    child = Node(action, seat)
                    node.children[_key(seat, action)] = child
                child.available = 1
                position = game.apply(position, seat, child.action)
                path.append(child)
                break
            node = max(present, key=Node.ucb)
            position = game.apply(position, seat, node.action)
            path.append(node)
        position = _settle(game, position, blind, rng, close)
        # Playout.
        for _ in range(ROLLOUT_ACTIONS):
            if engine.result(position) is not None:
                break
            seat = game.to_move(position)
            if seat is None:
                break
            position = game.apply(
                position, seat, pick_random(engine.legal_actions(position, seat), rng)
            )
        values = game.values(position)
        for visited in path:
            visited.visits += 1
            if visited.seat is not None:
                visited.reward += values[visited.seat]
    legal = engine.legal_actions(state, game.seat)
    mine = [c for c in root.children.values() if c.seat == game.seat and c.action in legal]
    return max(mine, key=lambda child: (child.visits, child.reward / child.visits)).action
