"""The frame's extension points: how a feature app shows itself where ``games`` draws,
counts or decides, without ``games`` importing it.

``games`` is the floor every feature app (lobby, community, moderation, notify,
botplay, ...) stands on, and it imports none of them (docs/architecture.md;
``tests/test_import_rules.py`` fails on an upward import). A feature app registers
here from its ``AppConfig.ready``, as a title registers its engine
(``games.registry``):

- **parts** (``add_part``): a template drawn at a named place of a page the frame
  draws (``PLACES``), with the context of that place and what the part's own
  function adds;
- **page key parts** (``add_key_part``): SQL whose value changes whenever a part's
  drawing would, so that a cached game page (``games.pagecache``) is drawn anew; a
  named one is also a fact the parts read (``games.facts``), all in one query;
- **badge parts** (``add_badge_part``): SQL counting what waits for a player (the
  menu's badge: their move, an invitation, a rematch offer);
- **chat filters** (``add_chat_filter``): which chat lines a viewer reads;
- **name marks** (``add_name_mark``): a mark beside a player's name in the lists of
  games (a record, presence), prepared once per list;
- **header marks** (``add_header_mark``): a mark beside a player's name in a game
  page's header (presence), drawn from the seats the page read;
- **computer players** (``set_computer_players``): who fills a seat the creator
  gave to a computer, or stands in for a player who ran out of time;
- **challengers** (``set_challengers``): accounts the create form offers to challenge
  (players' own bots, ``api``), and how a challenge is sent;
- **ratings** (``set_ratings``): each player's rating in a title, for an app that
  pairs players by strength without importing the app that rates them;
- **audit trail** (``set_audit_trail``): where an app records what a moderator did
  through it, in the one trail moderators read.
- **guards** (``add_guard``): a refusal the frame (or a feature app) asks for before
  it lets one player near another: joining a game, inviting a player, writing in a
  game's chat (``GUARDS``).

What happens after a change to a game reaches feature apps through
``games.signals`` (sent inside the change's transaction; ``changed``, which says that
what the game's pages show has changed, after its commit).

Registration is expected once per process, at start-up; tests that register parts of
their own remove them again (``remove_part`` and the like).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

# The places on pages the frame draws where parts may appear, and what each is.
PLACES = {
    # Under the players and the clock of a game page, inside the board area: drawn
    # anew with every move, poll and click (context: game, page, view, request, user).
    "game-header": "notices at the top of a game",
    # Below the board, the log and the chat, inside the board area.
    "game-panel": "what players may do about a game besides moving",
    # After the board area, drawn with the whole page only (a reload).
    "game-foot": "settings of a game for the viewer",
    # After the time of each chat line (context: ``m``, the line).
    "chat-line": "actions on a chat line",
    # The waiting page of an open game (context: game, seat, seats).
    "open-game": "what the players of an open game may do",
    # The top of "My games" (context: user).
    "my-games": "what waits for the player besides their moves",
    # The lobby, below the new-game buttons (context: user, request).
    "lobby": "what else there is to enter besides open games",
    # Once on a game page (any viewer the game is visible to) and on the waiting page of
    # an open game (any viewer, an invited one too: check visibility), outside the board
    # area, so it stays while boards are swapped (context: the page's: game, request,
    # user; ``page`` on a game page, ``seat`` on a waiting page).
    "game-live": "what keeps an open game page up to date",
    # The end of every other page for a signed-in user (context: the page's, request, user).
    "page-end": "what keeps any page of a signed-in user up to date",
}


@dataclass(frozen=True)
class Part:
    place: str
    template: str
    # Extra context for the template, from the place's context; None: draw nothing.
    context: Callable[[Any], dict | None] | None = None
    order: int = 100


_parts: dict[str, list[Part]] = {place: [] for place in PLACES}
# Counts the changes to what is registered: the game page's cache key includes it, so a
# page cached before a part came or went is not served after.
_changes = [0]


def generation() -> int:
    """A number that changes whenever a part, key part, chat filter or mark is
    registered or removed."""
    return _changes[0]


def _changed() -> None:
    _changes[0] += 1


def add_part(
    place: str,
    template: str,
    context: Callable[[Any], dict | None] | None = None,
    *,
    order: int = 100,
) -> Part:
    """Draw ``template`` at ``place`` (one of ``PLACES``), in ``order`` among the others.

    ``context(ctx)`` gets the template context of the place and returns what the part
    adds to it, or None to draw nothing there. What the part shows on a game page
    must be in the page's cache key: read rows only through ``add_key_part``'s SQL,
    or from the game, its seats and the viewer, which are in the key already.
    """
    if place not in PLACES:
        raise ValueError(f"no place {place!r} (places: {', '.join(PLACES)})")
    part = Part(place, template, context, order)
    _parts[place].append(part)
    _parts[place].sort(key=lambda p: p.order)
    _changed()
    return part


def remove_part(part: Part) -> None:
    _parts[part.place].remove(part)
    _changed()


def parts(place: str) -> list[Part]:
    return _parts[place]


# Scalar SQL subqueries, read with the seats of a game page for its cache key, and
# what gives the named parameters some of them use; the named ones by their names.
_key_parts: list[str] = []
_key_params: list[Callable[[], dict]] = []
_key_names: dict[str, str] = {}


def add_key_part(sql: str, params: Callable[[], dict] | None = None, name: str = "") -> None:
    """A value the game page's cache key must include: a scalar SQL subquery that may
    use ``%(game)s`` (the game's id) and ``%(user)s`` (the viewer's id, NULL for an
    anonymous viewer). Rows only ever added or deleted are covered by their count and
    highest id; rows that change need a column that changes with them.

    ``params()``: other named parameters it uses, read for every key (prefix their
    names with the app's name), e.g. a time: what a page shows may change with the
    clock alone (a player seen in the last few minutes).

    ``name`` (prefixed with the app's name): the value is also a fact a part may read
    (``games.facts.fact``), e.g. to learn that there is nothing to show without a
    query of its own."""
    if sql not in _key_parts:
        _key_parts.append(sql)
        _changed()
        if params is not None:
            _key_params.append(params)
    if name:
        _key_names[name] = sql


def key_parts() -> list[str]:
    return list(_key_parts)


def key_names() -> dict[str, str]:
    """The named key parts: name -> SQL."""
    return dict(_key_names)


def key_params() -> dict:
    """The named parameters of the key parts, as they are now."""
    found: dict = {}
    for params in _key_params:
        found.update(params())
    return found


@dataclass(frozen=True)
class BadgePart:
    # A scalar SQL subquery counting what waits for the user ``%(badge_user)s``.
    sql: str
    # The other named parameters it uses (prefix their names with the app's name).
    params: Callable[[], dict] | None = None


_badge_parts: list[BadgePart] = []


def add_badge_part(sql: str, params: Callable[[], dict] | None = None) -> None:
    """Count something that waits for a player in the menu's badge (``games.lists``)."""
    if all(part.sql != sql for part in _badge_parts):
        _badge_parts.append(BadgePart(sql, params))
        _changed()


def badge_parts() -> list[BadgePart]:
    return list(_badge_parts)


# (lines, viewer) -> the lines that viewer reads, applied in turn.
_chat_filters: list[Callable[[Any, Any], Any]] = []


def add_chat_filter(keep: Callable[[Any, Any], Any]) -> None:
    """``keep(lines, viewer)``: the chat lines (a queryset) ``viewer`` reads of ``lines``.
    What a filter reads about the viewer must be in the page's key (``add_key_part``)."""
    if keep not in _chat_filters:
        _chat_filters.append(keep)
        _changed()


def remove_chat_filter(keep: Callable[[Any, Any], Any]) -> None:
    _chat_filters.remove(keep)
    _changed()


def visible_chat(game, viewer):
    """The chat lines of ``game`` that ``viewer`` reads: none hidden by a moderator, and
    none any registered filter takes out."""
    lines = game.chat.filter(hidden=False).select_related("user")
    for keep in _chat_filters:
        lines = keep(lines, viewer)
    return lines


@dataclass(frozen=True)
class NameMark:
    # Once per list: what the marks of that list's games need (one query at most).
    prepare: Callable[[list], Any]
    # Per name: (prepared, user id, the game's kind) -> safe HTML, "" for no mark.
    draw: Callable[[Any, int, str], str]


_name_marks: list[NameMark] = []


def add_name_mark(prepare: Callable[[list], Any], draw: Callable[[Any, int, str], str]) -> None:
    """A mark beside each player's name in the lists of games (lobby, my games, the
    archive, profiles). ``prepare(games)`` runs once per list, ``draw`` once per name:
    a template per name was a quarter of a long list's time."""
    _name_marks.append(NameMark(prepare, draw))
    _changed()


def name_marks() -> list[NameMark]:
    return list(_name_marks)


# seat -> safe HTML beside that seat's player in a game page's header ("" for none).
_header_marks: list[Callable[[Any], str]] = []


def add_header_mark(draw: Callable[[Any], str]) -> None:
    """A mark beside each player's name in the header of a game page: ``draw(seat)``
    gets a seat the page read, with its ``user`` (no query needed), and returns safe
    HTML or "". The header is part of the cached page: what a mark shows that is not
    in the seat's or its player's row must be in the page's key (``add_key_part``)."""
    if draw not in _header_marks:
        _header_marks.append(draw)


def remove_header_mark(draw: Callable[[Any], str]) -> None:
    _header_marks.remove(draw)


def header_marks() -> list[Callable[[Any], str]]:
    return list(_header_marks)


class ComputerPlayers(Protocol):
    """Who plays a seat given to a computer (``botplay`` registers one)."""

    # (strength, what the create form calls it, what it says of it), weakest first.
    strengths: list[tuple[str, str, str]]
    # The strength of a computer that stands in for a player who ran out of time.
    stand_in_strength: str

    def account(self, strength: str, taken_user_ids: list[int]) -> Any:
        """An account of ``strength`` that holds none of ``taken_user_ids``' seats."""


_computer_players: list[ComputerPlayers] = []


def set_computer_players(provider: ComputerPlayers | None) -> None:
    _computer_players[:] = [provider] if provider is not None else []


def computer_players() -> ComputerPlayers | None:
    """The registered computer players, or None: then no game offers them."""
    return _computer_players[0] if _computer_players else None


# (game, user, the user's view) -> {"action": ..., "reason": Message} or None: a move to
# suggest before any computer player's (``learn``: in a first game, what the lesson teaches).
_suggestions: list[Callable[[Any, Any, dict], dict | None]] = []


def add_suggestion(suggest: Callable[[Any, Any, dict], dict | None]) -> None:
    if suggest not in _suggestions:
        _suggestions.append(suggest)


def remove_suggestion(suggest: Callable[[Any, Any, dict], dict | None]) -> None:
    if suggest in _suggestions:
        _suggestions.remove(suggest)


def suggestion(game, user, view: dict) -> dict | None:
    """The first registered app's move for ``user`` in ``game`` now, or None."""
    for suggest in _suggestions:
        found = suggest(game, user, view)
        if found is not None:
            return found
    return None


class Challengers(Protocol):
    """Whom the create form offers to challenge (``api`` registers the bot accounts whose
    people listed them), and how a challenge goes out."""

    def choices(self) -> list[tuple[str, str]]:
        """(user name, what the form calls the account), in the reader's language."""

    def challenge(self, game: Any, by: Any, username: str) -> None:
        """Challenge ``username`` to the new ``game`` of ``by``'s; raises PlayError."""


_challengers: list[Challengers] = []


def set_challengers(provider: Challengers | None) -> None:
    _challengers[:] = [provider] if provider is not None else []


def challengers() -> Challengers | None:
    return _challengers[0] if _challengers else None


# (kind, user ids) -> {user id: rating}, every id given answered (a newcomer's start).
_ratings: list[Callable[[str, list[int]], dict[int, int]]] = []

# What a player without any rating counts as where no app rates players.
UNRATED = 1000


def set_ratings(lookup: Callable[[str, list[int]], dict[int, int]] | None) -> None:
    _ratings[:] = [lookup] if lookup is not None else []


def ratings(kind: str, user_ids: list[int]) -> dict[int, int]:
    """The players' ratings in the title ``kind``, from the registered lookup (everyone
    counts as ``UNRATED`` while none is registered)."""
    if not _ratings:
        return {uid: UNRATED for uid in user_ids}
    found = _ratings[0](kind, list(user_ids))
    return {uid: found.get(uid, UNRATED) for uid in user_ids}


class AuditTrail(Protocol):
    def __call__(
        self,
        moderator: Any,
        action: str,
        reason: str,
        *,
        user: Any = None,
        game: Any = None,
        target: str = "",
    ) -> Any:
        """Record that ``moderator`` did ``action`` (a name the trail knows) for
        ``reason``, to ``user`` and/or ``game`` (``target``: what it was, in words);
        runs inside the change's transaction, so there is no change without its entry."""


_audit_trail: list[AuditTrail] = []


def set_audit_trail(record: AuditTrail | None) -> None:
    _audit_trail[:] = [record] if record is not None else []


def audit_trail() -> AuditTrail | None:
    """The registered trail, or None: then moderators' actions through apps are refused."""
    return _audit_trail[0] if _audit_trail else None


# What a guard is asked, and the facts it is given (keyword arguments).
GUARDS = {
    # play.join and play.take_seat: ``user`` would take a seat of ``game``.
    "join": "may user take a seat of game",
    # lobby.invites.invite: ``by`` would invite ``invitee`` to ``game``.
    "invite": "may by invite invitee to game",
    # play.post_chat: ``user`` would write a line in ``game``'s chat.
    "chat": "may user write in game's chat",
}

_guards: dict[str, list[Callable[..., str | None]]] = {action: [] for action in GUARDS}


def add_guard(action: str, check: Callable[..., str | None]) -> None:
    """``check(**facts)`` for ``action`` (one of ``GUARDS``): a refusal in the reader's
    language, or None to let it happen. The first refusal of any guard wins."""
    if action not in GUARDS:
        raise ValueError(f"no guard {action!r} (guards: {', '.join(GUARDS)})")
    if check not in _guards[action]:
        _guards[action].append(check)


def remove_guard(action: str, check: Callable[..., str | None]) -> None:
    _guards[action].remove(check)


def refusal(action: str, **facts) -> str | None:
    """Why ``action`` may not happen (the first guard that refuses), or None."""
    for check in _guards[action]:
        message = check(**facts)
        if message:
            return message
    return None
