"""The rules pages: both languages, the site's values, linked from the lobby, the create
form and the board."""

import pytest

from tal.engine import board as B

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["ochre", "reconstruction", "Advanced builders", "Pyramid experts", "shared wins"]),
        ("de", ["ocker", "Rekonstruktion", "Fortgeschrittene", "Experten", "geteilter Sieg"]),
    ],
)
def test_rules_page_in_both_languages_with_the_sites_values(client, language, words):
    client.cookies["django_language"] = language
    response = client.get("/tal/rules/", headers={"Accept-Language": language})
    assert response.status_code == 200
    text = response.content.decode()
    assert f'lang="{language}"' in text
    for word in words:
        assert word in text, word
    for size in ("small", "large"):
        for kind, points in B.POINTS[size].items():
            assert f"<td>{points}</td>" in text, (size, kind)
    assert ", ".join(map(str, B.BID_TILES)) in text
    assert "4, 8, 12" in text and "1, 4, 5, 8, 9, 12" in text  # sites out of play


def test_rules_are_linked_from_the_lobby_the_create_form_and_the_board(client, users, tal_game):
    assert 'href="/tal/rules/"' in client.get("/").content.decode()
    client.force_login(users[0])
    assert 'href="/tal/rules/"' in client.get("/new/tal/").content.decode()
    assert 'href="/tal/rules/"' in client.get(f"/g/{tal_game.pk}/").content.decode()
