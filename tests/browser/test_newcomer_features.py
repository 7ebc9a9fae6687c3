"""Issue 34 in Chromium: who is online, friends and blocking, the profile's statistics,
"since your last turn" step by step, a first game with its rules explained, and when the
turn mail comes; on both titles, in English and German, on a desktop and a 390×844 phone.
Screenshots go to test-artifacts/ (a selection is kept in docs/screenshots/)."""

import random

import pytest
from django.db import transaction

from games import play, replay
from games.models import Game
from tests.factories import UserFactory, running_game

from .conftest import check_axe
from .test_siam_play import BOARD, click_first_legal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def speaking(user, language):
    user.language = language
    user.save(update_fields=["language"])


def shot(page, artifacts, name, full_page=True):
    page.screenshot(path=str(artifacts / f"newcomer-{name}.png"), full_page=full_page)


def no_sideways_scroll(page):
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, width


def played(game, moves, rng, stop=None):
    """``moves`` random actions through the site's code (each by the seat to move)."""
    for _ in range(moves):
        game.refresh_from_db()
        state = replay.current_state(game)
        if game.engine.result(state) is not None:
            break
        seat = min(game.engine.active_seats(state))
        if stop is not None and stop(game, state, seat):
            break
        user = game.seats.get(number=seat).user
        play.act(game.pk, user, rng.choice(game.engine.legal_actions(state, seat)), None)
    game.refresh_from_db()
    return game


def end_with(game, winners, details):
    ranking = winners + [n for n in range(game.players) if n not in winners]
    result = {"winners": winners, "ranking": ranking, "reason": {"key": "Over."}}
    result["details"] = details
    with transaction.atomic():
        play._finish(play.locked(game.pk), result)


def test_who_is_online_following_and_the_friends_games_in_the_lobby(login, live_server, artifacts):
    ada = UserFactory(username="ada", display_name="Ada")
    bo = UserFactory(username="bo", display_name="Bo")
    siam = running_game("siam", [ada, bo], title="Ada and Bo in Siam")
    tal = running_game("tal", [bo, UserFactory(display_name="Cem")], title="Bo in the valley")
    bo_page = login(bo)
    bo_page.goto(f"{live_server.url}/")  # Bo is on the site now
    page = login(ada)
    page.goto(f"{live_server.url}{siam.get_absolute_url()}")
    header = page.locator(".game-header .players")
    assert header.locator(".online-dot").count() == 2  # Ada and Bo
    assert header.get_by_role("img", name="online now").count() == 2
    page.locator(".game-header").screenshot(path=str(artifacts / "newcomer-online-header.png"))

    page.goto(f"{live_server.url}/u/bo/")
    assert page.locator("h1 .online-dot").count() == 1
    page.get_by_role("button", name="Follow").click()
    assert "You follow Bo" in page.locator(".social-actions").inner_text()
    check_axe(page, "a profile one follows")
    page.goto(f"{live_server.url}/")
    friends = page.locator("section[aria-labelledby=friends-h]")
    assert friends.get_by_role("link", name="Ada and Bo in Siam").count() == 1
    assert friends.get_by_role("link", name="Bo in the valley").count() == 1
    check_axe(page, "the lobby with friends' games and first games")
    shot(page, artifacts, "lobby-1280")

    speaking(ada, "de")
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/")
    friends = page.locator("section[aria-labelledby=friends-h]")
    assert "Partien von Spielern, denen du folgst" in friends.inner_text()
    no_sideways_scroll(page)
    shot(page, artifacts, "lobby-de-390")
    page.goto(f"{live_server.url}{tal.get_absolute_url()}")
    assert page.locator(".game-header .players").get_by_role("img", name="gerade online").count()
    shot(page, artifacts, "online-tal-de-390", full_page=False)


