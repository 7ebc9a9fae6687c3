"""The King of Siam / Saba board page: every clickable element type, history, summary, text view."""

import html
import json
import re

import pytest

from games import play, replay
from siam.engine import ENGINE
from siam.engine.maps import MAPS
from siam.layout import LAYOUTS, shared_edge

from .conftest import seat_user

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def page(client, game, user, at=None):
    client.force_login(user)
    url = f"/g/{game.pk}/" + (f"?at={at}" if at is not None else "")
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def clickable(text, cls=None):
    """The actions of the page's clickable board parts (data-act), optionally by CSS class."""
    found = []
    for m in re.finditer(r"<(\w+)([^>]*?)data-act=\"([^\"]*)\"([^>]*)>", text):
        attrs = m.group(2) + m.group(4)
        if cls is None or re.search(rf'class="[^"]*\b{cls}\b', attrs):
            found.append(json.loads(html.unescape(m.group(3))))
    return found


def to_move(game):
    game.refresh_from_db()
    seat = game.seats.get(to_move=True)
    return seat.user, seat.number


def legal(game, seat):
    return ENGINE.legal_actions(replay.current_state(game), seat)


def post(client, game, action, htmx=True):
    game.refresh_from_db()
    return client.post(
        f"/g/{game.pk}/act",
        {"action": json.dumps(action), "version": str(game.version)},
        **(HX if htmx else {}),
    )


def test_only_the_player_to_move_sees_clickable_cards_and_pass(client, siam_game):
    user, seat = to_move(siam_game)
    text = page(client, siam_game, user)
    cards = clickable(text, "card-face")
    assert cards and all(a["type"] == "play" for a in cards)
    assert {"type": "pass"} in clickable(text, "act-button")
    for action in clickable(text):
        assert action in legal(siam_game, seat)
    other = seat_user(siam_game, 1 - seat)
    text = page(client, siam_game, other)
    assert clickable(text) == []
    assert "Anna to move." in text or "Ben to move." in text


def test_spectators_see_the_board_without_actions(client, siam_game):
    text = client.get(f"/g/{siam_game.pk}/").content.decode()
    assert 'class="map-svg"' in text
    assert clickable(text) == []


def test_clicking_a_card_returns_the_board_with_the_next_step(client, siam_game):
    user, seat = to_move(siam_game)
    client.force_login(user)
    response = post(client, siam_game, {"type": "play", "card": "khon_thai"})
    assert response.status_code == 200
    text = response.content.decode()
    assert text.lstrip().startswith('<div id="board-area"')
    assert "is playing Khon Thai" in text
    places = clickable(text, "fol-act")
    assert places and all(a["type"] == "place" for a in places)
    assert sorted(places, key=json.dumps) == sorted(
        [a for a in legal(siam_game, seat) if a["type"] == "place"], key=json.dumps
    )


def test_followers_are_clickable_for_place_pick_and_take(client, siam_game):
    user, seat = to_move(siam_game)
    client.force_login(user)
    text = post(client, siam_game, {"type": "play", "card": "one_vs_one"}).content.decode()
    picks = clickable(text, "fol-act")
    assert picks and all(a["type"] == "pick" for a in picks)
    first = picks[0]
    text = post(client, siam_game, first).content.decode()
    assert 'class="fol clickable picked"' not in text  # the picked follower is no longer an option
    assert "picked" in text and "Chosen so far" in text
    second = clickable(text, "fol-act")[0]
    assert second["province"] != first["province"]
    text = post(client, siam_game, second).content.decode()
    takes = clickable(text, "fol-act")
    assert takes and all(a["type"] == "take" for a in takes)
    text = post(client, siam_game, takes[0]).content.decode()
    assert re.search(r"takes \w+ \w+ follower from", text)
    game_user, _ = to_move(siam_game)
    assert game_user != user


def test_provinces_are_clickable_for_a_faction_card(client, siam_game):
    user, seat = to_move(siam_game)
    client.force_login(user)
    state = replay.current_state(siam_game)
    faction = next(
        c for c in ("rama", "lao", "malai") if {"type": "play", "card": c} in legal(siam_game, seat)
    )
    text = post(client, siam_game, {"type": "play", "card": faction}).content.decode()
    provinces = clickable(text, "prov-act")
    assert provinces, "a faction card places into provinces"
    assert all(a["type"] == "place" and a["faction"] == faction for a in provinces)
    assert state.map_id == "siam"


