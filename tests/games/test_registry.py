"""Registering a title: what a new engineer gets wrong is caught before a player sees it."""

from games import registry
from tests.fake_engine import ENGINE


def test_the_system_check_names_a_board_template_that_does_not_exist():
    assert registry.check_board_templates() == []  # the site's own titles
    registry.register(ENGINE, board_template="count/bord.html")
    try:
        [problem] = registry.check_board_templates()
        assert problem.id == "games.E001" and "'count/bord.html'" in problem.msg
    finally:
        registry.unregister("count")


def test_a_title_without_a_board_of_its_own_gets_the_generic_one(count_kind):
    assert count_kind.board_template == registry.GENERIC_BOARD
    assert registry.check_board_templates() == []
