"""Tal der Könige (Christian Beierer, Kosmos 1991/92) as a pure-Python engine.

``tal.engine.ENGINE`` follows the protocol of :mod:`enginekit` (setup from a seed,
per-viewer ``view``, atomic actions). Rules: ``tal-der-koenige.de.txt`` (authority) and
``tal-der-koenige-board.md`` (board graph, pieces, points, rulings). Nothing here imports
Django or the site.

Options: ``{"advanced": bool, "expert": bool}`` (both default False). ``advanced``: unsold
groups go onto the Pharaoh pyramid instead of back into the bag. ``expert``: stripe
pyramids score (small 2, large 7).

Rules versions: 2 (``ENGINE``, every new game) and 1 (``ENGINE_V1``, games started before
ruling 19); a game is replayed by the version it was started with.

Nodes
=====
A node is a string: an area ``"16"`` .. ``"22"`` or a build field ``"<site>-<letter>"``
(``"15-B"``). ``tal.engine.board`` holds the graph (``NODES``, ``NEIGHBOURS``, ``DIST``,
``SITES``, ``FIELD_AREA``). Pyramid positions: a level with side ``s`` has slots
``0 .. s*s-1``, slot ``k`` is row ``k // s``, column ``k % s``; level 0 is the bottom.
A large pyramid's level-0 slot 4 is the hidden centre stone.

Round and phases (``view["phase"]``)
====================================
``bid`` (sequential from the start player) -> reveal -> ``overseer`` (round 1, sequential,
open) or ``plan`` (round 2+, all seats at once, secret) -> reveal and carry out ->
``worker`` (sequential) -> ``steal`` -> ``takeover`` -> ``build`` (sequential) -> the start
player passes to the next seat -> next round, or ``finished``.
In ``steal``, ``takeover`` and ``build`` a seat with nothing to decide is skipped (a seat
holding stones it cannot build anywhere has them put onto the Pharaoh pyramid at once).

Action vocabulary (``legal_actions`` lists exactly the legal ones)
===================================================================
- ``{"type": "bid", "group": g, "rings": r}``: lay one face-down tile worth ``r`` rings
  (a value the seat still holds) on group ``g`` (1-based); at most 10 rings per group.
- ``{"type": "end_bids"}``: done laying tiles (hands the turn on; the last one reveals).
- ``{"type": "move", "figure": "overseer"|"worker", "index": i, "to": node}``: move one
  figure (overseers 0-1, workers 0-4) once this phase, to a free node within the steps left
  (never a field of a site out of play: ruling 19)
  (6 a phase for overseers together, 6 for workers together). Round 1: not onto fields of
  another player's site. Moving an overseer onto a field of an unowned site in play claims it.
- ``{"type": "end_moves"}``: done moving (overseers in round 1, workers every round).
- ``{"type": "plan", "index": i, "to": node}``: (secret) plan overseer ``i`` to ``node``;
  the plan starts as "both stay" and each action changes one overseer's target. Only plans
  of at most 6 steps in total are offered.
- ``{"type": "submit_plan"}``: commit the plan; when every seat has, all plans are revealed
  and carried out in turn order.
- ``{"type": "steal", "site": s, "slot": k}``: take the stone in slot ``k`` of the top
  level of site ``s``.
- ``{"type": "end_steal"}``, ``{"type": "takeover", "site": s}``, ``{"type": "end_takeover"}``.
- ``{"type": "build", "site": s, "slot": k, "colour": c}``: put a stone of colour ``c``
  (one of ``red grey black white ochre``) into slot ``k`` of the lowest unfinished level
  of own site ``s``. Only positions that can matter are offered: in the expert variant
  every free slot, otherwise the hidden centre and the first free other slot of a large
  pyramid's bottom level, and the first free slot elsewhere.
- ``{"type": "end_build"}``: put the remaining stones (if any) onto the Pharaoh pyramid and
  end the turn. Every turn ends with an explicit ``end_*`` action (or ``submit_plan``).
Steals are offered the same way (one slot per colour and kind of position, every stone in
the expert variant).

View shape (``view(state, viewer)``, JSON)
==========================================
Protocol keys ``active_seats``, ``prompt``, ``actions``, ``log``, ``finished`` plus:
``game`` "tal", ``players``, ``options``, ``round``, ``phase``, ``start_player``,
``current_player`` (None in ``plan``), ``viewer``, ``result`` (a Result once finished),
``bag`` {count, colours{colour: n}} (the colour counts follow from public information; the
order does not exist, draws come from the state's random.Random),
``market`` {revealed, groups: [{group, stones[] (as offered; kept after the reveal), sold,
winner, bids: [{player, tiles, rings[]?, total?}]}]} (``bids`` in the order the seats first
laid a tile there; ``rings``/``total`` only for the viewer's own tiles until the reveal),
``seats`` [{seat, tiles_left, tile_values (own only, else None), supply{colour: n}, stones,
scarabs_free, overseers[node x2], workers[node x5], plan_submitted (bool in the plan phase,
else None), plan ([node, node] for the viewer's own plan during planning and for everyone
after the reveal, else None), points, sites[]}],
``sites`` [{site, size, in_play, owner, finished, level_sides[], levels[[colour|None]],
stones, type, points, fields: [{field, borders, figure{player, kind, index}|None}],
overseers[per seat], workers[per seat]}],
``areas`` [{area, neighbours[], figures[{player, kind, index}]}],
``pharaoh`` {stones[], count, capacity, finished}, ``out_of_game`` {count, colours},
``turn`` {player, steps_left, moved[], stones_by_site[[site, n]]} or None.

Log entries are ``{"move", "key", "args"}``. A bid shows as "{player} lays a tile on group
{group}." to others and with its rings to the bidder until the auction is revealed, then
in full. Plan steps are visible to the planner only; on the reveal a public entry lists
each plan.

Rulings beyond tal-der-koenige-board.md (each has a test in tests/tal/)
=======================================================================
1. Each figure moves at most once per phase (the direct route is never longer than a
   detour, so nothing is lost); a move to the field it stands on is not offered.
2. Plans over 6 steps are refused when written (the rule that voids them is still applied
   when carrying plans out, for completeness).
3. A plan may name any node, even a currently occupied field (it may be free by then).
4. Every seat gets a turn in ``bid``, ``overseer`` (round 1) and ``worker`` and ends it
   with ``end_*``; in ``steal``/``takeover`` only seats with a possible action get a turn;
   in ``build`` a seat holding no stones is skipped, and one that can build nothing has its
   stones put onto the Pharaoh pyramid automatically.
5. Auction totals: a group goes to the highest total over 0; ties to the seat that laid its
   first tile there earliest. Bid tiles a seat still holds are secret (they would reveal the
   laid ones); only their number is shown.
6. Ties in the final score are shared wins (the rule book names no tie-break); the ranking
   orders tied seats by seat number.
7. Stones stolen count against the thief's budget of 2 per worker per site for the whole
   steal turn; a seat steals in one turn per round.
8. Claiming in round 1 happens at once when an overseer is moved; a site claimed earlier in
   the round is then "another player's site" for later movers in round 1.
9. Position choices are offered only where they can change scoring (see ``build``).
10. Undo: allowed for a seat's last action while it keeps the turn in the same phase
    (tiles laid, figures moved, plan steps, stones stolen or built, takeovers); never for
    an action that ends a turn, submits a plan, reveals, or draws.
11. The limit of 10 rings is per seat and group (several seats may each bid 10).
12. An overseer whose player has no free scarab still goes where it was sent; it just
    claims nothing (logged).
13. After the reveal the market still shows what each group offered, who won it and all
    tile values, until the next round's market is drawn.
14. The thief chooses which stones of the top level to take (among the choices that can
    matter, ruling 9), the hidden centre of a large bottom level included.
15. A seat's plan is carried out overseer 1 first, then overseer 2: if both name the same
    field, overseer 2 goes to the area it borders; with one free scarab left, overseer 1
    claims first. A field counts as occupied if a figure stands there when the overseer is
    put down, even one whose own plan (later in turn order) takes it away.
16. When the Pharaoh pyramid overflows, a seat's stones go onto it in colour order
    (red, grey, black, white, ochre) and the rest leave the game (colours on the Pharaoh
    pyramid never matter for play).
17. Round 1 has the same phases as later rounds; ``steal`` and ``takeover`` can never apply
    in it (no figure may stand on another player's site), so no seat gets a turn there.
18. A plan names a target for every overseer, staying put included (``plan`` with the
    overseer's own position), before ``submit_plan`` is offered. The number of plan
    actions (which every player sees as move numbers) then says nothing about the plan:
    two targets and a submit is the least anyone can do; more only shows that a seat
    changed its mind, never where its overseers go.
19. (Rules version 2.) The fields of the sites out of play are out of play too: no figure
    ends a move or a plan on them (``TalEngine.landing``). The rule book leaves those sites
    out of the game and has them covered with scarabs of a colour nobody plays: a site
    that belongs to someone outside the game, whose fields no figure may stand on in
    round 1 (another player's site) and which from round 2 serve nothing (the rule book
    sends figures onto another's site only to steal or take over, and a site out of the
    game has no stones and cannot be taken). ``tal-der-koenige-board.md`` had let figures
    stand there; they could do nothing there (a site out of play borders one area only, so
    no way round is shorter through its fields, and standing on one is never nearer to
    anything than standing in that area), and the board offered those fields as targets
    to players who took them for sites to claim. Steps are counted as before: no shortest
    way between two other nodes leads over such a field. Games started under rules
    version 1 keep their rules (``ENGINE_V1``, registered beside ``ENGINE``), so their logs
    replay as they were played.
20. ``reveals(before, after)`` (for the site's take-back of a whole turn by agreement and
    for planning ahead) is true for an action that reveals the bids or the plans, or
    starts a round (a new market is drawn); ``pass_action`` is the ``end_*`` action of the
    sequential phases, none in ``plan`` (a plan must be written before it is handed in).
"""

from .engine import ENGINE, ENGINE_V1, TalEngine
from .state import TalState

__all__ = ["ENGINE", "ENGINE_V1", "TalEngine", "TalState"]