def test_track_tiles_are_clickable_for_maharacha(client, siam_game):
    user, seat = to_move(siam_game)
    client.force_login(user)
    text = post(client, siam_game, {"type": "play", "card": "maharacha"}).content.decode()
    tiles = clickable(text, "tile-face")
    assert len(tiles) == 8 and all(a["type"] == "tile" for a in tiles)
    text = post(client, siam_game, tiles[0]).content.decode()
    assert 'selected">' in text.split('class="tiles"', 1)[1].split("</ul>", 1)[0]
    tiles = clickable(text, "tile-face")
    text = post(client, siam_game, tiles[0]).content.decode()
    kings = clickable(text, "tile-face")
    assert len(kings) == 2 and all(a["type"] == "king" for a in kings)
    text = post(client, siam_game, kings[0]).content.decode()
    assert "crown" in text
    takes = clickable(text, "fol-act")
    assert takes and all(a["type"] == "take" for a in takes)


def test_without_javascript_the_forms_post_and_redirect(client, siam_game):
    user, _ = to_move(siam_game)
    client.force_login(user)
    response = post(client, siam_game, {"type": "pass"}, htmx=False)
    assert response.status_code == 302
    text = client.get(response["Location"]).content.decode()
    assert "passes." in text


def test_svg_links_fall_back_to_the_action_list(client, siam_game):
    user, _ = to_move(siam_game)
    client.force_login(user)
    text = post(client, siam_game, {"type": "play", "card": "khon_thai"}).content.decode()
    targets = re.findall(r'<a class="act [^"]*" href="#(siam-act-\d+)"', text)
    assert targets
    for target in targets:
        assert f'id="{target}"' in text


def test_illegal_or_stale_clicks_show_the_error_on_the_board(client, siam_game):
    user, _ = to_move(siam_game)
    client.force_login(user)
    response = post(client, siam_game, {"type": "tile", "province": "korat"})
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()


def test_history_shows_the_same_board_without_clickable_parts(client, siam_game):
    user, _ = to_move(siam_game)
    _, seat = to_move(siam_game)
    play.act(siam_game.pk, user, {"type": "play", "card": "khon_thai"}, None)
    play.act(siam_game.pk, user, legal(siam_game, seat)[0], None)
    text = page(client, siam_game, user, at=0)
    assert 'class="map-svg"' in text
    assert "Position after move 0 of 2" in text
    assert clickable(text) == []
    # Nobody is to move in a past position and no card is in progress: no empty status box.
    assert 'class="siam-status' not in text
    text = client.get(f"/g/{siam_game.pk}/board?at=1").content.decode()
    assert "is playing Khon Thai" in text and clickable(text) == []
    assert 'class="siam-status' in text


def test_text_view_lists_the_board_and_the_actions(client, siam_game):
    user, seat = to_move(siam_game)
    text = page(client, siam_game, user)
    view = text[text.index('<details class="siam-text"') :]
    assert "Provinces in track order" in view
    assert "Your possible actions" in view
    assert view.count('<button class="action">') == len(legal(siam_game, seat))
    assert "Play Maharacha</button>" in view


def test_the_board_shows_counts_track_supply_and_players(client, siam_game):
    user, seat = to_move(siam_game)
    text = page(client, siam_game, user)
    view = ENGINE.view(replay.current_state(siam_game), seat)
    current = next(t for t in view["track"] if t["current"])
    assert "struggle 1 of 8" in text
    assert current["name"] in text
    assert 'class="now-tag"' in text
    for p in view["provinces"]:
        assert p["name"].split()[0] in text
    assert "Your cards" in text
    assert "Playing aid" in text
    assert "Supply" in text and "Out of the game" in text  # two players: 2 of each colour removed
    # the invader's count is named on the page, not only for screen readers and mice
    held = text[text.index("Provinces held") :]
    assert re.search(r"&#9873;</b> British 0/4", held[: held.index("</p>")])
    assert "Anna" in text and "Ben" in text
    assert 'data-title="Your turn' in text


def test_saba_has_its_own_look(client, saba_game):
    user, _ = to_move(saba_game)
    text = page(client, saba_game, user)
    assert 'class="siam map-saba"' in text
    assert "Red Sea" in text and "Amhara" in text and "Italians" in text
    assert 'href="/siam/rules/saba/"' in text
    assert "/static/siam/board.css" in text


