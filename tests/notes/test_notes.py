"""A player's private note on a game: saved as it is typed, read by its author only,
kept through take-backs, in the author's data download, gone with the account."""

import io
import json
import zipfile

import pytest

from accounts import erase
from games import play, replay
from notes.models import MAX_LENGTH, Note
from tests.factories import UserFactory
from tests.games.clock import mover, new_game

pytestmark = pytest.mark.django_db
SECRET = "my-plan-Q9-attack-the-north"


@pytest.fixture
def game(count_kind):
    users = [UserFactory(display_name=name) for name in ("Alice", "Bob", "Cleo")]
    return new_game(count_kind, users)


def write(client, game, user, text, htmx=True):
    client.force_login(user)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/g/{game.pk}/note", {"text": text}, headers=headers)


def pages(client, game) -> str:
    """The game page and the note box it fetches (htmx), as the viewer gets them."""
    box = client.get(f"/g/{game.pk}/note", headers={"HX-Request": "true"})
    return client.get(f"/g/{game.pk}/").content.decode() + box.content.decode()


def test_a_note_typed_is_saved_and_shown_to_its_author_only(client, game):
    author, *others = [s.user for s in game.seats.order_by("number")]
    client.force_login(author)
    assert f'hx-get="/g/{game.pk}/note"' in pages(client, game)  # the box's place
    answer = write(client, game, author, SECRET)
    assert answer.status_code == 200 and "Saved at" in answer.content.decode()
    assert SECRET in pages(client, game)
    for other in others:  # the other seats
        client.force_login(other)
        page = pages(client, game)
        assert SECRET not in page and 'id="note-text"' in page  # their own, empty box
    client.force_login(UserFactory())  # a spectator of the public game
    assert f"/g/{game.pk}/note" not in client.get(f"/g/{game.pk}/").content.decode()
    assert client.get(f"/g/{game.pk}/note").status_code == 404
    assert SECRET not in pages(client, game)
    client.logout()
    assert SECRET not in pages(client, game)


def test_without_javascript_the_note_is_a_page_with_a_form(client, game):
    author = game.seats.get(number=0).user
    client.force_login(author)
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert f'<noscript><a href="/g/{game.pk}/note">' in page
    assert "<button>Save my note</button>" in client.get(f"/g/{game.pk}/note").content.decode()
    answer = write(client, game, author, SECRET, htmx=False)
    assert answer.status_code == 302 and answer["Location"].endswith(f"/g/{game.pk}/#note")
    assert Note.objects.get(user=author).text == SECRET


def test_a_note_too_long_is_refused_with_a_clear_error_and_the_old_one_kept(client, game):
    author = game.seats.get(number=0).user
    write(client, game, author, SECRET)
    for htmx in (True, False):
        answer = write(client, game, author, "x" * (MAX_LENGTH + 1), htmx=htmx)
        assert answer.status_code == 400
        assert f"at most {MAX_LENGTH} characters" in answer.content.decode()
    assert Note.objects.get(user=author).text == SECRET


def test_only_a_player_keeps_a_note(client, game):
    answer = write(client, game, UserFactory(), SECRET)  # a spectator
    assert answer.status_code == 400 and not Note.objects.exists()


def test_the_note_outlives_a_take_back(client, game):
    player = mover(game)
    state = replay.current_state(game)
    play.act(
        game.pk,
        player,
        game.engine.legal_actions(state, game.seats.get(user=player).number)[0],
        None,
    )
    write(client, game, player, SECRET)
    play.undo(game.pk, player, None)
    assert SECRET in pages(client, game)


def test_the_note_is_in_its_authors_data_download_and_gone_with_the_account(client, game):
    author, other = (game.seats.get(number=n).user for n in (0, 1))
    write(client, game, author, SECRET)
    client.force_login(other)
    assert SECRET not in _data(client)
    client.force_login(author)
    [note] = json.loads(_data(client))["notes"]
    assert note["game_id"] == game.pk and note["text"] == SECRET
    erase.delete_account(author)
    assert not Note.objects.exists()


def _data(client) -> str:
    body = client.post("/settings/data/").content
    with zipfile.ZipFile(io.BytesIO(body)) as zipped:
        return "".join(zipped.read(name).decode() for name in zipped.namelist())
