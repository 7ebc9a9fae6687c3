""" "Since your last turn" (games.catchup): from the mail or the notice, a player steps
through the others' moves one at a time on the board, each step the position after a move
they saw happen, drawn from their own view; "play all" steps on by itself."""

import re

import pytest
from django.core import mail
from django.test import Client

from games import catchup, play
from notify import delivery
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(count_kind):
    """Count to Ten for three: Anna, Bert and Cleo each played a turn, Anna is to move."""
    anna, bert, cleo = (UserFactory(display_name=n) for n in ("Anna", "Bert", "Cleo"))
    game = play.create_game(
        anna, count_kind, title="Three", players=3, options={}, time_limit_days=3, private=True
    )
    play.join(game.pk, bert)
    play.join(game.pk, cleo)
    delivery.drain()  # the start's mails went at once
    mail.outbox.clear()
    game.refresh_from_db()
    by_seat = {s.number: s.user for s in game.seats.all()}
    for number in range(3):
        user = by_seat[number]
        play.act(game.pk, user, {"type": "add", "n": 2 if number == 1 else 1}, None)
        play.act(game.pk, user, {"type": "end"}, None)
    game.refresh_from_db()
    return game, by_seat


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def bar(html: str) -> str:
    return html.split("data-catchup>", 1)[1].split("</nav>", 1)[0]


def test_the_player_to_move_steps_through_the_others_moves_one_at_a_time(three):
    game, seats = three
    first = seats[0]
    client = signed_in(first)
    response = client.get(f"/g/{game.pk}/replay")
    assert response.status_code == 302
    assert response["Location"] == f"/g/{game.pk}/?since=2&at=3"  # after its own two moves
    names = {n: u.name for n, u in seats.items()}
    seen = []
    url = response["Location"]
    for _ in range(10):
        page = client.get(url).content.decode()
        step = bar(page)
        seen.append(re.search(r"<strong>(Step \d+ of \d+)</strong>", step).group(1))
        assert "Since your last turn" in page
        following = re.search(r'rel="next"[^>]*href="([^"]+)"', step)
        if following is None:
            assert ">Done</a>" in step
            break
        url = f"/g/{game.pk}/" + following.group(1).replace("&amp;", "&")
    assert seen == ["Step 1 of 4", "Step 2 of 4", "Step 3 of 4", "Step 4 of 4"]
    first_step = bar(client.get(f"/g/{game.pk}/?since=2&at=3").content.decode())
    assert f"{names[1]} adds 2." in first_step and f"{names[2]}" not in first_step
    # The board of each step is that past position (the history's own drawing).
    page = client.get(f"/g/{game.pk}/?since=2&at=3").content.decode()
    assert "The board shows the game as it was after move 3." in page


def test_each_step_comes_as_a_board_of_its_own_with_the_address_of_that_step(three):
    game, seats = three
    client = signed_in(seats[0])
    response = client.get(f"/g/{game.pk}/board?since=2&at=4", HTTP_HX_REQUEST="true")
    assert response["HX-Push-Url"] == f"/g/{game.pk}/?since=2&at=4"
    assert "Step 2 of 4" in response.content.decode()
    last = client.get(f"/g/{game.pk}/board?since=2", HTTP_HX_REQUEST="true")
    assert last["HX-Push-Url"] == f"/g/{game.pk}/?since=2"
    assert "Step 4 of 4" in last.content.decode() and ">Done</a>" in last.content.decode()


def test_the_turn_mail_links_to_the_first_step(three, django_capture_on_commit_callbacks):
    game, seats = three
    delivery.drain()
    to_first = [m for m in mail.outbox if m.to == [seats[0].email] and "Your turn" in m.subject]
    assert to_first, [m.subject for m in mail.outbox]
    link = f"http://127.0.0.1:8000/g/{game.pk}/replay?since=2"
    assert "Watch these moves one at a time on the board: " + link in to_first[-1].body
    assert f'href="{link}"' in to_first[-1].alternatives[0][0]
    response = signed_in(seats[0]).get(f"/g/{game.pk}/replay?since=2", follow=True)
    assert "Step 1 of 4" in response.content.decode()


def test_the_since_you_last_looked_notice_offers_the_steps(three):
    game, seats = three
    client = signed_in(seats[1])
    play.act(game.pk, seats[0], {"type": "add", "n": 1}, None)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Since you last looked: 3 new moves, marked." in page  # since Bert's own move
    assert f'href="/g/{game.pk}/replay?since=4">Watch them one at a time</a>' in page


def test_only_a_player_gets_the_steps_and_junk_shows_the_plain_page(three):
    game, seats = three
    stranger = signed_in(UserFactory())
    assert stranger.get(f"/g/{game.pk}/replay").status_code == 404  # a private game
    assert Client().get(f"/g/{game.pk}/replay").status_code == 404  # signed out: hidden too
    game.private = False
    game.save()
    response = Client().get(f"/g/{game.pk}/replay")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert stranger.get(f"/g/{game.pk}/replay").status_code == 302  # to the plain page
    client = signed_in(seats[0])
    for junk in ("abc", "-1", "999", "1e9", ""):
        response = client.get(f"/g/{game.pk}/?since={junk}&at=3")
        assert response.status_code == 200
        assert "data-catchup" not in response.content.decode()
    assert client.get(f"/g/{game.pk}/replay?since=junk").status_code == 302


def test_a_step_is_a_move_the_player_saw_happen(three):
    game, seats = three
    assert catchup.steps_since(game, 0, 2) == [3, 4, 5, 6]
    assert catchup.moves_before_turn(game, 1) == 4
    assert catchup.moves_before_turn(game, 1, move_count=3) == 3
    assert catchup.moves_before_turn(game, 1, move_count=2) == 0


def test_with_nothing_since_there_are_no_steps(three):
    game, seats = three
    client = signed_in(seats[2])  # the last to move: nobody moved since
    response = client.get(f"/g/{game.pk}/replay")
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    page = client.get(f"/g/{game.pk}/?since={game.move_count}").content.decode()
    assert "data-catchup" not in page
