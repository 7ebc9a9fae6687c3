"""On a phone the page never scrolls sideways: a wide table scrolls in its own box,
which the keyboard can reach, and its last column stays reachable (English and German).
Form errors stand out from the text around them."""

import pytest

from tests.community.helpers import finish_by_play
from tests.factories import UserFactory, running_game

from .conftest import check_axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 375

# Each table's last column scrolled into view: its right edge inside the viewport.
LAST_COLUMNS = """() => [...document.querySelectorAll('main table')].map(table => {
  const wrap = table.closest('.table-wrap');
  if (wrap) wrap.scrollLeft = wrap.scrollWidth;
  const cells = table.querySelectorAll('thead th');
  const last = cells[cells.length - 1].getBoundingClientRect();
  return [cells[cells.length - 1].textContent, last.left, last.right];
})"""


@pytest.fixture
def players(count_kind):
    names = [
        "Maximiliane Oberhuber-Schwarzenbach",
        "Bartholomäus Zwiebelmeister",
        "Konstantinopel Wanderer",
    ]
    users = [
        UserFactory(username=f"longname{i}", display_name=name) for i, name in enumerate(names)
    ]
    for i in range(3):
        finish_by_play(running_game("count", users, title=f"A long friendly game number {i}"))
        finish_by_play(running_game("count", users[:2], title=f"Duel of the long names {i}"))
    running_game("count", users, title="A long running game still going")
    return users


def test_tables_scroll_in_their_box_not_the_page_on_a_phone(browser, live_server, players):
    me = players[0]
    pages = ["/archive/", f"/u/{me.username}/", "/ratings/count/", "/my/"]
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(me)
    context = browser.new_context(viewport={"width": WIDTH, "height": 800})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    try:
        for lang in ("en", "de"):
            context.add_cookies(
                [{"name": "django_language", "value": lang, "url": live_server.url}]
            )
            for path in pages:
                page.goto(live_server.url + path)
                where = f"{path} ({lang}, {WIDTH} px)"
                assert page.locator("main table").count(), where
                assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate(
                    "window.innerWidth"
                ), where
                for name, left, right in page.evaluate(LAST_COLUMNS):
                    assert 0 <= left and right <= WIDTH + 0.5, (where, name, left, right)
                # A box that scrolls is a named region the keyboard can reach.
                for wrap in page.locator("main .table-wrap").all():
                    assert wrap.get_attribute("tabindex") == "0", where
                    assert wrap.get_attribute("role") == "region", where
                    label = wrap.get_attribute("aria-labelledby")
                    assert label and page.locator(f"#{label}").inner_text().strip(), where
                check_axe(page, where)
    finally:
        context.close()


ERROR_LOOK = """el => { const s = getComputedStyle(el), b = getComputedStyle(document.body);
  return [s.color, b.color, s.backgroundColor, s.borderLeftStyle, s.listStyleType]; }"""


def check(page, lang):
    errors = page.locator("main .errorlist").all()
    assert errors, page.url
    for error in errors:
        color, text, background, border, bullet = error.evaluate(ERROR_LOOK)
        assert color == "rgb(180, 35, 24)" != text, (lang, page.url, color, text)
        assert background == "rgb(255, 235, 233)", (lang, page.url, background)
        assert (border, bullet) == ("solid", "none"), (lang, page.url, border, bullet)
    check_axe(page, f"{page.url} with errors ({lang})")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_form_errors_stand_out_from_the_text(browser, live_server, lang):
    """A wrong password (a non-field error) and a field's error are drawn in the site's
    error colours, not like the help text around them."""
    UserFactory(username="errorcase")
    context = browser.new_context(viewport={"width": WIDTH, "height": 800})
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        page.locator("input[name=login]").fill("errorcase")
        page.locator("input[name=password]").fill("not-the-password")
        page.locator("main form button[type=submit]").click()
        page.locator("main .errorlist.nonfield").wait_for()
        check(page, lang)
        page.goto(f"{live_server.url}/accounts/signup/")
        page.locator("input[name=email]").fill("someone@example.com")
        page.locator("input[name=username]").fill("errorcase")
        page.locator("input[name=password1]").fill("a-long-new-password-1")
        page.locator("input[name=password2]").fill("a-long-new-password-2")
        page.locator("main form button[type=submit]").click()
        page.locator("main .errorlist").first.wait_for()
        check(page, lang)
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, WIDTH])
def test_one_long_word_in_chat_or_title_does_not_widen_the_game_page(
    login, live_server, count_kind, width
):
    """A pasted link or a joke of 400 letters breaks inside its line: the page keeps its
    width and the board its column."""
    from games import play

    users = [UserFactory(username=f"wide{i}") for i in range(2)]
    game = running_game("count", users, title="T" * 80)
    play.post_chat(game.pk, users[1], "ha" * 200)
    page = login(users[0], width=width)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    page.locator(".chat-messages li").first.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator(".chat-messages li").first.bounding_box()["width"] < width


def test_a_long_title_does_not_push_the_lobby_table_off_a_phone(login, live_server, count_kind):
    """One open game titled with 80 letters and no space: its title wraps in its cell,
    and the table still fits the phone with the players readable beside it."""
    from games import play

    host = UserFactory(username="longtitle")
    play.create_game(
        host, count_kind, title="W" * 80, players=3, options={}, time_limit_days=3, private=False
    )
    page = login(UserFactory(), width=WIDTH)
    page.goto(f"{live_server.url}/")
    table = page.locator("main table").first
    table.wait_for()
    width, wrap = table.evaluate("t => [t.offsetWidth, t.closest('.table-wrap').clientWidth]")
    assert width <= wrap, (width, wrap)
    last = table.locator("tbody td").last.bounding_box()
    assert last["x"] + last["width"] <= WIDTH, last  # the time per move, without scrolling
