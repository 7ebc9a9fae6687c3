"""Every route of a game, read from the URL resolver (so a new route is covered
the day it is added): an outsider learns nothing of a private game, and junk
posted anywhere is refused cleanly and changes nothing."""

import json
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api import tokens
from games import play, replay
from games.models import ChatMessage, Game, Move, Receipt, Seat
from notes import keeping as notes
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TITLE = "Zanzibar-Secret-Title"
CHAT = "the-private-chat-line-Q7"
NOTE = "alices-private-note-K3"


def _walk(resolver, prefix=""):
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _walk(entry, route)
        elif isinstance(entry, URLPattern):
            yield route, entry.callback


def game_routes():
    """(path template, view) of every route that takes a game id."""
    return [(r, cb) for r, cb in _walk(get_resolver()) if "<int:game_id>" in r]


def other_routes():
    """Every route without parameters outside the admin and the account pages."""
    return [
        r
        for r, _ in _walk(get_resolver())
        if "<" not in r and not r.startswith(("admin/", "accounts/")) and "^" not in r
    ]


def api_routes():
    """(path template, view) of every route of the API (``api/``)."""
    return [(r, cb) for r, cb in _walk(get_resolver()) if r.startswith("api/")]


def url(route, game, game_id=None):
    return "/" + route.replace("<int:game_id>", str(game_id or game.pk))


@pytest.fixture
def private_game(count_kind):
    alice = UserFactory(username="alice", display_name="Aliceinwonder")
    bob = UserFactory(username="bob", display_name="Bobthebuilder")
    game = play.create_game(
        alice, count_kind, title=TITLE, players=2, options={}, time_limit_days=3, private=True
    )
    play.join(game.pk, bob)
    play.post_chat(game.pk, alice, CHAT)
    game.refresh_from_db()
    notes.save(game, alice, NOTE)
    return game


def snapshot(game):
    game.refresh_from_db()
    return (
        game.version,
        game.status,
        game.chat_count,
        Move.objects.filter(game=game).count(),
        ChatMessage.objects.filter(game=game).count(),
        Seat.objects.filter(game=game).count(),
        Receipt.objects.count(),
    )


def test_the_resolver_finds_the_game_routes():
    routes = [r for r, _ in game_routes()]
    for name in ("board", "poll", "act", "undo", "resign", "chat", "join", "leave", "live"):
        assert any(r.endswith(name) for r in routes), name


def test_every_game_route_goes_through_the_visibility_gate():
    for route, view in game_routes():
        assert getattr(view, "game_route", False), f"{route} does not use games.views.game_route"


REQUESTS = [
    ("get", {}, {}),
    ("get", {}, {"Accept": "text/event-stream"}),  # as a page's live stream asks
    ("post", {"data": {"action": "{}", "text": "hi", "version": "1"}}, {}),
    ("post", {"data": {"action": "{}"}}, {"HX-Request": "true"}),
    ("post", {"data": b'{"action": {}}', "content_type": "application/json"}, {}),
    ("post", {"data": b"not json", "content_type": "application/json"}, {}),
    ("put", {}, {}),
    ("delete", {}, {}),
]


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_an_outsider_learns_nothing_of_a_private_game_on_any_route(client, private_game, who):
    if who == "outsider":
        client.force_login(UserFactory(username="eve"))
    before = snapshot(private_game)
    for route, _ in game_routes():
        for method, kwargs, headers in REQUESTS:
            for suffix in ("", "?at=0", "?v=0&c=0"):
                path = url(route, private_game) + suffix
                response = getattr(client, method)(path, headers=headers, **kwargs)
                # The API knows no session: without a token, nothing but "unauthorized".
                refusals = (401, 405) if route.startswith("api/") else (404, 405)
                assert response.status_code in refusals, (method, path, response.status_code)
                body = response.content.decode()
                for secret in (TITLE, CHAT, NOTE, "Aliceinwonder", "Bobthebuilder"):
                    assert secret not in body, (method, path, secret)
                # Never Django's debug page, which lists every URL of the site.
                assert "URLconf" not in body
    assert snapshot(private_game) == before
    for route in other_routes():
        body = client.get("/" + route).content.decode()
        assert TITLE not in body and CHAT not in body and NOTE not in body, route
    # The archive's search by the players of the game, and the viewer's own ("mine").
    for query in ("player=alice", "player=alice&against=bob", "mine=1", "mine=1&player=alice"):
        body = client.get(f"/archive/?{query}").content.decode()
        assert TITLE not in body, query
    for username in ("alice", "bob"):
        assert TITLE not in client.get(f"/u/{username}/").content.decode()


def _token(user, scopes=("read", "play", "chat")) -> dict:
    return {"Authorization": "Bearer " + tokens.make(user, "walk", scopes)[1]}


