"""'Your turn': one per turn, none while the game is open, preferences and mutes honoured."""

import datetime

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client

from games import play
from notify.models import Mute, Notification
from tests.factories import UserFactory

from .conftest import drain, mails_to, turn

pytestmark = pytest.mark.django_db


def test_one_mail_per_turn_for_a_turn_of_several_actions(game, anna, bert):
    play.act(game.pk, anna, {"type": "add", "n": 2}, None)
    drain()
    assert mail.outbox == []  # anna is still to move
    play.act(game.pk, anna, {"type": "end"}, None)
    drain()
    drain()
    [message] = mails_to(bert)
    assert message.subject == "Your turn in “Counting”"
    assert f"http://127.0.0.1:8000/g/{game.pk}/" in message.body
    assert "Anna adds 2." in message.body and "Anna ends the turn." in message.body
    html = message.alternatives[0][0]
    assert "Anna adds 2." in html and f'href="http://127.0.0.1:8000/g/{game.pk}/"' in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["List-Unsubscribe"].startswith("<http://127.0.0.1:8000/notify/")


def test_since_your_last_turn_starts_after_your_own_last_move(game, anna, bert, clock):
    turn(game, anna, 1)
    turn(game, bert, 2)
    turn(game, anna, 1)
    drain()
    last = mails_to(bert)[-1].body
    assert "Anna adds 1." in last and "Anna ends the turn." in last
    assert "Bert adds 2." not in last  # bert's own move is before his last turn


def test_the_move_is_in_the_mail_even_after_a_later_one(game, anna, bert, settings):
    turn(game, anna, 2)
    turn(game, bert, 1)  # bert moves before any worker delivered anything
    drain()
    assert mails_to(bert) == []  # that turn is over: no stale e-mail
    [to_anna] = mails_to(anna)
    assert "Bert adds 1." in to_anna.body


def test_no_mail_while_the_game_is_open_in_a_browser(game, anna, bert, clock):
    client = Client()
    client.force_login(bert)
    assert client.get(f"/g/{game.pk}/poll?v=0&c=0").status_code == 200
    turn(game, anna)
    drain()
    assert mails_to(bert) == []
    row = Notification.objects.filter(user=bert, kind="turn").latest("pk")
    assert row.skipped == "" and row.sent_at is None  # postponed, not dropped


def test_the_mail_comes_once_the_player_has_left_the_game_unmoved(game, anna, bert, clock):
    client = Client()
    client.force_login(bert)
    client.get(f"/g/{game.pk}/poll?v=0&c=0")
    turn(game, anna)
    clock.shift(datetime.timedelta(minutes=2))
    client.get(f"/g/{game.pk}/poll?v=0&c=0")  # still looking (the write is throttled)
    drain()
    assert mails_to(bert) == []
    clock.shift(datetime.timedelta(minutes=4))  # the tab was closed 4 minutes ago
    drain()
    assert mails_to(bert) == []
    clock.shift(datetime.timedelta(minutes=2))
    drain()
    assert len(mails_to(bert)) == 1
    drain()
    assert len(mails_to(bert)) == 1


def test_no_mail_at_all_if_the_player_moves_while_looking(game, anna, bert, clock):
    client = Client()
    client.force_login(bert)
    client.get(f"/g/{game.pk}/poll?v=0&c=0")
    turn(game, anna)
    drain()
    turn(game, bert)
    clock.shift(datetime.timedelta(minutes=30))
    drain()
    assert mails_to(bert) == []


def test_a_page_seen_six_minutes_ago_does_not_stop_the_mail(game, anna, bert, clock):
    client = Client()
    client.force_login(bert)
    client.get(f"/g/{game.pk}/")
    clock.shift(datetime.timedelta(minutes=6))
    turn(game, anna)
    drain()
    assert len(mails_to(bert)) == 1


