"""The frame's points tournaments stand on: games seated as planned, a seat handed to a
computer for good, ratings and the audit trail through ``games.extend``."""

from __future__ import annotations

import pytest

from community.models import PlayerStats
from games import extend, play
from games.models import Game
from moderation.models import AuditEntry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_seated_game_keeps_the_seats_in_the_order_given(count_kind):
    users = [UserFactory() for _ in range(3)]
    for rotation in range(3):
        order = users[rotation:] + users[:rotation]
        game = play.create_seated_game(
            count_kind, order, title="Table", options={}, time_limit_days=3
        )
        assert game.status == Game.Status.ACTIVE and not game.computer_played
        assert [s.user_id for s in game.seats.order_by("number")] == [u.pk for u in order]


def test_a_seated_game_refuses_a_player_twice_and_a_blocked_one(count_kind):
    a, b = UserFactory(), UserFactory(is_active=False)
    with pytest.raises(play.PlayError):
        play.create_seated_game(count_kind, [a, a], title="x", options={}, time_limit_days=3)
    with pytest.raises(play.PlayError):
        play.create_seated_game(count_kind, [a, b], title="x", options={}, time_limit_days=3)
    assert not Game.objects.exists()


def test_a_seat_handed_to_a_computer_is_not_the_players_to_take_back(count_kind):
    a, b = UserFactory(), UserFactory()
    game = play.create_seated_game(count_kind, [a, b], title="x", options={}, time_limit_days=3)
    assert play.hand_to_computer(game.pk, a) is True
    game.refresh_from_db()
    seat = game.seats.get(number=0)
    assert seat.user.is_bot and seat.stood_in_for is None and game.computer_played
    with pytest.raises(play.PlayError):
        play.reclaim_seat(game.pk, a)
    # A game is never left to computers alone.
    assert play.hand_to_computer(game.pk, b) is False
    assert game.seats.get(number=1).user == b


def test_ratings_come_from_the_registered_lookup_or_count_as_unrated():
    rated, newcomer = UserFactory(), UserFactory()
    PlayerStats.objects.create(user=rated, kind="siam", rating=1234)
    assert extend.ratings("siam", [rated.pk, newcomer.pk]) == {rated.pk: 1234, newcomer.pk: 1000}
    lookup = extend._ratings[0]
    extend.set_ratings(None)
    try:
        assert extend.ratings("siam", [rated.pk]) == {rated.pk: extend.UNRATED}
    finally:
        extend.set_ratings(lookup)


def test_the_audit_trail_takes_known_actions_with_a_reason_only():
    trail = extend.audit_trail()
    moderator, player = UserFactory(is_staff=True), UserFactory()
    with pytest.raises(ValueError):
        trail(moderator, "no_such_action", "why", user=player)
    with pytest.raises(ValueError):
        trail(moderator, "remove_entrant", " ", user=player)
    entry = trail(moderator, "remove_entrant", "why", user=player, target="in the cup")
    assert AuditEntry.objects.get() == entry and entry.target == "in the cup"
