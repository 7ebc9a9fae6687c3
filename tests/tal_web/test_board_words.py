"""The board's words are remembered across builds (``games.text.words_memo``): always
in the language active for the build, and from the catalogue in use."""

from django.utils import translation

from tal import board
from tal.engine import ENGINE
from tests.tal.tal_helpers import position

NAMES = {0: "Anna", 1: "Ben"}


def _build(state, language):
    with translation.override(language):
        viewer = min(ENGINE.active_seats(state))  # one with actions to label
        return board.build(ENGINE.view(state, viewer), NAMES, "tok")


def _words(b):
    colours = [c["name"] for c in b["colours"]]
    labels = [a["label"] for a in b["actions"]]
    return colours, labels, b["phase_name"]


def test_german_board_after_english_one_and_back():
    state = position(players=2, phase="build")
    english = _build(state, "en")
    german = _build(state, "de")
    assert "red" in _words(english)[0] and "rot" in _words(german)[0]
    assert german["phase_name"] != english["phase_name"]
    assert german["actions"] and all(
        g["label"] != e["label"] for g, e in zip(german["actions"], english["actions"], strict=True)
    )
    assert _words(_build(state, "en")) == _words(english)
    assert _words(_build(state, "de")) == _words(german)


def test_a_new_catalogue_is_not_answered_from_the_old_ones_words(settings):
    state = position(players=2, phase="build")
    assert "rot" in _words(_build(state, "de"))[0]
    settings.LOCALE_PATHS = []  # the site's German words gone (Django makes new catalogues)
    assert "red" in _words(_build(state, "de"))[0]