def test_presence_is_written_at_most_once_a_minute(game, bert, clock, django_assert_num_queries):
    client = Client()
    client.force_login(bert)
    client.get(f"/g/{game.pk}/poll?v=0&c=0")
    seen = game.seats.get(user=bert).last_seen
    clock.shift(datetime.timedelta(seconds=30))
    client.get(f"/g/{game.pk}/poll?v=0&c=0")
    assert game.seats.get(user=bert).last_seen == seen
    clock.shift(datetime.timedelta(seconds=31))
    client.get(f"/g/{game.pk}/poll?v=0&c=0")
    assert game.seats.get(user=bert).last_seen > seen


@pytest.mark.parametrize("path", ["", "poll?v=0&c=0", "board"])
def test_presence_is_throttled_by_the_seat_read_with_the_game(game, anna, bert, clock, path):
    # The viewer's seat is read with the game: its visit time is the throttle, so
    # a cache that forgot the last visit does not cost a write on each reload.
    client = Client()
    client.force_login(bert)
    assert client.get(f"/g/{game.pk}/{path}").status_code == 200
    seen = game.seats.get(user=bert).last_seen
    assert seen is not None
    clock.shift(datetime.timedelta(seconds=30))
    cache.clear()
    client.get(f"/g/{game.pk}/{path}")
    assert game.seats.get(user=bert).last_seen == seen
    clock.shift(datetime.timedelta(seconds=31))
    client.get(f"/g/{game.pk}/{path}")
    assert game.seats.get(user=bert).last_seen > seen


def test_a_spectator_on_the_game_page_is_no_presence(game, anna, bert):
    client = Client()
    client.force_login(UserFactory())
    assert client.get(f"/g/{game.pk}/").status_code == 200
    assert [s.last_seen for s in game.seats.all()] == [None, None]


@pytest.mark.parametrize(
    "setup",
    [
        lambda bert, game: setattr(bert, "notify_turn", False),
        lambda bert, game: setattr(bert, "vacation_until", datetime.date(2030, 6, 1)),
        lambda bert, game: Mute.objects.create(user=bert, game=game),
    ],
    ids=["notify off", "on vacation", "muted"],
)
def test_no_turn_mail(game, anna, bert, setup):
    setup(bert, game)
    bert.save()
    turn(game, anna)
    drain()
    assert mails_to(bert) == []


@pytest.mark.parametrize("when", ["before the move", "after the move"])
def test_preferences_are_checked_again_when_sending(game, anna, bert, when):
    if when == "before the move":
        bert.notify_turn = False
        bert.save()
    turn(game, anna)
    bert.notify_turn = False
    bert.save()
    drain()
    assert mails_to(bert) == []


def test_german_player_gets_german_mail(game, anna, bert):
    bert.language = "de"
    bert.save()
    turn(game, anna)
    drain()
    [message] = mails_to(bert)
    assert message.subject == "Du bist am Zug in „Counting“"
    assert "Seit deinem letzten Zug:" in message.body


def test_game_started_and_finished_mails(count_kind, anna, bert, clock):
    game = play.create_game(
        anna, count_kind, title="Race", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, bert)
    drain()
    assert len([m for m in mail.outbox if "has started" in m.subject]) == 2
    bert.notify_game_end = False
    bert.save()
    mail.outbox.clear()
    play.resign(game.pk, anna)
    drain()
    [message] = mail.outbox
    assert message.to == [anna.email] and message.subject == "“Race” is over"
    # told to the player who resigned, not about them by name
    assert "You resigned." in message.body and "Anna resigned." not in message.body
    assert "“Race” (Count to Ten) is over." in message.body  # as the other mails name it
    assert "Winner: Bert" in message.body


def test_the_other_players_are_told_who_resigned(game, anna, bert):
    play.resign(game.pk, anna)
    drain()
    [to_bert] = mails_to(bert, "You won")
    assert "Anna resigned." in to_bert.body and "You resigned." not in to_bert.body
    [to_anna] = mails_to(anna, "is over")
    assert "You resigned." in to_anna.body


