"""The site sets only the cookies it cannot work without (session, CSRF, language), so
it needs no consent banner and the privacy notice can say so: every route, read from
the URL resolver (a new route is covered the day it is added), as a visitor and as a
player at a real game, and the forms that sign up, sign in, switch the language and
save settings."""

import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter

from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db

# The names the privacy notice lists (templates/privacy/_notice_*.html).
ESSENTIAL = {"sessionid", "csrftoken", "django_language"}


def test_the_essential_cookies_have_the_names_the_notice_gives():
    names = {settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME}
    assert names == ESSENTIAL


def _patterns(resolver, namespace=""):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            if entry.namespace == "admin":
                continue  # Django's own admin: below, its pages a player can reach
            yield from _patterns(entry, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            yield namespace + entry.name, entry.pattern


def every_url(game, player) -> list[str]:
    """A URL for every named route, its parameters filled from a real game and player
    (an id that names nothing is a 404, whose cookies count as much)."""
    known = {"game_id": game.pk, "username": player.username, "kind": game.kind, "channel": "email"}
    urls = ["/admin/", "/admin/login/"]
    for name, pattern in _patterns(get_resolver()):
        converters = getattr(pattern, "converters", {})
        params = pattern.regex.groupindex
        kwargs = {}
        for param in params:
            if param in known:
                kwargs[param] = known[param]
            elif isinstance(converters.get(param), IntConverter):
                kwargs[param] = 1
            else:
                kwargs[param] = "1-junk" if param == "key" else "1"
        urls.append(reverse(name, kwargs=kwargs))
    return sorted(set(urls))


def cookies_set(response) -> set[str]:
    return set(response.cookies.keys())


@pytest.fixture
def game(count_kind):
    return running_game("count", [UserFactory(username="anna"), UserFactory(username="ben")])


@pytest.mark.parametrize("who", ["visitor", "player"])
def test_no_route_sets_a_cookie_beyond_the_essential_ones(client, game, who):
    player = game.seats.get(number=0).user
    if who == "player":
        client.force_login(player)
    urls = every_url(game, player)
    assert f"/g/{game.pk}/" in urls and f"/u/{player.username}/" in urls and "/privacy/" in urls
    seen = set()
    for path in urls:
        for headers in ({}, {"HX-Request": "true"}):
            response = client.get(path, headers=headers)
            assert response.status_code < 500, path
            extra = cookies_set(response) - ESSENTIAL
            assert not extra, (path, extra)
            seen |= cookies_set(response)
    assert "csrftoken" in seen


def test_signing_up_in_and_out_switching_language_and_saving_settings_set_no_other_cookie(
    client, game
):
    seen = set()

    def visit(method, path, data=None):
        response = getattr(client, method)(path, data or {})
        assert response.status_code < 500, path
        seen.update(cookies_set(response))
        return response

    visit("get", "/accounts/signup/")
    # Each of these leaves a message for the next page ("Confirmation e-mail sent to ...").
    visit(
        "post",
        "/accounts/signup/",
        {
            "email": "newbie@example.com",
            "username": "newbie",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
        },
    )
    visit("get", "/")
    visit("post", "/accounts/login/", {"login": "anna", "password": "a-long-test-password"})
    visit("get", "/my/")
    visit("post", "/language/", {"language": "de", "next": "/"})
    visit("post", "/settings/", {"language": "de", "time_zone": "Europe/Berlin"})
    visit("get", "/settings/")
    visit("post", f"/g/{game.pk}/chat", {"text": "hello"})
    visit("post", "/accounts/logout/")
    visit("get", "/")
    assert seen <= ESSENTIAL, seen - ESSENTIAL
    assert {"sessionid", "csrftoken", "django_language"} <= seen
