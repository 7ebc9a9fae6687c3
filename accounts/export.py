"""Download my data (GDPR Art. 15 and 20): a zip of everything the site holds about a player.

``data.json`` holds the account, settings, e-mail addresses, games, chat lines (each
with its game and players), ratings and their history, tournaments and ladders,
devices and webhooks, premove queues, vacation, reports filed, moderation entries
about the player and the rest of ``COVERED``; ``records/game-<id>.json`` holds each
ended game's record exactly as the game page's download builds it
(``games.record.export``: ``manage.py verify_record`` checks it). A running game is
the player's own view only (``engine.view(state, seat)`` through the same export):
never another seat's hidden information.

Every model that points at the user model is in ``COVERED`` (exported here) or in
``LEFT_OUT`` with the reason; ``tests/accounts/test_data_export.py`` fails on a new
one that is in neither. Left out on purpose: secrets (the password hash, push keys,
webhook signing keys, the calendar link's key: they are credentials, not data about
the person) and what other people wrote about the player (reports by others: the
reporter's words and identity are theirs; a moderator's resolution note).
"""

from __future__ import annotations

import io
import json
import zipfile
from datetime import date, datetime, time, timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from agreements.models import Answer, Request
from api.models import BotAccount, Token
from automatch.models import Ticket
from community.models import (
    CancelVote,
    Opponent,
    PlayerStats,
    RatingChange,
    Rematch,
    RematchAnswer,
    SeatRecord,
)
from games import record
from games.models import CalendarKey, ChatMessage, Game, Premove, Seat, VacationDay
from learn.models import Walkthrough
from lobby.models import Invitation
from moderation.models import AuditEntry, ChatBan, ChatMute, Report
from notes import keeping as notes
from notify.models import Handle, Mute, Notification, PushDevice, Webhook
from social.models import Block, Follow
from tournaments.models import Entrant, LadderPlayer, Tournament

FORMAT = "pbw-player-data"
FORMAT_VERSION = 1

# Every model with a key to the user model, by label: what the download holds of it.
COVERED = {
    "accounts.User": "account, settings",
    "account.EmailAddress": "email_addresses",
    "games.Game": "games (created_by)",
    "games.Seat": "games",
    "games.ChatMessage": "chat",
    "games.Premove": "premove_queues",
    "games.VacationDay": "vacation",
    "games.CalendarKey": "calendar (whether a link exists; its key is a credential)",
    "notify.Notification": "messages",
    "notify.Mute": "muted_games",
    "notify.PushDevice": "push_devices (no keys)",
    "notify.Webhook": "webhooks (no signing key)",
    "notify.Handle": "chat_handles",
    "moderation.AuditEntry": "moderation (entries about the player)",
    "moderation.Report": "reports_filed",
    "moderation.ChatMute": "chat_mutes",
    "moderation.ChatBan": "chat_ban (a moderator's, with its reason)",
    "community.PlayerStats": "ratings",
    "community.RatingChange": "rating_history",
    "community.SeatRecord": "game_records",
    "community.Opponent": "opponents",
    "community.Rematch": "rematches",
    "community.RematchAnswer": "rematches",
    "community.CancelVote": "cancel_votes",
    "lobby.Invitation": "invitations",
    "automatch.Ticket": "automatch_tickets",
    "tournaments.Tournament": "tournaments (created_by)",
    "tournaments.Entrant": "tournaments",
    "tournaments.LadderPlayer": "ladders",
    "agreements.Request": "requests",
    "agreements.Answer": "requests",
    "social.Follow": "follows",
    "social.Block": "blocks",
    "learn.Walkthrough": "walkthroughs",
    "notes.Note": "notes (the player's private notes on their games)",
    "api.BotAccount": "bot_account",
    "api.Token": "api_tokens (no secret: only its digest is kept, and that is left out too)",
}
LEFT_OUT = {
    "admin.LogEntry": "the staff's own edit log of the admin: about staff work, not the player",
    "accounts.User_groups": "staff permissions, not data about a player",
    "accounts.User_user_permissions": "staff permissions, not data about a player",
    "games.Receipt": "request ids kept one day so a retried click does not act twice",
    "games.Spectator": "which running games the player looked at without a seat in the last"
    " half hour, deleted after it (the games to watch count spectators)",
}


class TooSoon(Exception):
    pass


