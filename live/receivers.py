"""After a commit: tell the streams. A game's channel gets its new version and chat
count; when the version moved (a turn may have changed hands, the game may have
ended), each player's own channel is told that their badge may have changed, and so
is a player who was just invited to a game."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver

from games import signals
from games.models import Seat

from . import channels, hub


@receiver(signals.changed, dispatch_uid="live.changed")
def game_changed(sender, game_id, version, chat_count, version_changed, **kwargs):
    messages = [(channels.game_channel(game_id), channels.GameState(version, chat_count).wire)]
    if version_changed:
        players = Seat.every.filter(game_id=game_id, user__is_bot=False).values_list(
            "user_id", flat=True
        )
        messages += [(channels.user_channel(user), channels.BADGE) for user in set(players)]
    hub.publish(messages)


@receiver(signals.invited, dispatch_uid="live.invited")
def invited(sender, game, user, **kwargs):
    message = [(channels.user_channel(user.pk), channels.BADGE)]
    transaction.on_commit(lambda: hub.publish(message))