def test_an_outsiders_token_learns_nothing_of_a_private_game_on_any_api_route(client, private_game):
    """With a token of every scope, an outsider gets on every route of a game exactly what
    they get for a game that does not exist, and changes nothing."""
    headers = _token(UserFactory(username="eve"))
    before = snapshot(private_game)
    routes = [r for r, _ in api_routes() if "<int:game_id>" in r]
    assert len(routes) >= 10
    for route in routes:
        for method, kwargs, extra in REQUESTS:
            responses = [
                getattr(client, method)(
                    url(route, private_game, game_id), headers={**headers, **extra}, **kwargs
                )
                for game_id in (private_game.pk, 999999)
            ]
            for response in responses:
                assert response.status_code in (400, 404, 405), (method, route)
                body = response.content.decode()
                for secret in (TITLE, CHAT, "Aliceinwonder", "Bobthebuilder"):
                    assert secret not in body, (method, route, secret)
            hidden, missing = responses
            assert (hidden.status_code, hidden.content) == (missing.status_code, missing.content)
    assert snapshot(private_game) == before
    for route in (r for r, _ in api_routes() if "<" not in r):
        body = client.get("/" + route, headers=headers).content.decode()
        assert TITLE not in body and CHAT not in body, route


def test_another_seats_token_reads_nothing_secret_on_any_api_route(client, private_game):
    """Each seat's secret number is its own: the other seat's token reads it on no route."""
    secrets = replay.current_state(private_game).secrets
    for number in (0, 1):
        user = private_game.seats.get(number=number).user
        headers = _token(user, ("read",))
        # A number on its own: not the digits inside a timestamp's microseconds.
        other_secret = re.compile(rf"(?<!\d){secrets[1 - number]}(?!\d)")
        own_secret_seen = False
        for route in (r for r, _ in api_routes() if "{" not in r and "events" not in r):
            if "<" in route and "<int:game_id>" not in route:
                continue
            body = client.get(url(route, private_game), headers=headers).content.decode()
            assert not other_secret.search(body), (number, route)
            own_secret_seen |= bool(re.search(rf"(?<!\d){secrets[number]}(?!\d)", body))
        assert own_secret_seen  # the walk did read the game's view


def test_the_players_still_see_their_private_game(client, private_game):
    client.force_login(private_game.seats.get(user__username="bob").user)
    assert NOTE not in client.get(f"/g/{private_game.pk}/note").content.decode()  # alice's
    client.force_login(private_game.seats.get(user__username="alice").user)
    assert NOTE in client.get(f"/g/{private_game.pk}/note").content.decode()
    assert TITLE in client.get(f"/g/{private_game.pk}/").content.decode()
    assert CHAT in client.get(f"/g/{private_game.pk}/board").content.decode()


# Junk for every POST route: JSON values of any shape, and form fields of any text.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
field_names = st.sampled_from(["action", "version", "text", "token", "request_id", "x"])
form_bodies = st.dictionaries(field_names, st.text(max_size=40), max_size=5)
json_bodies = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(field_names, json_values, max_size=4).map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=60),
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    route_index=st.integers(min_value=0, max_value=50),
    who=st.sampled_from(["anonymous", "outsider", "seat0", "seat1"]),
    as_json=st.booleans(),
    htmx=st.booleans(),
    form=form_bodies,
    body=json_bodies,
)
def test_junk_posted_to_any_route_is_refused_cleanly(
    client, private_game, route_index, who, as_json, htmx, form, body
):
    routes = [r for r, _ in game_routes()]
    route = routes[route_index % len(routes)]
    client.logout()
    if who == "outsider":
        client.force_login(UserFactory())
    elif who.startswith("seat"):
        client.force_login(private_game.seats.get(number=int(who[-1])).user)
    before = snapshot(private_game)
    headers = {"HX-Request": "true"} if htmx else {}
    if as_json:
        response = client.post(
            url(route, private_game), body, content_type="application/json", headers=headers
        )
    else:
        response = client.post(url(route, private_game), form, headers=headers)
    assert response.status_code < 500, (route, who, form if not as_json else body)
    if response.status_code >= 400:
        assert snapshot(private_game) == before, (route, who, response.status_code)
    if who in ("anonymous", "outsider"):
        assert snapshot(private_game) == before
        assert TITLE.encode() not in response.content


@pytest.mark.parametrize(
    "path",
    [
        "/u/%00/",
        "/g/1/?at=%00",
        "/archive/?after=%00",
        "/archive/?player=%00",
        "/u/%ff%fe/",
        "/g/%00/",
    ],
)
def test_nul_and_undecodable_input_is_a_clean_refusal(client, path):
    assert client.get(path).status_code in (400, 404)


def test_a_hidden_game_is_a_plain_404_even_with_debug_on(client, private_game, settings):
    settings.DEBUG = True
    client.force_login(UserFactory(username="eve"))
    for path in (f"/g/{private_game.pk}/", f"/g/{private_game.pk}/board", "/invite/junk/"):
        response = client.get(path)
        assert response.status_code == 404
        body = response.content.decode()
        assert "URLconf" not in body and "games/urls" not in body
        assert "There is nothing here" in body


