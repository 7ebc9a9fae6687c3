"""King of Siam (and King of Saba): the rules engine.

Pure Python, no Django. ``ENGINE`` follows the protocol of :mod:`enginekit`.
Rules: ``koenig-von-siam-und-saba.de.txt`` (authority) and the maps and rulings of
``koenig-von-siam-boards.md`` (rulings 1-14 there are referred to as B1..B14 below).
Maps live in :mod:`siam.engine.maps` as one data table each; rules in
:mod:`siam.engine.core`; the protocol object and the view in :mod:`siam.engine.engine`.

Options
-------
``{"map": "siam" | "saba"}`` (default ``"siam"``). 2, 3 or 4 players; 4 = two teams,
seats 0+2 and 1+3. Seat order is clockwise: the next seat (``seat + 1``) is the left
neighbour.

Ids
---
Factions (index 0, 1, 2 = yellow, red, blue/green): Siam ``rama``, ``lao``, ``malai``;
Saba ``amhara``, ``tigray``, ``shewa``. Invaders: ``british`` / ``italians``.
Cards: Siam ``maharacha``, ``khon_thai`` (2 copies), ``one_vs_one``, ``two_vs_one``,
``rama``, ``lao``, ``malai``; Saba ``saba``, ``ityoppaya`` (2 copies), ``one_vs_one``,
``two_vs_one``, ``amhara``, ``tigray``, ``shewa`` (faction cards carry the faction id).
Province ids: see ``maps.py`` (e.g. ``sukothai``, ``bangkok``; ``tigray``, ``shewa``).

Action vocabulary (every action is one click; ``legal_actions`` lists them all)
-------------------------------------------------------------------------------
On your turn, with no card in progress:

- ``{"type": "play", "card": <card id>}`` -- play a card; its steps follow, all by you.
- ``{"type": "pass"}``

While a card is being carried out (the view's ``pending`` says which step):

- Maharacha/Saba: ``{"type": "tile", "province": p}`` twice (the two face-up tiles
  without a King marker to swap; the swap happens on the second), then
  ``{"type": "king", "province": p}`` (one of the two gets the King marker).
- Khon Thai/Ityoppaya and the faction cards:
  ``{"type": "place", "faction": f, "province": p}`` once per follower placed.
  Khon Thai: one per faction fixed when the card was played, any order (B13).
- 1 vs 1: ``{"type": "pick", "province": p, "faction": f}`` twice (two followers in
  two different provinces, either order); the swap happens on the second pick.
- 2 vs 1: ``pick`` three times: the two followers from one province first, then one
  follower in an adjacent province. Fallback (B4): when no 2-for-1 is possible, two
  picks in adjacent provinces make a 1-for-1 (the view's ``pending.fallback`` is true).
- Last step of every card: ``{"type": "take", "province": p, "faction": f}`` (the
  mandatory follower take, from a province still contested, B2).

Steps that cannot be carried out are skipped automatically and logged ("as far as
possible"); if nothing can be taken the turn ends after the action.

View shape (``ENGINE.view(state, viewer)``; all JSON)
-------------------------------------------------------
Static per map: ``game`` ("siam"), ``map`` ("siam"/"saba"), ``map_name``, ``land``,
``players``, ``viewer``, ``factions`` [{id, name, colour, home}], ``invader`` {id, name},
``cards`` [{id, name, kind, copies}] (kind: king/free/swap11/swap21/faction),
``adjacency`` {province: [province, ...]}.

Board: ``provinces`` [{id, name, home_of (faction id or null), followers {faction: n},
controller (faction id, invader id or null), resolved, track_position (1-8), king,
current, adjacent}] in map order; ``track`` [{position, province, name, face_up, king,
current, controller}] in track order; ``current_province`` (the struggle now, or null);
``struggle`` (1-8, null when finished); ``takeovers`` [{province, controller}] in order;
``king_markers_left``; ``supply`` {faction: n}; ``removed`` {faction: n} (2 players).

Players: ``seats`` [{seat, aid, followers {faction: n}, sets, cards_left {card: n},
cards_left_count, played [card ids, oldest first], top_card, passed, active, team (0/1 or
null), partner (seat or null)}]; ``teams`` ([[0, 2], [1, 3]] or null); ``turn``;
``passes`` (passes in a row); ``cards_left_total``; ``move_count``; ``auto_pass`` (true
when the active seat's only legal action is ``pass``: no cards left, or only the last card
of the game and it cannot win; the site may pass for that seat, B10/R8).

Card in progress: ``pending`` null or {seat, card, card_name, kind, stage
("tile"/"king"/"place"/"swap"/"take"), picks (tiles, or [{province, faction}]),
to_place [faction ids], targets [provinces] (faction cards), fallback (2 vs 1 making a
1-for-1), no_undo (the forbidden swap or null), last_card}. ``no_undo``: null or
{card, forbidden: [{province, gives: [faction ids]}, ...]} -- the swap the next card
would not be allowed to make if it is the same swap card.

enginekit keys: ``active_seats``, ``prompt``, ``actions`` [{action, label}], ``log``
[{move, key, args}], ``finished``; and ``result`` (the enginekit Result) when finished.
``result["details"]``: ending ("invaders"/"faction"), tiebreak (null, "second_faction",
"last_card", "shared"), followers, sets, provinces {faction or invader: n}, ruling,
second, teams / team_sets (4 players). The seed is never in the view; the game has no
other secret.

Rulings made here beyond ``koenig-von-siam-boards.md``
-------------------------------------------------------
R1. The no-undo restriction (B3, B12) outlives the end of a power struggle: only another
    card play lifts it (passes and takeovers are ignored, as passes are in B3).
R2. Maharacha/Saba with fewer than two face-up tiles without a King marker: nothing is
    swapped and no King marker is placed (the marker marks one of the swapped tiles).
    With no King marker left (cannot happen with the printed cards) the swap is made
    without a marker.
R3. Faction cards with only one follower of their faction in the supply place that one;
    with no anchor-adjacent unresolved province or an empty supply they place nothing.
    The two placements are separate steps and may go to the same or different provinces.
R4. Last card (B6): "wins" means being among the winners, a shared win included; in the
    4-player game the team winning is enough.
R5. Invaders' ending, ties on complete sets: among the tied players, the one who played
    a card most recently wins; if none of them ever played a card they share the win.
    4 players: pooled team sets; on a tie the team of the player who played the most
    recent card of the game wins.
R6. 4 players, faction ending: if the best players of both teams cannot be separated,
    both teams (everybody) win.
R7. Ranking (``result["ranking"]``): winners first, then by the same criteria as the
    winner (ruling faction, second faction, older last card play first; or sets, more
    recent card play first in the invaders' ending), then seat number.
R8. A player with no cards left, or whose only card is the unplayable last card of the
    game, has exactly one legal action, ``pass``; ``ENGINE.forced_action`` names that pass
    and the site makes it at once (B10), recorded in the log like any other move.
R9. 2 vs 1: the two followers may have the same colour, and swapping equal colours is a
    legal (if pointless) swap, also for 1 vs 1 (the rules allow equal colours). Equal
    colours moved both ways still set the no-undo restriction.
R10. Takeover: "Gleichstand zwischen 2 oder allen Fraktionen" is a tie for the most
    followers; a tie below the leader does not matter (3-1-1 and 1-0-0 are majorities).
R11. Faction ending: the British/Italians short of 4 provinces rule nothing, even with
    more provinces than any faction; the ruling and the second-placed faction are found
    among the three factions only, and complete sets play no part.
R12. For the site's take-back of a whole turn by agreement and for planning ahead: no action
    reveals or draws anything (``reveals`` is always false); a player's ``pass_action`` is a
    pass at the start of their turn, none while a card is carried out.
"""

from .engine import ENGINE, SiamEngine

__all__ = ["ENGINE", "SiamEngine"]
