"""The frame's extension points (games.extend): a feature app shows itself on the frame's
pages by registering, and the frame draws what is registered and nothing else."""

import pytest
from django.test import Client

from games import extend, lists, play


@pytest.fixture
def part_template(tmp_path, settings):
    """A template directory of the test's own, with one part in it."""
    (tmp_path / "test_part.html").write_text(
        '<p class="test-part">{{ greeting }} {{ game.title }}</p>'
    )
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], str(tmp_path)]}
    ]
    return "test_part.html"


def test_a_part_needs_a_place_the_frame_knows():
    with pytest.raises(ValueError, match="no place"):
        extend.add_part("nowhere", "test_part.html")


def _page(game, user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(game.get_absolute_url()).content.decode()


def test_a_registered_part_is_drawn_at_its_place_with_its_own_context(started, part_template):
    game, first, _second = started
    assert "test-part" not in _page(game, first)
    part = extend.add_part("game-foot", part_template, lambda context: {"greeting": "Hello"})
    try:
        assert '<p class="test-part">Hello Test</p>' in _page(game, first)
    finally:
        extend.remove_part(part)
    assert "test-part" not in _page(game, first)


def test_a_part_whose_context_is_none_draws_nothing_there(started, part_template):
    game, first, _second = started
    seen = []

    def only_for_spectators(context):
        seen.append(context["page"].viewer)
        return {"greeting": "Hi"} if context["page"].viewer is None else None

    part = extend.add_part("game-panel", part_template, only_for_spectators)
    try:
        assert "test-part" not in _page(game, first)
        assert seen  # asked, and it said no
    finally:
        extend.remove_part(part)


def test_a_chat_filter_decides_which_lines_a_viewer_reads(started):
    game, first, second = started
    play.post_chat(game.pk, second, "visible")
    play.post_chat(game.pk, second, "filtered out")

    def no_filtered(lines, viewer):
        return lines.exclude(text__startswith="filtered")

    assert [m.text for m in extend.visible_chat(game, first)] == ["visible", "filtered out"]
    extend.add_chat_filter(no_filtered)
    try:
        assert [m.text for m in extend.visible_chat(game, first)] == ["visible"]
    finally:
        extend.remove_chat_filter(no_filtered)


def test_the_badge_counts_the_turns_and_what_each_app_registered():
    # The frame counts the player's turns; the lobby and the community add theirs.
    counts = lists.badge_counts()
    assert len(counts) == 1 + len(extend.badge_parts())
    assert any("invitation" in sql for sql in counts)
    assert any("rematch" in sql for sql in counts)


def test_the_create_form_offers_each_computer_level_and_says_what_it_is(count_kind, alice):
    client = Client()
    client.force_login(alice)
    page = client.get("/new/count/").content.decode()
    computers = extend.computer_players()
    assert computers is not None  # botplay registered them
    for _strength, name, about in computers.strengths:
        assert str(name) in page
        assert str(about) in page
