"""A first game (issue 34): from the lobby, a practice game against an easy computer on
the real engine, in which every step the learner is asked to take comes with the rule it
uses, in English and German."""

import json
import random

import pytest
from django.test import Client

from games import play, registry, replay
from games.models import Game
from learn import walkthrough
from learn.models import Walkthrough
from siam.engine.maps import MAPS
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def lena(db):
    return UserFactory(username="lena", display_name="Lena")


@pytest.fixture
def computer_answers(django_capture_on_commit_callbacks):
    """Run ``call`` with the work after its commit done: the computer's move comes too."""

    def run(call, *args):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args)

    return run


def signed_in(user, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def lesson(html: str) -> str:
    return html.split('<aside class="lesson"', 1)[1].split("</aside>", 1)[0]


def test_the_lobby_offers_a_first_game_of_each_title_and_map(lena):
    lobby = signed_in(lena).get("/").content.decode()
    section = lobby.split('id="learn-h"', 1)[1].split("</section>", 1)[0]
    for name in ("King of Siam", "King of Saba", "Tal der Könige"):
        assert f"First game of {name}</button>" in section
    signed_out = Client().get("/").content.decode()
    assert "Sign up to play a first game." in signed_out


@pytest.mark.parametrize(
    ("kind", "map_choice", "title"),
    [("siam", "siam", "King of Siam"), ("siam", "saba", "King of Saba"), ("tal", "", "Tal")],
)
def test_a_first_game_is_a_private_game_against_one_easy_computer(lena, kind, map_choice, title):
    client = signed_in(lena)
    response = client.post("/learn/start", {"kind": kind, "map": map_choice})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert (
        game.status == Game.Status.ACTIVE
        and game.private
        and game.title.startswith(f"First game: {title}")
    )
    seats = list(game.seats.select_related("user"))
    assert [s.user.is_bot for s in seats].count(True) == 1 and len(seats) == 2
    assert Walkthrough.objects.get(game=game).learner == lena
    if map_choice:
        assert game.options["map"] == map_choice


def test_the_learner_is_told_the_rule_of_each_step_of_king_of_siam(lena, computer_answers):
    game = computer_answers(walkthrough.start, lena, "siam", "siam")
    client = signed_in(lena)
    box = lesson(client.get(game.get_absolute_url()).content.decode())
    assert "Your turn: play a card or pass" in box
    province = replay.current_state(game).map.provinces  # any name: the one fought over
    assert "is fought over" in box and any(p.name in box for p in province)
    assert "The whole rules" in box and 'href="/siam/rules/"' in box
    # Playing a faction card: the lesson turns to placing, then to taking a follower. A
    # faction with no province to place in (by the deal) skips straight to taking, so the
    # card is one the engine says leads to placing.
    state = replay.current_state(game)
    seat = game.seat_of(lena).number
    names = dict(zip(MAPS["siam"].faction_ids, MAPS["siam"].faction_names, strict=True))
    card = next(
        a
        for a in game.engine.legal_actions(state, seat)
        if a.get("card") in names and game.engine.apply(state, seat, a).pending.stage != "take"
    )
    computer_answers(play.act, game.pk, lena, card, None)
    box = lesson(client.get(game.get_absolute_url()).content.decode())
    assert "two followers of one faction" in box and f"{names[card['card']]} followers" in box
    while True:
        state = replay.current_state(game)
        actions = game.engine.legal_actions(state, seat)
        if state.pending is None or state.pending.stage == "take":
            break
        computer_answers(play.act, game.pk, lena, actions[0], None)
    box = lesson(client.get(game.get_absolute_url()).content.decode())
    assert "Take a follower" in box


def test_the_lesson_is_german_on_a_german_page(lena, computer_answers):
    lena.language = "de"
    lena.save()
    game = computer_answers(walkthrough.start, lena, "tal")
    box = lesson(signed_in(lena, "de").get(game.get_absolute_url()).content.decode())
    assert "Versteigerung" in box and "Steine kaufen" in box
    assert "Auction" not in box


def test_king_of_saba_names_its_own_invaders(lena, computer_answers):
    game = computer_answers(walkthrough.start, lena, "siam", "saba")
    box = lesson(signed_in(lena).get(game.get_absolute_url()).content.decode())
    assert "the Italians march in" in box


def test_nobody_else_and_no_other_game_gets_the_lessons(lena):
    first = walkthrough.start(lena, "tal")
    game = running_game("tal", [lena, UserFactory()])
    assert (
        '<aside class="lesson"' not in signed_in(lena).get(game.get_absolute_url()).content.decode()
    )
    staff = UserFactory(is_staff=True)
    page = signed_in(staff).get(first.get_absolute_url()).content.decode()
    assert '<aside class="lesson"' not in page


def test_junk_starts_nothing_and_says_why(lena):
    client = signed_in(lena)
    for data, said in [
        ({"kind": "chess"}, "There is no first game of this kind."),
        ({}, "There is no first game of this kind."),
        ({"kind": "siam", "map": "atlantis"}, "Choose one of the maps."),
    ]:
        page = client.post("/learn/start", data, follow=True).content.decode()
        assert said in page
    assert not Game.objects.exists()
    assert Client().post("/learn/start", {"kind": "tal"}).status_code == 302  # to sign in
    assert client.get("/learn/start").status_code == 405


@pytest.mark.parametrize(
    "kind, options", [("siam", {"map": "siam"}), ("siam", {"map": "saba"}), ("tal", {})]
)
def test_every_step_of_a_whole_game_has_its_rule_explained(kind, options):
    """Played to the end by random choices: whenever the learner may act, there is a lesson,
    and the move it suggests is one the learner may make, with a reason."""
    title = registry.get(kind)
    engine = title.engine
    rng = random.Random(11)
    for seed in range(3):
        state = engine.setup(2, engine.validate_options(2, options), seed)
        for _ in range(3000):
            if engine.result(state) is not None:
                break
            seat = min(engine.active_seats(state))
            view = engine.view(state, seat)
            if view.get("actions"):
                found = title.lesson(view)
                assert found is not None, (kind, view.get("phase"), view.get("pending"))
                assert found["title"]["key"] and found["lines"]
                suggested = found["suggest"]
                assert suggested["action"] in engine.legal_actions(state, seat)
                assert suggested["reason"]["key"]
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


def test_the_first_suggestion_of_king_of_siam_is_a_card_that_places_followers(
    lena, computer_answers
):
    """The lesson of the first turn is the struggle: "Suggest a move" names a card that
    puts followers on the board, with the lesson's reason, not the computer's pass."""
    game = computer_answers(walkthrough.start, lena, "siam", "siam")
    answer = signed_in(lena).post(f"/g/{game.pk}/hint", headers={"Accept": "application/json"})
    suggested = answer.json()
    assert json.loads(suggested["act"]) == {"type": "play", "card": "khon_thai"}
    province = next(
        p["name"]
        for p in game.engine.view(replay.current_state(game), None)["provinces"]
        if p["current"]
    )
    assert suggested["reason"] == (
        f"Khon Thai puts followers on the board, and the faction with the most followers in "
        f"{province} takes it over when everyone has passed. Passing places nothing."
    )