def claim(user) -> None:
    """Count a download now, or raise ``TooSoon`` within ``DATA_EXPORT_INTERVAL_MINUTES``
    of the last one: the export reads every game of the player."""
    interval = timedelta(minutes=settings.DATA_EXPORT_INTERVAL_MINUTES)
    now = timezone.now()
    with transaction.atomic():
        row = get_user_model().objects.select_for_update().get(pk=user.pk)
        if row.data_exported_at and now - row.data_exported_at < interval:
            raise TooSoon(
                _(
                    "You downloaded your data a moment ago. "
                    "Please wait %(n)d minutes between downloads."
                )
                % {"n": settings.DATA_EXPORT_INTERVAL_MINUTES}
            )
        row.data_exported_at = now
        row.save(update_fields=["data_exported_at"])


def archive(user) -> bytes:
    """The zip: ``data.json`` and one record per ended game."""
    data, records = collect(user)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("data.json", _dump(data))
        for game_id, game_record in records.items():
            zipped.writestr(f"records/game-{game_id}.json", _dump(game_record))
    return buffer.getvalue()


def _dump(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1, default=_plain)


def _plain(value):
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    raise TypeError(type(value).__name__)


def _rows(queryset, *fields) -> list[dict[str, Any]]:
    return list(queryset.values(*fields))


def collect(user) -> tuple[dict[str, Any], dict[int, dict]]:
    """The download's data and the records of the player's ended games, by game id."""
    games, records = _games(user)
    data = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": timezone.now(),
        "account": {
            "id": user.pk,
            "username": user.get_username(),
            "display_name": user.display_name,
            "email": user.email,
            "date_joined": user.date_joined,
            "last_login": user.last_login,
            "last_seen": user.last_seen,
            "is_active": user.is_active,
        },
        "settings": {name: getattr(user, name) for name in user.PREFERENCE_FIELDS},
        "email_addresses": _rows(
            EmailAddress.objects.filter(user=user), "email", "verified", "primary"
        ),
        "games": games,
        "chat": _chat(user),
        "ratings": _rows(
            PlayerStats.objects.filter(user=user),
            "kind",
            "rating",
            "mu",
            "sigma",
            "rated_games",
            "played",
            "won",
            "ended",
            "timeouts",
            "median_move_seconds",
            "points_total",
            "points_games",
        ),
        "rating_history": _rows(
            RatingChange.objects.filter(user=user).order_by("created_at", "pk"),
            "game_id",
            "kind",
            "before",
            "after",
            "created_at",
        ),
        "game_records": _rows(
            SeatRecord.objects.filter(user=user).order_by("pk"),
            "game_id",
            "kind",
            "seat",
            "counted",
            "won",
            "timed_out",
            "move_seconds",
            "points",
        ),
        "opponents": [
            {"kind": row.kind, "opponent": row.opponent.name, "games": row.games, "won": row.won}
            for row in Opponent.objects.filter(user=user).select_related("opponent")
        ],
        "tournaments": [
            {
                "tournament": entrant.tournament_id,
                "name": entrant.tournament.name,
                "kind": entrant.tournament.kind,
                "tournament_status": entrant.tournament.status,
                "my_status": entrant.status,
                "group": entrant.group,
                "left_in_round": entrant.left_in_round,
            }
            for entrant in Entrant.objects.filter(user=user).select_related("tournament")
        ],
        "tournaments_created": _rows(
            Tournament.objects.filter(created_by=user), "id", "name", "kind", "status"
        ),
        "ladders": [
            {"ladder": e.ladder.name, "games_at_once": e.games_at_once, "active": e.active}
            for e in LadderPlayer.objects.filter(user=user).select_related("ladder")
        ],
        "push_devices": _rows(
            PushDevice.objects.filter(user=user),
            "name",
            "endpoint",
            "events",
            "quiet_hours",
            "digest",
            "created_at",
        ),
        "bot_account": _rows(BotAccount.objects.filter(user=user), "listed", "created_at"),
        "api_tokens": _rows(
            Token.objects.filter(user=user),
            "name",
            "scopes",
            "hint",
            "created_at",
            "last_used_at",
            "revoked_at",
        ),
        "webhooks": _rows(
            Webhook.objects.filter(user=user),
            "service",
            "url",
            "game_id",
            "events",
            "quiet_hours",
            "digest",
            "created_at",
            "disabled_at",
            "last_error",
        ),
        "chat_handles": _rows(Handle.objects.filter(user=user), "service", "handle"),
        "calendar": {"link_issued_at": _calendar(user)},
        "notes": notes.export(user),
        "premove_queues": _rows(
            Premove.objects.filter(user=user), "game_id", "seat", "actions", "dropped", "updated_at"
        ),
        "vacation": {
            "until": user.vacation_until,
            "days": list(VacationDay.objects.filter(user=user).values_list("day", flat=True)),
        },
        "muted_games": list(Mute.objects.filter(user=user).values_list("game_id", flat=True)),
        "messages": _rows(
            Notification.objects.filter(user=user).order_by("created_at", "pk"),
            "kind",
            "channel",
            "address",
            "game_id",
            "created_at",
            "sent_at",
            "skipped",
            "subject",
        ),
        "follows": [
            _name(pk)
            for pk in Follow.objects.filter(follower=user).values_list("followed_id", flat=True)
        ],
        "blocks": [
            _name(pk)
            for pk in Block.objects.filter(blocker=user).values_list("blocked_id", flat=True)
        ],
        "chat_mutes": [
            _name(pk)
            for pk in ChatMute.objects.filter(user=user).values_list("muted_id", flat=True)
        ],
        "automatch_tickets": _rows(
            Ticket.objects.filter(user=user).order_by("pk"),
            "kind",
            "options",
            "player_counts",
            "time_limit_days",
            "rated",
            "min_rating",
            "max_rating",
            "fill_at",
            "status",
            "created_at",
            "expires_at",
            "closed_at",
            "game_id",
        ),
        "invitations": [
            {
                "game": inv.game_id,
                "to": inv.invitee.name,
                "by": inv.invited_by.name,
                "status": inv.status,
                "created_at": inv.created_at,
            }
            for inv in Invitation.objects.filter(
                Q(invitee=user) | Q(invited_by=user)
            ).select_related("invitee", "invited_by")
        ],
        "rematches": {
            "proposed": _rows(
                Rematch.objects.filter(proposed_by=user), "game_id", "status", "created_at"
            ),
            "answers": _rows(
                RematchAnswer.objects.filter(user=user),
                "rematch__game_id",
                "accepted",
                "answered_at",
            ),
        },
        "cancel_votes": _rows(CancelVote.objects.filter(user=user), "game_id", "created_at"),
        "requests": {
            "asked": _rows(
                Request.objects.filter(asked_by=user),
                "game_id",
                "kind",
                "status",
                "until",
                "created_at",
            ),
            "answers": _rows(Answer.objects.filter(user=user), "request__game_id", "request__kind"),
        },
        "walkthroughs": list(
            Walkthrough.objects.filter(learner=user).values_list("game_id", flat=True)
        ),
        "reports_filed": [
            {
                "reported": report.reported.name,
                "game": report.game_id,
                "quoted": report.quoted,
                "reason": report.reason,
                "created_at": report.created_at,
                "status": report.status,
                "resolved_at": report.resolved_at,
            }
            for report in Report.objects.filter(reporter=user).select_related("reported")
        ],
        "moderation": _rows(
            AuditEntry.objects.filter(target_user=user).order_by("created_at", "pk"),
            "created_at",
            "action",
            "target_game_id",
            "reason",
        ),
        "chat_ban": _rows(ChatBan.objects.filter(user=user), "until", "reason", "created_at"),
    }
    return data, records


