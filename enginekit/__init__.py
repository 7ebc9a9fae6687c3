"""The engine protocol shared by every game engine.

Pure Python: nothing here (or in any engine) imports Django or the site.
The site (``games/``) talks to each game only through an object that follows
:class:`Engine`; see ``../shared/design/architecture.md``.

Conventions every engine follows
--------------------------------

*Text.* Engines never build sentences. Anything a person reads is a
``Message``: ``{"key": "{player} plays {card}.", "args": {"player": 0, "card": "Maharacha"}}``.
The key is an English ``str.format`` template and doubles as the gettext msgid,
so the site translates the key and then formats it. Mark keys with ``N_`` so
``makemessages --keyword=N_`` collects them. Argument conventions:

- an ``int`` argument whose name is ``player`` or ends in ``_player`` is a seat
  number; the site replaces it with that player's display name;
- a ``str`` argument is a display word (a card, faction or province name) that
  the site passes through gettext before formatting;
- one whose name is ``card`` or ends in ``_card`` is a card's name, ``faction`` or
  ``*_faction`` a faction's: the site translates it with the message context
  ``card`` or ``faction`` (``pgettext``), as a word may name both and read
  differently in each (King of Siam's card "Malai" and faction "Malaien" in
  German). The site's catalogue lists such words with their context;
- other values are shown as they are.

*Actions* are small JSON values (dicts with a ``"type"`` key, lists not
tuples) so that an action read back from the database compares equal to the
one ``legal_actions`` produced.

*Views* (``view(state, viewer)``) are JSON-serialisable dicts holding only what
``viewer`` may know (``viewer`` is a seat number, or ``None`` for a spectator).
Every view has at least these keys, which the generic game page uses:

- ``"active_seats"``: list of seat numbers that must act now;
- ``"prompt"``: a Message for the viewer if the viewer must act, else ``None``;
- ``"actions"``: if the viewer must act, ``[{"action": <action>, "label": Message}, ...]``
  (exactly ``legal_actions(state, viewer)``, in the same order), else ``[]``;
- ``"log"``: the history the viewer may see, a list of LogEntry dicts
  ``{"move": int, "key": str, "args": dict}`` where ``move`` is the number of
  actions applied before the entry was written plus one (0 for set-up), so
  the site can link every line to the position after that move;
- ``"finished"``: bool.

Views are read-only: an engine may share parts of them between calls (both engines
memoise the per-viewer log on their ``enginekit.log.SharedLog``, so a view costs
O(new entries) rather than O(length of the game); Tal also shares its static board
parts, its plan actions and its site and market views, memoised by what they show).
Copy before changing anything.

*Teams.* An engine with team play may define ``teammates(players, seat)``
returning the seats that win or lose with ``seat`` (itself included); the site
uses it when a player resigns. Without it, each seat plays for itself.

*Chat.* ``chat_allowed(players, options)`` (optional) is False when the rules
forbid the players to talk while the game runs (King of Siam's 4-player team
game). Without it, chat is allowed. The site always opens the chat once the
game has ended.

*Names.* ``variant_name(options)`` (optional) gives the name players know a
variant by, e.g. King of Saba for King of Siam on its other map.

*Forced moves.* An engine may define ``forced_action(state)`` returning
``(seat, action)`` when the rules leave the active seat no choice (King of
Siam: a player without cards must pass). The site applies and records such
moves at once, so nobody waits days for a move that could not be otherwise.

*Taking back.* ``can_undo(state, seat)`` is True when the last action applied
was ``seat``'s and did not hand the turn to someone else, draw at random or
reveal hidden information. The site takes an action back by replaying the log
without it.

*Taking back a whole turn.* ``reveals(before, after)`` (optional) is True when the
action that led from ``before`` to ``after`` drew at random or revealed hidden
information (and False when it only moved the game on, a hand-over of the turn
included). ``can_undo`` says no for any of the three reasons; this says which. The
site takes back a turn that was handed over only when every player agreed and no
action of the turn (or forced move after it) reveals; without the method, never.

*Planning ahead.* ``pass_action(state, seat)`` (optional) is the action with which
``seat``, to move in ``state``, gives up the rest of its turn without choosing
anything (a pass, "end the turn"), or None when its turn cannot end that way now (a
card half played, a plan still to write). The site uses it to draw a waiting
player the position their next turn begins in if the players before them pass, and
offers that turn's legal actions to queue (premoves); whether a queued action
counts is decided by ``legal_actions`` when the turn really comes. Without it (or
``reveals``), nobody can plan ahead.

*Secret steps.* ``secret(state, seat, action)`` (optional) is True when ``seat``'s
``action`` in ``state`` changes nothing that any other viewer's view shows but the
count of moves (Tal's plan clicks, while every player writes a plan at the same
time). The site then leaves the game's version, which every viewer may read (a
page's poll, the live events, the API), where it was: others cannot count the
clicks. The player's own page still refuses stale clicks, by the token of its own
view. Without it, every step is public.

*Computer players.* ``determinize(state, seat, rng)`` (optional) returns a copy
of ``state`` in which everything ``seat`` may not know (other seats' hidden
hands, bids and plans, the seed and the order of future random draws) is
redrawn from ``rng``, consistently with what ``seat`` sees in
``view(state, seat)``. It must replace each secret rather than keep it, so the
copy depends on the real state only through that view: a bot that decides on
such copies (``bots/``) cannot learn another seat's secrets. ``rng`` is a
``random.Random``; the copy may be played on with ``apply`` like any state.
Without it, ``bots`` treat the game as one without secrets.

*Deciding from a view.* ``from_view(view, seat, rng)`` (optional) builds a state
from ``view(state, seat)`` alone, for a computer player that never holds the state
(a program playing through the API): what ``determinize`` would redraw is drawn
from ``rng``, the rest is read from the view, or derived from it (its log, say),
so that the rebuilt state looks to ``seat`` as the real one does (its view is the
same, its legal actions are the view's actions) and can be played on with
``apply``. It must be pure and deterministic from ``view`` and ``rng``. It may need
no more than the view shows: what it cannot read there that the rules need, the
view must show, and only if ``seat`` may know it. Without it,
``bots.choose_from_view`` plays at random only.
"""

