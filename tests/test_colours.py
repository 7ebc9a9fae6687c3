"""The site's colours in its light and dark themes: readable, and the players' colours apart.

The colours are read from the stylesheets' custom properties (static/css/site.css, each
board's board.css) and from the King of Siam map's faction colours (siam.layout), never
copied here. Each theme is the set its stylesheet gives: light in the base block, dark in
the block under ``prefers-color-scheme: dark`` (the same declarations also serve
``data-theme="dark"``: the two must not drift apart). A board's drawing (the Siam map, the
Tal valley) is printed in its light set in both themes; the panels around it follow the theme.

- Text: WCAG 2.1 contrast of at least 4.5:1 against each background it is drawn on
  (SC 1.4.3); player colours: 3:1 against every background they are drawn on (SC 1.4.11,
  graphical objects), and their numbers on them 4.5:1.
- Colour-vision deficiencies: each pair of one title's player colours stays at least
  ``APART`` (CIEDE2000) apart as seen with protanopia and deuteranopia (Machado, Oliveira
  and Fernandes 2009, severity 1) and tritanopia (Brettel, Viénot and Mollon 1997, which
  Machado's model does not cover well), and with normal vision.

coloraide computes the contrast, the simulations and the distances.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import tinycss2
from coloraide import Color

from siam.layout import LOOKS

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "static" / "css" / "site.css"
SIAM = ROOT / "static" / "siam" / "board.css"
TAL = ROOT / "static" / "tal" / "board.css"

TEXT = 4.5  # WCAG 2.1 SC 1.4.3, normal-size text
GRAPHIC = 3.0  # SC 1.4.11, the parts of a graphic needed to understand it
# A just noticeable difference is about 1 to 2 in CIEDE2000; a player's marker is small and
# seen beside the others rather than next to them, so ten times that.
APART = 10.0
VISIONS = {
    "normal vision": lambda c: c,
    "protanopia": lambda c: c.filter("protan", method="machado"),
    "deuteranopia": lambda c: c.filter("deutan", method="machado"),
    "tritanopia": lambda c: c.filter("tritan", method="brettel"),
}
THEMES = ("light", "dark")
DARK_MEDIA = "(prefers-color-scheme: dark)"


def _declarations(rule) -> dict[str, str]:
    found = {}
    for item in tinycss2.parse_blocks_contents(rule.content, skip_whitespace=True):
        if item.type == "declaration":
            found[item.name] = tinycss2.serialize(item.value).strip()
    return found


def _rules(path: Path):
    """(the @media condition or "", the selector, its declarations) for each rule."""
    sheet = tinycss2.parse_stylesheet(path.read_text(), skip_comments=True, skip_whitespace=True)
    for rule in sheet:
        if rule.type == "qualified-rule":
            yield "", tinycss2.serialize(rule.prelude).strip(), _declarations(rule)
        elif rule.type == "at-rule" and rule.lower_at_keyword == "media" and rule.content:
            media = tinycss2.serialize(rule.prelude).strip()
            for inner in tinycss2.parse_rule_list(rule.content, True, True):
                if inner.type == "qualified-rule":
                    selector = tinycss2.serialize(inner.prelude).strip()
                    yield media, selector, _declarations(inner)


def _block(path: Path, selector: str, media: str = "") -> dict[str, str]:
    for m, s, declarations in _rules(path):
        if m == media and s == selector:
            return {k: v for k, v in declarations.items() if k.startswith("--")}
    raise AssertionError(f"{path.name} has no rule {selector!r} (media {media!r})")


def theme(path: Path, scope: str) -> dict[str, dict[str, str]]:
    """The custom properties of ``scope`` in each theme, the dark ones over the light."""
    light = _block(path, scope)
    dark_scope = f':root:not([data-theme="light"]){scope[5:] if scope == ":root" else " " + scope}'
    chosen_scope = f':root[data-theme="dark"]{"" if scope == ":root" else " " + scope}'
    dark = _block(path, dark_scope, DARK_MEDIA)
    assert dark == _block(path, chosen_scope), (
        f"{path.name}: the dark set for prefers-color-scheme and for data-theme differ"
    )
    return {"light": light, "dark": {**light, **dark}, "dark only": dark}


def contrast(a: str, b: str) -> float:
    return Color(a).contrast(Color(b), method="wcag21")


def low_contrast(colours: dict[str, str], pairs, minimum: float) -> list[str]:
    """The (foreground, background) pairs of custom property names below ``minimum``."""
    return [
        f"{fg} {colours[fg]} on {bg} {colours[bg]}: {contrast(colours[fg], colours[bg]):.2f}"
        for fg, bg in pairs
        if contrast(colours[fg], colours[bg]) < minimum
    ]


def too_close(colours: list[str]) -> list[str]:
    found = []
    for vision, see in VISIONS.items():
        seen = [see(Color(c)) for c in colours]
        for (i, a), (j, b) in itertools.combinations(enumerate(seen), 2):
            distance = a.delta_e(b, method="2000")
            if distance < APART:
                found.append(f"{colours[i]} and {colours[j]} ({vision}): {distance:.1f}")
    return found


SITE_SEATS = [f"--seat-{n}" for n in range(4)]
TAL_SEATS = [f"--seat{n}" for n in range(4)]


@pytest.fixture(scope="module")
def site():
    return theme(SITE, ":root")


@pytest.mark.parametrize("name", THEMES)
def test_the_pages_text_is_readable_in_both_themes(site, name):
    colours = site[name]
    backgrounds = ["--paper", "--card", "--turn", "--info", "--error-bg", "--result-bg"]
    backgrounds += ["--notice", "--warn", "--ask", "--takeback", "--new-bg", "--new-mark"]
    pairs = [("--ink", bg) for bg in [*backgrounds, "--lesson"]]
    pairs += [(fg, bg) for fg in ("--muted", "--link") for bg in ("--paper", "--card")]
    pairs += [("--bad", bg) for bg in ("--paper", "--card", "--error-bg")]
    pairs += [("--accent-ink", "--accent"), ("--accent-ink", "--bad")]
    pairs += [("--new-ink", "--paper"), ("--new-ink", "--new-bg"), ("--new-ink", "--card")]
    pairs += [("--lesson-line", "--lesson"), ("--header-ink", "--header")]
    assert low_contrast(colours, pairs, TEXT) == []


@pytest.mark.parametrize("name", THEMES)
def test_player_markers_stand_out_and_carry_readable_numbers(site, name):
    colours = site[name]
    siam = theme(SIAM, ".siam")[name]  # King of Siam's player panels draw them too
    backgrounds = {k: colours[k] for k in ("--paper", "--card", "--turn")}
    backgrounds |= {f"siam{k}": siam[k] for k in ("--paper", "--chip")}
    both = {**colours, **backgrounds}
    assert low_contrast(both, [(s, bg) for s in SITE_SEATS for bg in backgrounds], GRAPHIC) == []
    assert low_contrast(colours, [(f"{s}-ink", s) for s in SITE_SEATS], TEXT) == []


def test_player_markers_stay_apart_for_colour_blind_players(site):
    assert site["light"]["--seat-0"]  # the same markers in both themes
    assert [site["dark"][s] for s in SITE_SEATS] == [site["light"][s] for s in SITE_SEATS]
    assert too_close([site["light"][s] for s in SITE_SEATS]) == []


@pytest.mark.parametrize("name", THEMES)
def test_the_king_of_siam_board_is_readable_in_both_themes(name):
    sets = theme(SIAM, ".siam")
    colours = sets[name]
    # The King of Saba's look, under the dark set in the dark theme (which wins by its selector).
    saba = {**sets["light"], **_block(SIAM, ".siam.map-saba")}
    saba |= sets["dark only"] if name == "dark" else {}
    for map_look in (colours, saba):
        backgrounds = ["--paper", "--chip", "--hover", "--card-face", "--soft", "--land"]
        pairs = [("--ink", bg) for bg in backgrounds if bg != "--land"]
        pairs += [("--land-ink", "--land"), ("--done-ink", "--done"), ("--now-ink", "--now")]
        pairs += [("--muted", bg) for bg in ("--paper", "--card-face")]
        pairs += [("--click", "--chip"), ("--accent-ink", "--accent")]
        assert low_contrast(map_look, pairs, TEXT) == []
    # The printed map: its labels on their plaques, whatever the theme.
    printed = {**colours, **_block(SIAM, ".siam .map-svg")}
    assert low_contrast(printed, [("--ink", "--paper"), ("--now-ink", "--now")], TEXT) == []


def test_the_faction_letters_are_readable_on_their_colours():
    for look in LOOKS.values():
        for fill, ink in look["colours"]:
            assert contrast(ink, fill) >= TEXT, (ink, fill)


@pytest.mark.parametrize("name", THEMES)
def test_the_tal_board_is_readable_in_both_themes(name):
    colours = theme(TAL, ".tal")[name]
    pairs = [("--ink", bg) for bg in ("--paper", "--chip", "--hover", "--soft", "--build-bg")]
    pairs += [("--ink", "--summary-bg"), ("--muted", "--paper"), ("--muted", "--chip")]
    pairs += [("--click", "--chip"), ("--click", "--hover"), ("--soft-ink", "--soft")]
    pairs += [("--soft-ink", "--soft-strong"), ("--warn-ink", "--chip")]
    pairs += [("--badge-ink", "--badge"), ("--badge-turn-ink", "--badge-turn")]
    for kind in ("start", "done", "wait", "out"):
        pairs.append((f"--{kind}-ink", f"--{kind}-bg"))
    assert low_contrast(colours, pairs, TEXT) == []


@pytest.mark.parametrize("name", THEMES)
def test_tal_players_colours_stand_out_on_the_valley_and_the_panels(name):
    seats = _block(TAL, ".tal,\n.game-tal")
    panels = theme(TAL, ".tal")[name]
    valley = _block(TAL, ".tal .valley-scroll")
    site = theme(SITE, ":root")[name]  # the game page's header shows them too
    backgrounds = {f"panel{k}": panels[k] for k in ("--paper", "--chip")}
    backgrounds |= {f"valley{k}": valley[k] for k in ("--valley", "--area-top")}
    backgrounds |= {f"valley{k}": valley[k] for k in ("--area-light", "--area-dark")}
    backgrounds |= {f"page{k}": site[k] for k in ("--paper", "--turn")}
    colours = {**seats, **backgrounds}
    assert low_contrast(colours, [(s, bg) for s in TAL_SEATS for bg in backgrounds], GRAPHIC) == []
    assert low_contrast(seats, [("--seat-ink", s) for s in TAL_SEATS], TEXT) == []


def test_tal_players_colours_stay_apart_for_colour_blind_players():
    seats = _block(TAL, ".tal,\n.game-tal")
    assert too_close([seats[s] for s in TAL_SEATS]) == []
