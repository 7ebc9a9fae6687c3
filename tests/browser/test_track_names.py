"""The power-struggle track of King of Siam / Saba: a province's name breaks between its
words, never inside one ("Ratchabu|ri", "Begemde|r" at a 1000-px window, issue 45)."""

import pytest

from tests.factories import UserFactory, running_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each word of each tile's name, and how many lines it was drawn on; and whether
# a word sticks out of its tile.
BROKEN_WORDS = """() => {
    const broken = [];
    for (const name of document.querySelectorAll('.siam .tile .tname')) {
        const text = name.firstChild;
        const tile = name.closest('.tile-face').getBoundingClientRect();
        for (const match of text.data.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(text, match.index);
            range.setEnd(text, match.index + match[0].length);
            const rects = [...range.getClientRects()].filter(r => r.width > 0);
            const box = range.getBoundingClientRect();
            if (rects.length > 1 || box.right > tile.right + 0.5 || box.left < tile.left - 0.5) {
                broken.push(match[0]);
            }
        }
    }
    return broken;
}"""


@pytest.mark.parametrize("map_id", ["siam", "saba"])
def test_province_names_on_the_track_break_only_between_words(login, live_server, map_id):
    users = [UserFactory() for _ in range(2 if map_id == "siam" else 3)]
    game = running_game("siam", users, {"map": map_id})
    page = login(users[0])
    page.goto(f"{live_server.url}/g/{game.pk}/")
    for width in (390, 700, 900, 1000, 1100, 1280, 1600):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.locator(".siam .tile .tname").count() > 0
        assert page.evaluate(BROKEN_WORDS) == [], width