def _name(user_id) -> str:
    user = get_user_model().objects.filter(pk=user_id).first()
    return user.name if user else ""


def _calendar(user):
    key = CalendarKey.objects.filter(user=user).first()
    return key.issued_at if key else None


def _games(user) -> tuple[list[dict], dict[int, dict]]:
    """Each game the player sat in: an ended one's record, a running one's own view."""
    games, records = [], {}
    seats = (
        Seat.every.filter(Q(user=user) | Q(stood_in_for=user))
        .select_related("game")
        .order_by("game_id")
    )
    seen = set()
    for seat in seats:
        game = seat.game
        if game.pk in seen:
            continue
        seen.add(game.pk)
        entry = {
            "game": game.pk,
            "title": game.title,
            "kind": game.kind,
            "status": game.status,
            "seat": seat.number,
            "created_by_me": game.created_by_id == user.pk,
            "created_at": game.created_at,
            "finished_at": game.finished_at,
        }
        if game.status in (Game.Status.FINISHED, Game.Status.ABORTED) and game.started_at:
            records[game.pk] = record.export(game, user)
            entry["record"] = f"records/game-{game.pk}.json"
        elif game.status == Game.Status.ACTIVE and seat.user_id == user.pk and not seat.vacated:
            entry["my_view"] = record.export(game, user)  # their own view, nothing else
        games.append(entry)
    return games, records


def _chat(user) -> list[dict]:
    lines = (
        ChatMessage.objects.filter(user=user).select_related("game").order_by("created_at", "pk")
    )
    players: dict[int, list[str]] = {}
    out = []
    for line in lines:
        if line.game_id not in players:
            players[line.game_id] = [
                seat.user.name
                for seat in Seat.every.filter(game_id=line.game_id).select_related("user")
            ]
        out.append(
            {
                "game": line.game_id,
                "game_title": line.game.title,
                "players": players[line.game_id],
                "at": line.created_at,
                "text": line.text,
                "hidden_by_a_moderator": line.hidden,
            }
        )
    return out
