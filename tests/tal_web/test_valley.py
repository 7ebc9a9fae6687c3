"""The drawn valley (``tal.valley``): numbers as SVG reads them in every language, names escaped."""

import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation

from tal.engine import ENGINE
from tests.tal.tal_helpers import position

NUMBER_ATTRS = r"(?:x|y|cx|cy|r|rx|ry|width|height|x1|y1|x2|y2)"


def valley(state, viewer, language, names):
    with translation.override(language):
        page = render_to_string(
            "tal/board.html",
            {
                "game": SimpleNamespace(id=1, version=5),
                "view": ENGINE.view(state, viewer),
                "player_names": dict(enumerate(names)),
                "request": RequestFactory().get("/g/1/"),
            },
        )
    start = page.index('<svg class="valley')
    return page[start : page.index("</svg>", start)]


@pytest.mark.parametrize("language", ["en", "de"])
def test_coordinates_are_written_as_svg_reads_them_in_every_language(language):
    # A German page once drew a stone's letter at x="10,5": SVG reads no decimal comma.
    svg = valley(position(players=2, phase="build"), 0, language, ("Anna", "Ben"))
    numbers = re.findall(rf'\s{NUMBER_ATTRS}="([^"]*)"', svg)
    assert numbers and "10.5" in numbers
    assert all(re.fullmatch(r"-?\d+(\.\d+)?", n) for n in numbers), sorted(set(numbers))


def test_names_in_the_drawing_are_escaped():
    svg = valley(position(players=2, phase="build"), 0, "en", ("<b>Ann</b> & Co", "Ben's"))
    assert "<b>" not in svg
    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; Co" in svg


@pytest.mark.parametrize(
    "value, written",
    [
        (12, "12"),
        (-3.5, "-3.5"),
        (True, "True"),
        (None, "None"),
        ('<b a="1">&', "&lt;b a=&quot;1&quot;&gt;&amp;"),
        ("it's", "it&#x27;s"),
    ],
)
def test_a_value_is_written_as_the_template_writes_it(value, written):
    from django.template import Context, Template
    from django.utils.safestring import mark_safe

    from tal.valley import _e

    # in English: a German page writes -3,5 for a number (SVG coordinates never use this)
    with translation.override("en"):
        rendered = Template("{{ v }}").render(Context({"v": value}))
    assert _e(value) == written == rendered
    assert _e(mark_safe("<i>")) == "<i>"
