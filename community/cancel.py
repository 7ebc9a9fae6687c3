"""Agreed cancellation: when every player of a running game agrees, it is aborted."""

from __future__ import annotations

from django.db import transaction

from enginekit import N_, msg
from games import play, signals
from games.models import Game

from .models import CancelVote


def vote(game_id: int, user, agree: bool) -> str:
    """Record (``agree``) or withdraw ``user``'s vote to cancel; returns what happened.

    "cancelled" when this vote was the last one missing: the game is aborted
    through ``play.abort`` (so nobody is rated and everyone is told), with
    the reason shown on its page. Voting twice, or withdrawing a vote never
    given, changes nothing ("agreed" / "withdrawn" again).
    """
    with transaction.atomic():
        game = play.locked(game_id)
        play.running_seat(game, user)
        if not agree:
            CancelVote.objects.filter(game=game, user=user).delete()
            _touch(game)
            return "withdrawn"
        vote, created = CancelVote.objects.get_or_create(game=game, user=user)
        # Computer players never vote: they agree to whatever the people agree on.
        players = set(game.seats.filter(user__is_bot=False).values_list("user_id", flat=True))
        agreed = set(game.cancel_votes.values_list("user_id", flat=True))
        if players <= agreed:
            play.abort(game.pk, msg(N_("All players agreed to cancel the game.")))
            return "cancelled"
        if created and agreed == {user.pk}:  # a new request, not an answer to one
            signals.cancel_asked.send(sender=Game, game=game, user=user, vote=vote.pk)
        _touch(game)
        return "agreed"


def _touch(game: Game) -> None:
    # The other players' pages poll the version: they see the vote at once.
    game.version += 1
    game.save(update_fields=["version"])