def test_an_old_invite_link_is_no_pass_to_read_the_game(client, private_game):
    token = private_game.invite_token()  # the game has started since
    client.force_login(UserFactory(username="cleo"))
    for headers in ({}, {"HX-Request": "true"}):
        response = client.post(f"/g/{private_game.pk}/join", {"token": token}, headers=headers)
        assert response.status_code == 404
        body = response.content.decode()
        assert TITLE not in body and CHAT not in body and "Aliceinwonder" not in body


def test_an_invited_user_refused_by_a_full_game_sees_only_the_refusal(client, count_kind):
    host = UserFactory(username="host")
    game = play.create_game(
        host, count_kind, title=TITLE, players=2, options={}, time_limit_days=3, private=True
    )
    token = game.invite_token()
    # Two invited players click "join" at the same moment: the second is refused.
    Game.objects.filter(pk=game.pk).update(players=1)
    client.force_login(UserFactory(username="late"))
    response = client.post(f"/g/{game.pk}/join", {"token": token})
    assert response.status_code == 400
    body = response.content.decode()
    assert "full" in body and TITLE not in body


@pytest.mark.parametrize("signed_in", [True, False])
def test_an_invite_link_that_came_too_late_says_why_and_nothing_more(
    client, private_game, signed_in
):
    token = private_game.invite_token()  # the game has started since
    if signed_in:
        client.force_login(UserFactory(username="cleo"))
    response = client.get(f"/invite/{token}/", follow=True)
    assert response.status_code == 410
    body = response.content.decode()
    assert "has already started" in body and "every seat was taken" in body
    assert TITLE not in body and CHAT not in body and "Aliceinwonder" not in body
    # a player of the game who follows the link again is taken to the game
    client.force_login(private_game.seats.first().user)
    assert client.get(f"/invite/{token}/")["Location"] == private_game.get_absolute_url()


def test_the_data_download_holds_nothing_of_a_private_game_to_an_outsider(client, private_game):
    """The download (``/settings/data/``, POST) is the player's own: an outsider's holds
    nothing of a game they are not in, a visitor gets none, and a player's holds their
    own view of the running game only (no seed, no move list)."""
    assert client.post("/settings/data/").status_code == 302  # to the sign-in page
    client.force_login(UserFactory(username="eve"))
    for path in ("/settings/data/", "/settings/delete/"):
        assert client.get(path).status_code == 200
    body = client.post("/settings/data/").content
    assert body.startswith(b"PK")
    text = _unzipped(body)
    for secret in (TITLE, CHAT, NOTE, "Aliceinwonder", "Bobthebuilder"):
        assert secret not in text
    client.force_login(private_game.seats.get(number=0).user)
    mine = json.loads(_unzipped(client.post("/settings/data/").content))
    [game] = mine["games"]
    assert game["my_view"]["viewer"] == 0
    assert "seed" not in game["my_view"] and "moves" not in game["my_view"]
    assert str(private_game.seed) not in json.dumps(mine)


def _unzipped(body: bytes) -> str:
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(body)) as zipped:
        return "".join(zipped.read(name).decode() for name in zipped.namelist())


def automatch_routes():
    """Every route of the automatch app (tickets: a player's own)."""
    return [r for r, _ in _walk(get_resolver()) if r.startswith("automatch/")]


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_an_outsider_learns_nothing_of_a_players_ticket_and_changes_nothing(client, who):
    from automatch.models import Ticket

    anna = UserFactory(username="anna", display_name="Aliceinwonder")
    client.force_login(anna)
    client.post(
        "/automatch/new/siam",
        {"option_map": "saba", "player_counts": ["2"], "time_limit_days": "14", "lapse_days": "7"},
    )
    ticket = Ticket.objects.get()
    client.logout()
    if who == "outsider":
        client.force_login(UserFactory(username="eve"))
    routes = automatch_routes()
    assert {"automatch/", "automatch/<int:ticket_id>/withdraw"} <= set(routes)
    for route in routes:
        path = "/" + route.replace("<int:ticket_id>", str(ticket.pk)).replace("<slug:kind>", "siam")
        for method in ("get", "post"):
            response = getattr(client, method)(f"{path}?t={ticket.pk}")
            assert response.status_code < 500, (method, path)
            body = response.content.decode()
            # How many look for each title is public; whose ticket it is, and what else it
            # asks, is not.
            for secret in ("Aliceinwonder", "14 days per move", f'action="/automatch/{ticket.pk}/'):
                assert secret not in body, (method, path, secret)
            assert "HX-Redirect" not in response.headers
    ticket.refresh_from_db()
    assert ticket.status == Ticket.Status.OPEN and Ticket.objects.count() == 1