from __future__ import annotations

from typing import Any, Protocol, TypedDict


def N_(key: str) -> str:
    """Mark a message key for translation without translating it here."""
    return key


class Message(TypedDict):
    key: str
    args: dict[str, Any]


def msg(key: str, **args: Any) -> Message:
    return {"key": key, "args": args}


class IllegalAction(Exception):
    """An action the rules do not allow now. The state is left unchanged.

    ``key``/``args`` form a Message a player can understand; ``str(error)`` is
    the English text.
    """

    def __init__(self, key: str, **args: Any) -> None:
        self.key = key
        self.args_ = args
        super().__init__(render_english(key, args))

    @property
    def message(self) -> Message:
        return {"key": self.key, "args": self.args_}


def render_english(key: str, args: dict[str, Any]) -> str:
    try:
        return key.format(**args)
    except (KeyError, IndexError, ValueError):
        return key


class Result(TypedDict):
    """What ``Engine.result`` returns once a game has ended (JSON-serialisable).

    ``winners``: seats that won (several in a team game or a shared win).
    ``ranking``: every seat, best first.
    ``reason``: a Message saying why the game ended the way it did.
    ``details``: game-specific figures for the end-of-game summary.

    How the site reads it (``community.ratings``, ``games.pages``): every winner is
    placed first and counts a win in the records; the other seats are placed by
    their index in ``ranking``. A draw where nobody wins is ``winners == []`` with
    ``ranking == []``: every seat is then placed alike (a tie for the ratings) and
    the page says "Winner: nobody". Listing all seats as winners would instead
    count a win for each.
    """

    winners: list[int]
    ranking: list[int]
    reason: Message
    details: dict[str, Any]


class OptionSpec(TypedDict, total=False):
    """One option a game creator may choose.

    ``type`` is ``"choice"`` (with ``choices``: list of [value, label]) or ``"bool"``.
    ``players``: if present, the player counts for which the option applies.
    """

    name: str
    label: str
    type: str
    choices: list[list[str]]
    default: Any
    help: str
    players: list[int]


class Engine(Protocol):
    slug: str
    name: str
    rules_version: int
    min_players: int
    max_players: int

    def options_schema(self) -> list[OptionSpec]: ...

    def validate_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Return the options completed with defaults; raise ValueError if invalid."""
        ...

    def setup(self, players: int, options: dict[str, Any], seed: int) -> Any: ...

    def active_seats(self, state: Any) -> frozenset[int]: ...

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]: ...

    def apply(self, state: Any, seat: int, action: dict[str, Any]) -> Any: ...

    def can_undo(self, state: Any, seat: int) -> bool: ...

    # Optional (see the module docstring): ``reveals(before, after) -> bool``,
    # ``pass_action(state, seat) -> dict | None``, ``secret(state, seat, action) -> bool``,
    # ``determinize(state, seat, rng) -> state`` and ``from_view(view, seat, rng) -> state``.

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]: ...

    def result(self, state: Any) -> Result | None: ...