def play_out(game):
    while True:
        game.refresh_from_db()
        seat = game.seats.filter(to_move=True).first()
        if seat is None:
            return
        play.act(game.pk, seat.user, legal(game, seat.number)[0], None)


def test_finished_game_shows_the_summary(client, saba_game, users):
    play_out(saba_game)
    saba_game.refresh_from_db()
    assert saba_game.status == "finished"
    text = page(client, saba_game, users[0])
    assert "Final scoring" in text
    result = saba_game.result
    winner = seat_user(saba_game, result["winners"][0]).name
    assert f"Winner: {winner}" in text
    summary = text[text.index('class="siam-summary"') :]
    for n in range(3):
        assert seat_user(saba_game, n).name in summary
    details = result["details"]
    if details["ending"] == "invaders":
        assert "The Italians hold four provinces" in summary
    else:
        ruling = details["ruling"].capitalize()
        assert f"{ruling} rule Ethiopia" in summary
    rows = summary.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("</tr>")
    for n in range(3):
        row = next(r for r in rows if seat_user(saba_game, n).name in r)
        cells = [c.split("<", 1)[0] for c in row.split("<td")[1:]]
        numbers = [int(c.split(">", 1)[1]) for c in cells]
        expected = [details["followers"][n][f] for f in ("amhara", "tigray", "shewa")]
        assert numbers == [*expected, details["sets"][n]]
    assert clickable(text) == []
    assert 'hx-trigger="every' not in text


def test_rules_pages_in_both_languages(client):
    text = client.get("/siam/rules/").content.decode()
    assert "reconstruction" in text and "Maharacha" in text and "Chiang Mai" in text
    assert "four" in text  # the British end the game with 4 provinces
    text = client.get("/siam/rules/saba/").content.decode()
    assert "Italians" in text and "Ityoppaya" in text and "Herarghe" in text
    client.post("/language/", {"language": "de"})
    text = client.get("/siam/rules/").content.decode()
    assert "Rekonstruktion" in text and "Briten" in text
    text = client.get("/siam/rules/saba/").content.decode()
    assert "König von Saba" in text and "Italiener" in text


@pytest.mark.parametrize("map_id", ["siam", "saba"])
def test_drawn_borders_match_the_engines_adjacency(map_id):
    layout = LAYOUTS[map_id]
    m = MAPS[map_id]
    ids = m.province_ids()
    assert set(layout["provinces"]) == set(ids)
    for a in ids:
        for b in ids:
            if a < b:
                assert shared_edge(layout, a, b) == (b in m.adjacency[a]), (a, b)


def test_a_resigned_game_shows_nobody_to_move(client, users):
    from tests.factories import running_game

    game = running_game("siam", users[:2])
    mover = game.seats.get(to_move=True).user
    play.resign(game.pk, mover)
    client.force_login(users[0])
    text = client.get(f"/g/{game.pk}/").content.decode()
    assert "to move." not in text and 'class="badge turn"' not in text


def test_the_text_view_names_each_faction_before_its_count(client, siam_game):
    """German has no one word for "1 Malaien" and "2 Malaien": the text view says
    "Malaien 1", as it says "Provinces held: British 0"."""
    user, _ = to_move(siam_game)
    user.language = "de"
    user.save()
    text = page(client, siam_game, user)
    view = text[text.index('<details class="siam-text"') :]
    assert re.search(r"Malaien \d", view)
    assert not re.search(r"\d Malaien", view)


@pytest.mark.parametrize("how", ["resigned", "cancelled"])
def test_a_game_ended_by_the_site_shows_no_struggle_as_running(client, saba_game, how):
    """Resigned or cancelled in mid-game: no "now" on the track or the map and no
    "struggle n of 8"; the position itself stays as it was."""
    from enginekit import N_, msg

    user, _ = to_move(saba_game)
    assert "struggle 1 of 8" in page(client, saba_game, user)
    if how == "resigned":
        play.resign(saba_game.pk, user)
    else:
        play.abort(saba_game.pk, msg(N_("A moderator aborted the game: {note}"), note="Test"))
    saba_game.refresh_from_db()
    text = page(client, saba_game, user)
    assert "struggle 1 of 8" not in text and "Power struggle 1 of 8" not in text
    assert 'class="now-tag"' not in text and 'class="now"' not in text
    assert "board-focus" not in text