def test_a_blocked_players_chat_is_gone_and_the_friends_page(login, live_server, artifacts):
    ada = UserFactory(username="ada", display_name="Ada")
    cy = UserFactory(username="cy", display_name="Cy")
    game = running_game("tal", [ada, cy], title="Quarrel")
    play.post_chat(game.pk, cy, "You will lose, Ada!")
    page = login(ada)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    assert "You will lose, Ada!" in page.locator("#chat-lines").inner_text()
    page.goto(f"{live_server.url}/u/cy/")
    page.once("dialog", lambda dialog: dialog.accept())  # "Block Cy? ..."
    page.get_by_role("button", name="Block").click()
    assert "You blocked Cy" in page.locator(".messages").inner_text()
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    assert "You will lose, Ada!" not in page.locator("#chat-lines").inner_text()
    page.goto(f"{live_server.url}/friends/")
    blocked = page.locator("ul[aria-labelledby=blocked-h]")
    assert blocked.get_by_role("link", name="Cy").count() == 1
    check_axe(page, "the friends page")
    shot(page, artifacts, "friends-1280")
    # Cy cannot join Ada's next game.
    waiting = play.create_game(
        ada, game.kind_info, title="Ada waits", players=3, options={}, time_limit_days=3,
        private=False,
    )  # fmt: skip
    cy_page = login(cy, **PHONE)
    cy_page.goto(f"{live_server.url}{waiting.get_absolute_url()}")
    cy_page.get_by_role("button", name="Join this game").click()
    assert "has blocked you" in cy_page.locator("body").inner_text()
    assert waiting.seats.count() == 1
    shot(cy_page, artifacts, "blocked-join-390", full_page=False)


def test_the_profile_shows_statistics_per_title(login, live_server, artifacts):
    ada = UserFactory(username="ada", display_name="Ada")
    bo, cem = UserFactory(display_name="Bo"), UserFactory(display_name="Cem")
    for points, other in ((30, bo), (12, bo), (25, cem)):
        game = running_game("tal", [ada, other])
        seat = game.seats.get(user=ada).number
        scores = [0, 0]
        scores[seat], scores[1 - seat] = points, 20
        end_with(game, [seat] if points > 20 else [1 - seat], {"points": scores})
    game = running_game("siam", [ada, bo])
    followers = [{"a": 2, "b": 1}, {"a": 3, "b": 3}]
    end_with(game, [1], {"followers": followers})
    page = login(UserFactory())
    page.goto(f"{live_server.url}/u/ada/")
    summary = page.locator("#record-h ~ .table-wrap").first.inner_text()
    assert "22.3 points" in summary and "2 of 3" in summary
    opponents = page.locator("dl.opponents").inner_text()
    assert "Bo (2 games, Ada won 1)" in opponents
    check_axe(page, "a profile with statistics")
    shot(page, artifacts, "profile-1280")
    speaking(ada, "de")
    german = login(ada, **PHONE)
    german.goto(f"{live_server.url}/u/ada/")
    assert "Häufigste Gegner" in german.locator("body").inner_text()
    assert "22,3 Punkte" in german.locator("#record-h ~ .table-wrap").first.inner_text()
    shot(german, artifacts, "profile-de-390")


