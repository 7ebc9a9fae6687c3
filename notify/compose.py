"""What each outbox row says, decided at send time.

Preferences, vacation, mutes and whether the player is looking at the game are
checked here, when the e-mail would go out, not when the row was written.
Everything about a game comes from ``engine.view(state, seat)``, so an e-mail
shows exactly what that seat may see.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from agreements import flows as agreements
from agreements.models import Request
from community import rematch
from community.models import Rematch
from games import catchup, replay, text
from games.clock import duration
from games.clock import seats as clock
from games.models import Game, Premove, Seat
from games.numbering import numbering
from lobby.models import Invitation
from moderation.models import ChatMute
from social.models import Block
from tournaments import lookup

from . import notices, pings, practice, signin
from .away import on_vacation_here
from .emails import absolute, links, make_message
from .models import Mute, Notification
from .outbox import Postpone, Skip, unclaimed

Channel = Notification.Channel

# Someone who had the game open this recently knows it is their turn: their turn mail
# waits until this long after their last visit (the page's poll records one a minute),
# unless they asked for mail at once (``User.notify_at_once``). The settings page and
# the game page say so, with this number.
SEEN_RECENTLY = datetime.timedelta(minutes=5)
MAX_LOG_LINES = 40
# A push or a webhook post is a glance: the last few things that happened.
PING_LINES = 3


def compose(row: Notification, now: datetime.datetime) -> tuple[Any, list[int]]:
    """The message for ``row`` (an e-mail, a push or a webhook post: each has ``send()``)
    and the other rows it covers (a digest's turns)."""
    if row.kind == Notification.Kind.RAW:
        return _raw(row), []
    user = row.user
    if user is None or not user.is_active:
        raise Skip("no active user")
    with translation.override(user.language or settings.LANGUAGE_CODE):
        with timezone.override(user.time_zone or "UTC"):
            if row.kind == Notification.Kind.TEST:
                return notices.test(row), []
            if row.kind == Notification.Kind.HOOK_DISABLED:
                return notices.hook_disabled(row), []
            if row.channel == Channel.WEBHOOK and row.webhook and row.webhook.game_id:
                return _game_channel(row, now)
            if row.channel != Channel.EMAIL:
                pings.endpoint_of(row)  # gone, off or unwanted: skip before any work
            if row.kind == Notification.Kind.DIGEST:
                return _digest(row, now)
            context = {"user": user, **_GAME_KINDS[row.kind](row, now)}
            covered = context.pop("covers", [])
            if row.channel != Channel.EMAIL:
                return pings.message(row, context, _ping_lines(row, context)), covered
            # An invitee is no player yet: a mute would silence the game they may join.
            game = None if row.kind == Notification.Kind.INVITED else row.game
            context.update(links(user, row.kind, game))
            if game is not None and row.kind in pings.TURN_KINDS:
                context["game_url"] = signin.url(user, game)
            return make_message(row.kind, row.address, context), covered


def _mail_wanted(row: Notification, setting: str, reason: str) -> None:
    """The mail settings govern e-mail; a device or webhook has its own choice of events."""
    if row.channel == Channel.EMAIL and not getattr(row.user, setting):
        raise Skip(reason)


def _ping_lines(row: Notification, context: dict) -> list[str]:
    """What a push or a webhook says below its title: what every seat may see."""
    lines = []
    if row.kind == Notification.Kind.TURN:
        lines = since_last_turn(row.game, row.seat, row.move_count or 0, viewer=None)
        lines = lines[-PING_LINES:]
    if context.get("deadline"):
        lines.append(
            render_to_string("notify/ping_deadline.txt", {"deadline": context["deadline"]}).strip()
        )
    return lines


def _raw(row: Notification) -> EmailMessage:
    message = EmailMultiAlternatives(row.subject, row.text, to=[row.address])
    if row.html:
        message.attach_alternative(row.html, "text/html")
    return message


def _game_channel(row: Notification, now: datetime.datetime) -> tuple[Any, list[int]]:
    """A game's channel: every turn while it is still on, the start (which carries the
    first turn) and the end."""
    game = row.game
    if game is None:
        raise Skip("no game")
    seats = list(game.seats.select_related("user").order_by("number"))
    to_move, lines = [], []
    if row.kind == Notification.Kind.TURN:
        to_move = [s for s in seats if s.to_move and s.to_move_since == row.turn_since]
        if game.status != Game.Status.ACTIVE or not to_move:
            raise Skip("turn over")
        state = replay.current_state(game)
        log = game.engine.view(state, None).get("log") or []
        names = _names(game)
        upto = row.move_count or game.move_count
        lines = [text.render(e, names) for e in log if e.get("move", 0) <= upto][-PING_LINES:]
        if game.deadline:
            context = {"deadline": game.deadline}
            lines.append(render_to_string("notify/channel_deadline.txt", context).strip())
        return notices.channel_post(row, to_move, lines, {}), []
    result = game.result or {}
    names = {s.number: s.user.name for s in seats}
    context = {
        "players": [s.user.name for s in seats],
        "aborted": game.status == Game.Status.ABORTED,
        "winners": [names.get(n, "?") for n in result.get("winners", [])],
    }
    covers = []
    if row.kind == Notification.Kind.GAME_STARTED:
        to_move = [s for s in seats if s.to_move]
        first = to_move[0] if to_move else None
        covers = _carried_turns(row, first, now)
    return notices.channel_post(row, to_move, lines, context), covers


def _names(game: Game) -> dict[int, str]:
    return {s.number: s.user.name for s in game.seats.select_related("user")}


def _check_game(row: Notification) -> Game:
    if row.game is None:
        raise Skip("no game")
    if Mute.objects.filter(user=row.user, game=row.game).exists():
        raise Skip("muted")
    return row.game


def _current_turn(row: Notification, now: datetime.datetime, check_seen: bool = True) -> Seat:
    """The recipient's seat, if the turn the row is about is still on and unseen."""
    game = _check_game(row)
    if on_vacation_here(row.user, game):
        raise Skip("on vacation")
    seat = game.seats.filter(number=row.seat, user=row.user).first()
    if game.status != Game.Status.ACTIVE or seat is None or not seat.to_move:
        raise Skip("not to move")
    if row.turn_since is not None and seat.to_move_since != row.turn_since:
        raise Skip("turn over")
    looking = seat.last_seen and seat.last_seen > now - SEEN_RECENTLY
    if check_seen and looking and not row.user.notify_at_once:
        # Looking at the game right now: tell them only if they leave it unmoved.
        raise Postpone(seat.last_seen + SEEN_RECENTLY)
    return seat


def since_last_turn(game: Game, seat: int, move_count: int, viewer: Any = "seat") -> list[str]:
    """The log entries ``seat`` may see (or ``viewer``: None for what every seat and a
    spectator may see), from its last own move up to ``move_count``."""
    # The current position (cached), never a replay from the first move: the
    # view is the recipient's own, so entries after ``move_count`` may show too.
    state = replay.current_state(game)
    log = game.engine.view(state, seat if viewer == "seat" else viewer).get("log") or []
    last_own = catchup.moves_before_turn(game, seat, move_count)
    names = _names(game)
    lines = [text.render(e, names) for e in log if e.get("move", 0) > last_own]
    if len(lines) > MAX_LOG_LINES:
        lines = ["…", *lines[-MAX_LOG_LINES:]]
    return lines


def replay_url(game: Game, seat: int, move_count: int) -> str:
    """The page that steps through the others' moves since ``seat``'s last own move."""
    # In the seat's own numbers, as the replay counts (without others' secret steps).
    since = numbering(game, seat).shown(catchup.moves_before_turn(game, seat, move_count))
    return absolute(f"{reverse('game_replay', args=[game.pk])}?since={since}")


def _deadline(game: Game, seat: Seat, now: datetime.datetime) -> dict[str, Any]:
    """When the seat's time runs out and how much it has left, in words ("1 day, 3
    hours"): its bank's time (which weekends off do not spend), or the time to the
    game's deadline."""
    deadline = clock.deadline_of(game, seat)
    if deadline is None:
        return {"deadline": None, "left": ""}
    if game.has_bank:
        left = clock.left(game, seat, now)
    else:
        left = deadline - now
    return {"deadline": deadline, "left": duration(left)}


def _turn(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    _mail_wanted(row, "notify_turn", "turn e-mails off")
    seat = _current_turn(row, now)
    game = row.game
    since = since_last_turn(game, row.seat, row.move_count or 0)
    return {
        "game": game,
        "since": since,
        "replay_url": replay_url(game, row.seat, row.move_count or 0) if since else "",
        **_deadline(game, seat, now),
    }


def _reminder(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    _mail_wanted(row, "notify_reminder_hours", "reminders off")
    seat = _current_turn(row, now)
    if practice.is_practice(row.game):
        raise Skip("practice game")  # no nagging at leisure; the last warning still goes
    return {"game": row.game, "since": seat.to_move_since, **_deadline(row.game, seat, now)}


def _last_warning(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    _mail_wanted(row, "notify_last_warning", "warnings off")
    seat = _current_turn(row, now)
    context = _deadline(row.game, seat, now)
    if context["deadline"] is None or context["deadline"] <= now:
        raise Skip("no deadline")
    return {"game": row.game, **context}


def _game_started(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    """The start, and for the player who moves first also their turn: that turn's
    own row, written in the same transaction ``covered_by`` this one, goes with it
    and never on its own (unless this one is skipped: notify.delivery). A turn kept
    for the daily digest stays there: the digest lists every game waiting for the
    player."""
    _mail_wanted(row, "notify_game_end", "game e-mails off")
    game = _check_game(row)
    if game.status != Game.Status.ACTIVE:
        # Held back (quiet hours) until the game was over: its end has a mail of its own.
        raise Skip("game over")
    seats = list(game.seats.select_related("user").order_by("number"))
    mine = next((s for s in seats if s.user_id == row.user_id and s.to_move), None)
    if mine is not None and on_vacation_here(row.user, game):
        mine = None
    covers = _carried_turns(row, mine, now)
    if mine is not None and not covers and _goes_on_its_own(row, mine):
        # The turn came before this start went out (the first player moved at once) and
        # another worker has its row, or sent it: the start must not say it again.
        mine = None
    # A tournament's round starts with one game per entrant: this is its round mail.
    competition = lookup.competition_of(game)
    return {
        "game": game,
        "players": [s.user.name for s in seats],
        "to_move": [s.user.name for s in seats if s.to_move],
        "my_turn": mine is not None,
        **(_deadline(game, mine, now) if mine is not None else {"deadline": None}),
        "covers": covers,
        "competition": competition,
        "competition_url": absolute(competition.url) if competition else "",
    }


def _carried_turns(row: Notification, mine: Seat | None, now: datetime.datetime) -> list[int]:
    """The turn rows a start message carries, claimed to be marked sent with it: those
    written covered by it, and, for a start held back (quiet hours) past a later turn,
    that turn's row if no worker has it yet. A covered turn that is over is skipped, as
    it would be on its own."""
    pending = Notification.objects.filter(sent_at=None, skipped="")
    covered = pending.filter(covered_by=row)
    if mine is None:
        covered.update(skipped="turn over")
        return []
    covered.exclude(turn_since=mine.to_move_since).update(skipped="turn over")
    later = pending.filter(
        covered_by=None,
        user=row.user_id,
        game=row.game_id,
        channel=row.channel,
        device=row.device_id,
        webhook=row.webhook_id,
        kind=Notification.Kind.TURN,
        in_digest=False,
    )
    turns = covered | later
    return [t.pk for t in _claim(turns.filter(turn_since=mine.to_move_since), now)]


def _goes_on_its_own(row: Notification, mine: Seat) -> bool:
    """Whether the recipient's turn has a row of its own on this channel that will
    tell them, or has: one this start did not take (a digest's turn aside)."""
    return Notification.objects.filter(
        user=row.user_id,
        game=row.game_id,
        channel=row.channel,
        device=row.device_id,
        webhook=row.webhook_id,
        kind=Notification.Kind.TURN,
        in_digest=False,
        skipped="",
        turn_since=mine.to_move_since,
    ).exists()


def _game_finished(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    _mail_wanted(row, "notify_game_end", "game e-mails off")
    game = _check_game(row)
    result = game.result or {}
    names = _names(game)
    winners = [names.get(n, "?") for n in result.get("winners", [])]
    return {
        "game": game,
        # cancelled by agreement, by a moderator, or for want of players: no result
        "aborted": game.status == Game.Status.ABORTED,
        "winners": winners,
        # A computer that stood in for the recipient (they ran out of time) won for itself.
        "won": row.seat in result.get("winners", [])
        and not game.seats.filter(number=row.seat, stood_in_for=row.user).exists(),
        "reason": text.render_for(result.get("reason"), names, row.seat),
        "ranking": [names.get(n, "?") for n in result.get("ranking", [])],
    }


def _stood_in(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    _mail_wanted(row, "notify_game_end", "game e-mails off")
    game = _check_game(row)
    if game.status != Game.Status.ACTIVE or game.stood_in_seat(row.user) is None:
        raise Skip("seat taken back or game over")  # nothing left to tell
    return {"game": game}


def _seat_opened(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    _mail_wanted(row, "notify_game_end", "game e-mails off")
    return {"game": _check_game(row)}


def _cancel_asked(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    """Who asks, as it stands when the mail goes: nothing once the request is
    withdrawn, the game over or the recipient agreed."""
    _mail_wanted(row, "notify_game_end", "game e-mails off")
    game = _check_game(row)
    if game.status != Game.Status.ACTIVE:
        raise Skip("game over")
    votes = list(game.cancel_votes.select_related("user").order_by("created_at", "pk"))
    if not votes:
        raise Skip("request withdrawn")
    if any(vote.user_id == row.user_id for vote in votes):
        raise Skip("already agreed")
    return {"game": game, "asked_by": [vote.user.name for vote in votes]}


def _invited(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    """Only while the invitation can be answered: nothing once it is, or the game
    has started or gone."""
    _mail_wanted(row, "notify_game_end", "game e-mails off")
    game = _check_game(row)
    invitation = (
        Invitation.objects.filter(game=game, invitee=row.user).select_related("invited_by").first()
    )
    if invitation is None or invitation.status != Invitation.Status.PENDING:
        raise Skip("answered")
    if game.status != Game.Status.OPEN:
        raise Skip("game no longer open")
    if ChatMute.objects.filter(user=row.user, muted=invitation.invited_by_id).exists():
        # Anyone can invite anyone: a player muted for their words is not heard by mail.
        raise Skip("inviter muted")
    if Block.objects.filter(blocker=row.user, blocked=invitation.invited_by_id).exists():
        raise Skip("inviter blocked")  # blocked after the invitation was sent
    players = [s.user.name for s in game.seats.select_related("user").order_by("joined_at")]
    return {
        "game": game,
        "invited_by": invitation.invited_by.name,
        "players": players,
        "free": max(game.players - len(players), 0),
        # a private game shows itself to its players only: the answer is on "My games"
        "answer_url": absolute(reverse("my_games")),
    }


def _rematch_offered(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    """Who has accepted so far, while the offer stands and the recipient has not answered."""
    _mail_wanted(row, "notify_game_end", "game e-mails off")
    game = _check_game(row)
    offer = Rematch.objects.filter(game=game).first()
    if offer is None or offer.status != Rematch.Status.PENDING or not rematch.is_open(game):
        raise Skip("offer decided or lapsed")
    answers = list(offer.answers.select_related("user").order_by("pk"))
    if any(a.user_id == row.user_id for a in answers):
        raise Skip("already answered")
    return {
        "game": game,
        "accepted": [a.user.name for a in answers if a.accepted],
        "until": rematch.open_until(game),
        "answer_url": absolute(reverse("my_games")),
    }


def _mentioned(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    """The chat line, while it stands: not once a moderator hid it, nor from a player
    the recipient muted. Only the mail quotes it: a push shows on a locked phone and a
    webhook posts where others read, and a game's chat is for its players."""
    _mail_wanted(row, "notify_mention", "mention e-mails off")
    game = _check_game(row)
    line = row.chat_message
    if line is None or line.hidden:
        raise Skip("chat line gone or hidden")
    if ChatMute.objects.filter(user=row.user, muted=line.user_id).exists():
        raise Skip("writer muted")
    return {"game": game, "by": line.user.name, "line": line.text}


def _premove_dropped(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    """Why the queued actions were not played, while the turn they were for is on and
    the player has not dismissed the notice; the mail of that turn goes with this one."""
    if not row.user.notify_turn:
        raise Skip("turn e-mails off")
    game = _check_game(row)
    if game.status != Game.Status.ACTIVE:
        raise Skip("game over")
    queue = Premove.objects.filter(game=game, user=row.user, dropped__isnull=False).first()
    if queue is None:
        raise Skip("dismissed")
    seat = game.seats.filter(number=row.seat, user=row.user).first()
    if seat is None or not seat.to_move:
        raise Skip("turn over")
    turn = Notification.objects.filter(
        user=row.user,
        game=game,
        kind=Notification.Kind.TURN,
        turn_since=seat.to_move_since,
        in_digest=False,
        sent_at=None,
        skipped="",
    )
    names = _names(game)
    return {
        "game": game,
        "reason": text.render(queue.dropped, names),
        "queued": [text.render(item["label"], names) for item in queue.actions],
        **_deadline(game, seat, now),
        "covers": [t.pk for t in _claim(turn, now)],
    }


def _agreement_asked(row: Notification, now: datetime.datetime) -> dict[str, Any]:
    """The request as it stands when the mail goes: nothing once it is decided, lapsed
    or answered by the recipient."""
    _mail_wanted(row, "notify_game_end", "game e-mails off")
    game = _check_game(row)
    request = agreements.open_request(game)
    if request is None or _ASKED[request.kind] != row.kind or agreements.lapsed(game, request, now):
        raise Skip("decided")
    if request.answers.filter(user=row.user).exists():
        raise Skip("already answered")
    return {"game": game, "agreement": request, "asked_by": request.asked_by.name}


_ASKED = {
    Request.Kind.PAUSE: Notification.Kind.PAUSE_ASKED,
    Request.Kind.RESUME: Notification.Kind.RESUME_ASKED,
    Request.Kind.TAKE_BACK: Notification.Kind.TAKE_BACK_ASKED,
}


_GAME_KINDS = {
    Notification.Kind.TURN: _turn,
    Notification.Kind.REMINDER: _reminder,
    Notification.Kind.LAST_WARNING: _last_warning,
    Notification.Kind.GAME_STARTED: _game_started,
    Notification.Kind.GAME_FINISHED: _game_finished,
    Notification.Kind.STOOD_IN: _stood_in,
    Notification.Kind.SEAT_OPENED: _seat_opened,
    Notification.Kind.CANCEL_ASKED: _cancel_asked,
    Notification.Kind.INVITED: _invited,
    Notification.Kind.REMATCH_OFFERED: _rematch_offered,
    Notification.Kind.MENTIONED: _mentioned,
    Notification.Kind.PREMOVE_DROPPED: _premove_dropped,
    Notification.Kind.PAUSE_ASKED: _agreement_asked,
    Notification.Kind.RESUME_ASKED: _agreement_asked,
    Notification.Kind.TAKE_BACK_ASKED: _agreement_asked,
}


def _claim(rows, now: datetime.datetime):
    """The rows this worker claims for the mail it composes (marked sent with it)."""
    free = unclaimed(now)
    for found in rows.filter(free):
        if Notification.objects.filter(free, pk=found.pk).update(claimed_at=now) == 1:
            yield found


def _digest(row: Notification, now: datetime.datetime) -> tuple[EmailMessage, list[int]]:
    """One e-mail for the turns collected since the last digest."""
    user = row.user
    waiting = Notification.objects.filter(
        user=user,
        channel=row.channel,
        device=row.device,
        webhook=row.webhook,
        in_digest=True,
        sent_at=None,
        skipped="",
        due_at__lte=now,
    ).select_related("game", "user")
    games, covered = [], []
    for turn in _claim(waiting.order_by("due_at", "pk"), now):
        try:
            _mail_wanted(turn, "notify_turn", "turn e-mails off")
            _current_turn(turn, now, check_seen=False)
        except Skip as reason:
            Notification.objects.filter(pk=turn.pk).update(skipped=str(reason))
            continue
        covered.append(turn.pk)
        if all(g["game"].pk != turn.game_id for g in games):
            games.append(
                {
                    "game": turn.game,
                    "url": signin.url(user, turn.game),
                    "since": since_last_turn(turn.game, turn.seat, turn.game.move_count),
                }
            )
    if not games:
        raise Skip("nothing waiting")
    context = {"user": user, "games": games, **links(user, "digest")}
    if row.channel != Channel.EMAIL:
        lines = [g["game"].named for g in games]
        return pings.message(row, context, lines), covered
    return make_message("digest", row.address, context), covered