def test_the_mail_starts_its_sentence_with_a_capital_and_names_the_kind_once(
    count_kind, anna, bert, clock
):
    """The form's default title is the kind's name: "“Count to Ten”", not
    "“Count to Ten” (Count to Ten)"; another title keeps the kind beside it."""
    for title, named in [
        ("Count to Ten", "“Count to Ten”"),
        ("Friday", "“Friday” (Count to Ten)"),
    ]:
        game = play.create_game(
            anna, count_kind, title=title, players=2, options={}, time_limit_days=3, private=False
        )
        play.join(game.pk, bert)
        drain()
        assert f"Hello Bert,\n\n{named} has started." in mails_to(bert)[0].body
        first, second = sorted(game.seats.all(), key=lambda s: not s.to_move)
        turn(game, first.user)
        drain()
        [message] = mails_to(second.user, "Your turn")
        assert f"Hello {second.user.name},\n\nIt is your turn in {named}." in message.body
        assert f"It is your turn in {named}." in message.alternatives[0][0]
        mail.outbox.clear()


def test_the_first_turn_mail_has_no_gap_and_an_aborted_game_no_empty_ranking(
    count_kind, anna, bert, clock
):
    from enginekit import N_, msg

    game = play.create_game(
        anna, count_kind, title="Gaps", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, bert)
    drain()
    for message in mail.outbox:
        assert "\n\n\n" not in message.body.strip(), message.body  # no empty "since" list
    mail.outbox.clear()
    play.abort(game.pk, msg(N_("A moderator aborted the game: {note}"), note="Test"))
    drain()
    assert mail.outbox
    for message in mail.outbox:
        assert "Ranking" not in message.body and "Ranking" not in message.alternatives[0][0]


@pytest.mark.parametrize("game_mails", [True, False])
def test_the_first_mover_gets_one_mail_at_the_start(count_kind, anna, bert, clock, game_mails):
    """The start mail says "you move first": no turn mail follows it. A player
    who turned game mails off still learns of their turn, from the turn mail."""
    for user in (anna, bert):
        user.notify_game_end = game_mails
        user.save()
    game = play.create_game(
        anna, count_kind, title="Race", players=2, options={}, time_limit_days=3, private=False
    )
    play.join(game.pk, bert)
    drain()
    drain()
    first = game.seats.get(to_move=True).user
    other = bert if first == anna else anna
    [to_first] = mails_to(first)
    if game_mails:
        assert to_first.subject == "“Race” has started: your turn"
        assert "You move first." in to_first.body and "Deadline for your move:" in to_first.body
        [to_other] = mails_to(other)
        assert to_other.subject == "“Race” has started"
        assert "Deadline" not in to_other.body
    else:
        assert to_first.subject == "Your turn in “Race”"
        assert mails_to(other) == []
    assert not Notification.objects.filter(sent_at=None, skipped="").exists()


def test_a_game_cancelled_by_agreement_is_told_as_cancelled_not_as_won_by_nobody(game, anna, bert):
    from community import cancel

    drain()
    mail.outbox.clear()
    cancel.vote(game.pk, anna, True)
    cancel.vote(game.pk, bert, True)
    drain()
    message = mails_to(bert)[-1]
    assert message.subject == "“Counting” was cancelled"
    assert message.from_email.startswith("Play by Web <")  # the name the mails sign with
    assert "was cancelled without a result" in message.body
    assert "Winner" not in message.body and "nobody" not in message.body
    html = message.alternatives[0][0]
    assert "cancelled without a result" in html and "Winner" not in html


def test_two_winners_are_called_winners_in_the_mail_and_on_the_page(three, anna):
    game = three
    play.resign(game.pk, anna)
    drain()
    [to_anna] = mails_to(anna, "is over")
    assert "Winners: " in to_anna.body and "Winners:" in to_anna.alternatives[0][0]
    client = Client()
    client.force_login(anna)
    assert "<strong>Winners:</strong>" in client.get(f"/g/{game.pk}/").content.decode()