@pytest.mark.parametrize("kind", ["siam", "tal"])
def test_since_your_last_turn_step_by_step_and_play_all(kind, login, live_server, artifacts):
    ada, bo = UserFactory(display_name="Ada"), UserFactory(display_name="Bo")
    game = running_game(kind, [ada, bo], title=f"Back from work ({kind})")
    rng = random.Random(5)
    ada_seat = game.seats.get(user=ada).number

    def back_to_ada(game, state, seat):
        # Stop when it is Ada's turn again and Bo has made four moves since her last.
        moves = game.moves.filter(undone=False)
        last = moves.filter(seat=ada_seat).order_by("-number").first()
        return (
            seat == ada_seat
            and last is not None
            and moves.filter(number__gt=last.number).exclude(seat=ada_seat).count() >= 4
        )

    played(game, 400, rng, stop=back_to_ada)
    page = login(ada)
    page.goto(f"{live_server.url}/g/{game.pk}/replay")
    bar = page.locator("[data-catchup]")
    step = bar.locator(".catchup-step")
    assert "Step 1 of" in step.inner_text()
    total = int(step.inner_text().split(" of ", 1)[1].split(":", 1)[0].split()[0])
    assert total >= 3
    check_axe(page, "a step of since your last turn")
    shot(page, artifacts, f"since-{kind}-1280")
    bar.get_by_role("link", name="Next step").click()
    page.wait_for_function(
        "() => document.querySelector('[data-catchup] .catchup-step')"
        ".textContent.includes('Step 2')"
    )
    assert "since=" in page.url and "at=" in page.url
    bar.get_by_role("button", name="Play all").click()
    page.locator("[data-catchup]").get_by_role("link", name="Done").wait_for(
        timeout=2000 * total + 5000
    )
    assert f"Step {total} of {total}" in page.locator(".catchup-step").inner_text()
    assert "It is your turn." in page.locator(".game-header").inner_text()

    speaking(ada, "de")
    phone = login(ada, **PHONE)
    phone.goto(f"{live_server.url}/g/{game.pk}/replay")
    assert "Seit deinem letzten Zug" in phone.locator("[data-catchup]").inner_text()
    assert "Schritt 1 von" in phone.locator(".catchup-step").inner_text()
    no_sideways_scroll(phone)
    shot(phone, artifacts, f"since-{kind}-de-390", full_page=False)


@pytest.mark.parametrize(
    ("button", "language", "viewport", "first_lesson"),
    [
        ("First game of King of Siam", "en", None, "Your turn: play a card or pass"),
        ("König von Saba: erste Partie", "de", PHONE, "Du bist dran: eine Karte spielen"),
        ("Tal der Könige: erste Partie", "de", None, "Versteigerung: Steine kaufen"),
        ("First game of Tal der Könige", "en", PHONE, "Auction: buy stones"),
    ],
)
def test_a_first_game_explains_each_step(
    button, language, viewport, first_lesson, login, live_server, artifacts
):
    learner = UserFactory(display_name="Lena")
    speaking(learner, language)
    page = login(learner, **(viewport or {}))
    page.goto(f"{live_server.url}/")
    page.get_by_role("button", name=button).click()
    page.wait_for_selector(BOARD)
    game = Game.objects.get()
    lesson = page.locator("aside.lesson")
    assert first_lesson in lesson.inner_text()
    assert lesson.get_by_role("link").count() == 1  # the whole rules
    check_axe(page, f"a first game ({button})")
    name = f"first-{game.kind}{'-saba' if game.options.get('map') == 'saba' else ''}-{language}"
    width = (viewport or {}).get("width", 1280)
    if viewport:
        no_sideways_scroll(page)
    shot(page, artifacts, f"{name}-{width}", full_page=False)
    if game.kind == "siam":
        lessons = set()
        for _ in range(6):  # a card, its steps, the follower taken; the computer answers
            click_first_legal(page)
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            if game.seats.get(user=learner).to_move:
                lessons.add(page.locator("aside.lesson h2").inner_text())
        assert len(lessons) >= 2, lessons  # each step its own rule


def test_when_the_turn_mail_comes_is_said_where_it_is_set(login, live_server, artifacts):
    ada, bo = UserFactory(display_name="Ada"), UserFactory(display_name="Bo")
    game = running_game("siam", [ada, bo])
    page = login(ada)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    said = page.locator(".mail-timing").inner_text()
    assert "it goes about 5 minutes after you leave it" in said
    page.get_by_role("link", name="Change when").click()
    box = page.get_by_label("E-mail me at once, even while I have the game open")
    assert not box.is_checked()
    assert page.locator("#id_quiet_from").input_value() == ""  # no quiet hours chosen
    box.check()
    # (the settings' own form: the chat handles below have a Save of their own)
    page.locator("form.stacked").get_by_role("button", name="Save").click()
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    assert "goes at once" in page.locator(".mail-timing").inner_text()
    speaking(ada, "de")
    phone = login(ada, **PHONE)
    phone.goto(f"{live_server.url}/settings/")
    assert "Nicht, solange du die Partie offen hast" in phone.locator("body").inner_text()
    no_sideways_scroll(phone)
    shot(phone, artifacts, "settings-de-390")
