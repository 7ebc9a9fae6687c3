"""A refresh sends only what changed: new chat lines alone (swapped in beside the
board, out of band, with the next poll), the board only after a move."""

import re

import pytest

from games import play
from games.pages import CHAT_ON_PAGE

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def poll_url(page):
    return re.search(r'id="game-poll" hidden hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")


def test_new_chat_lines_come_without_the_board(client, started):
    game, first, second = started
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    url = poll_url(page)
    assert client.get(url, headers=HTMX).status_code == 204
    play.post_chat(game.pk, second, "Good luck!")
    response = client.get(url, headers=HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert 'id="board-area"' not in body and "Good luck!" in body
    assert 'id="chat-lines" data-chat-count="1" hx-swap-oob="true"' in body
    # the next poll asks from the new chat count on, so it finds nothing new
    assert 'id="game-poll"' in body and 'hx-swap-oob="true"' in body.split('id="game-poll"')[1]
    assert client.get(poll_url(body), headers=HTMX).status_code == 204
    assert len(response.content) < 2048


def test_a_move_sends_the_new_board_and_chat_together(client, started):
    game, first, second = started
    client.force_login(second)
    url = poll_url(client.get(f"/g/{game.pk}/").content.decode())
    play.post_chat(game.pk, first, "My move.")
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    body = client.get(url, headers=HTMX).content.decode()
    assert body.lstrip().startswith('<div id="board-area"')
    assert "adds 2." in body and "My move." in body
    # the log changed and is sent; this test game's board draws nothing, so the page keeps its own
    assert '<div id="part-log" class="part">' in body
    assert '<div id="part-board" class="part" hx-preserve="true"></div>' in body
    assert client.get(poll_url(body), headers=HTMX).status_code == 204


def test_a_poll_that_names_parts_it_does_not_have_gets_them_all(client, started):
    game, first, second = started
    client.force_login(second)
    client.get(f"/g/{game.pk}/")
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    for junk in ("0123456789abcdef.0123456789abcdef", "<script>", "." * 500, "zz.zz"):
        body = client.get(
            f"/g/{game.pk}/poll", {"v": 0, "c": 0, "k": junk}, headers=HTMX
        ).content.decode()
        assert '<div id="part-log" class="part">' in body and "adds 2." in body
        assert '<div id="part-board" class="part">' in body and "<script>" not in body


def test_a_move_leaves_the_chat_the_poller_has_out_of_the_answer(client, started):
    game, first, second = started
    play.post_chat(game.pk, first, "A long message, already on the other page. " * 5)
    client.force_login(second)
    url = poll_url(client.get(f"/g/{game.pk}/").content.decode())
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    response = client.get(url, headers=HTMX)
    body = response.content.decode()
    assert "adds 2." in body and "already on the other page" not in body
    # an empty list that htmx replaces with the one on the page
    assert '<div id="chat-lines" hx-preserve="true"></div>' in body
    # a page loaded afresh, or a click's answer, still has every line
    assert "already on the other page" in client.get(f"/g/{game.pk}/").content.decode()
    assert "already on the other page" in client.get(url).content.decode()  # not HTMX


def test_the_page_shows_the_latest_chat_lines_with_a_link_to_all(client, started):
    game, first, second = started
    for n in range(CHAT_ON_PAGE + 5):
        play.post_chat(game.pk, (first, second)[n % 2], f"line {n:02d}.")
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    shown = re.findall(r"line (\d\d)\.", page)
    assert shown == [f"{n:02d}" for n in range(5, CHAT_ON_PAGE + 5)]  # the latest, oldest first
    assert "Show the whole chat" in page
    everything = client.get(f"/g/{game.pk}/?chat=all").content.decode()
    assert len(re.findall(r"line (\d\d)\.", everything)) == CHAT_ON_PAGE + 5
    assert "Show the whole chat" not in everything


def test_a_click_answer_leaves_out_the_chat_the_page_has(client, started):
    game, first, second = started
    play.post_chat(game.pk, second, "Already on my page. " * 5)
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    count = re.search(r'data-chat-count="(\d+)"', page).group(1)
    assert count == "1"
    act = f"/g/{game.pk}/act"
    body = client.post(
        act, {"action": '{"type":"add","n":2}', "c": count}, headers=HTMX
    ).content.decode()
    assert "adds 2." in body and "Already on my page" not in body
    assert '<div id="chat-lines" hx-preserve="true"></div>' in body
    # A line came since the page was drawn: the answer brings the chat along.
    play.post_chat(game.pk, second, "Something new.")
    body = client.post(act, {"action": '{"type":"end"}', "c": count}, headers=HTMX).content.decode()
    assert "Something new." in body and "Already on my page" in body
    assert 'data-chat-count="2"' in body
    # A chat message of one's own: the answer has it (the count moved on).
    body = client.post(
        f"/g/{game.pk}/chat", {"text": "My own line.", "c": "2"}, headers=HTMX
    ).content.decode()
    assert "My own line." in body and "Something new." in body


def test_after_a_poll_brought_chat_lines_a_click_answer_still_leaves_them_out(client, started):
    """The chat's count travels with the chat: a poll that brings only new lines (and no
    new board) updates it, so the next click does not fetch those lines again."""
    game, first, second = started
    client.force_login(first)
    page = client.get(f"/g/{game.pk}/").content.decode()
    play.post_chat(game.pk, second, "New since the page was drawn.")
    update = client.get(poll_url(page), headers=HTMX).content.decode()
    count = re.search(r'id="chat-lines" data-chat-count="(\d+)"', update).group(1)
    assert count == "1"
    body = client.post(
        f"/g/{game.pk}/act", {"action": '{"type":"add","n":2}', "c": count}, headers=HTMX
    ).content.decode()
    assert "adds 2." in body and "New since the page was drawn." not in body
    assert '<div id="chat-lines" hx-preserve="true"></div>' in body
