"""Tal der Könige on a phone (390 x 844), as a newcomer found it: the valley opened zoomed
in on a corner, the prompt was cut to one line above it, the overseer picker sat below
it, and in the whole valley the numbers on the fields could not be read."""

import struct
import zlib

import pytest

from games.models import Game
from tests.factories import UserFactory, running_game
from tests.tal_web.conftest import play_to

from .conftest import check_axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = (390, 844)

BOXES = """() => {
    const box = e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.height]; };
    const turn = document.querySelector('#board-area .tal-turn');
    return {
        turn: box(turn),
        turnClipped: turn.scrollHeight > turn.clientHeight + 1,
        picker: box(document.querySelector('#board-area .tal-picker')),
        valley: box(document.querySelector('#board-area svg.valley')),
        drawn: document.querySelector('svg.valley').getBoundingClientRect().width,
        scroller: document.querySelector('.valley-scroll').clientWidth,
    };
}"""

# For each target on the drawing, where its number is read: an area's number is a <text>
# of its own (its box on the screen), a field's is drawn with the field by a <use>, out
# of reach of the page's scripts: the field's box on the screen, whose pixels are read.
TARGETS = """() => [...document.querySelectorAll('svg.valley a.tgt')].map(a => {
    const use = a.querySelector(':scope > use');
    if (!use) {
        const text = [...a.querySelectorAll('text')].filter(t => {
            const style = getComputedStyle(t);
            return style.display !== 'none' && style.visibility !== 'hidden';
        })[0];
        return {kind: 'area', height: text ? text.getBoundingClientRect().height : 0};
    }
    const m = use.getScreenCTM();
    const x = use.x.baseVal.value, y = use.y.baseVal.value, side = 34;
    const top = m.f + m.d * y + window.scrollY;  // on the whole page
    return {kind: 'field', box: [m.e + m.a * x + window.scrollX, top, m.a * side, m.d * side]};
})"""


def png_rows(data):
    """(width, bytes per pixel, rows) of a PNG as Chromium writes them (8 bits, RGB or
    RGBA, not interlaced): enough to read a screenshot's pixels without an image library."""
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, _depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
    bpp = {2: 3, 6: 4}[colour]
    raw, stride = zlib.decompress(idat), width * bpp
    rows, prev = [], bytearray(stride)
    for r in range(height):
        kind, line = (
            raw[r * (stride + 1)],
            bytearray(raw[r * (stride + 1) + 1 : (r + 1) * (stride + 1)]),
        )
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                near = min((abs(p - a), 0, a), (abs(p - b), 1, b), (abs(p - c), 2, c))[2]
                line[x] = (line[x] + near) & 255
        rows.append(line)
        prev = line
    return width, bpp, rows


def ink_in(shot, box):
    """Pixels of the numbers' blue (#0b57d0) inside ``box`` (x, y, w, h) of the screenshot."""
    width, bpp, rows = shot
    x0, y0, w, h = (round(v) for v in box)
    count = 0
    for y in range(max(y0 + 1, 0), min(y0 + h - 1, len(rows))):
        line = rows[y]
        for x in range(max(x0 + 1, 0), min(x0 + w - 1, width)):
            r, g, b = line[x * bpp : x * bpp + 3]
            count += r < 70 and g < 130 and b > 170
    return count


def planner_page(login, live_server):
    users = [UserFactory(display_name=n) for n in ("Anna", "Ben")]
    game = running_game("tal", users, {}, title="Tal on a phone")
    play_to(game, "plan")
    page = login(users[0], *PHONE)
    page.goto(f"{live_server.url}/g/{game.pk}/")
    return game, page


def test_on_a_phone_the_valley_opens_whole_and_a_tap_zooms_in_where_it_fell(login, live_server):
    game, page = planner_page(login, live_server)
    boxes = page.evaluate(BOXES)
    assert boxes["drawn"] <= boxes["scroller"]  # the whole valley, not a corner of it
    assert page.locator("[data-board-zoom]").get_attribute("aria-pressed") == "true"
    check_axe(page, "Tal planning on a phone, whole valley")
    # A tap on a target too small to aim at zooms in there; it plays nothing.
    target = page.locator("svg.valley a.tgt").nth(3)
    label = target.get_attribute("aria-label")
    # Counted in moves: a secret plan step moves no version others could read.
    moves = game.moves.count()
    target.click()
    boxes = page.evaluate(BOXES)
    assert boxes["drawn"] > 3 * boxes["scroller"]  # tap-sized
    assert game.moves.count() == moves
    target = page.locator(f'svg.valley a.tgt[aria-label="{label}"]')  # the same one
    box = target.bounding_box()
    scroller = page.locator(".valley-scroll").bounding_box()
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert scroller["x"] <= middle[0] <= scroller["x"] + scroller["width"], (box, scroller)
    assert scroller["y"] <= middle[1] <= scroller["y"] + scroller["height"], (box, scroller)
    # Now it is big enough to tap, and a tap plays it.
    assert min(box["width"], box["height"]) >= 40
    page.evaluate("document.getElementById('board-area').dataset.stale = '1'")
    target.click()
    page.wait_for_selector("#board-area:not([data-stale])", timeout=10_000)
    assert game.moves.count() > moves
    # After the move the valley stays zoomed in on this page; a new visit opens it whole.
    assert page.evaluate(BOXES)["drawn"] > 3 * boxes["scroller"]
    page.reload()
    assert page.evaluate(BOXES)["drawn"] <= boxes["scroller"]


def test_on_a_phone_the_whole_prompt_comes_before_the_valley(login, live_server):
    game, page = planner_page(login, live_server)
    boxes = page.evaluate(BOXES)
    turn = page.locator("#board-area .tal-turn").inner_text()
    assert "Plan in secret where your overseers go" in turn and "submit the plan" in turn
    assert not boxes["turnClipped"]
    assert boxes["turn"][2] > 30  # more than one line: the prompt whole
    assert boxes["turn"][1] <= boxes["valley"][0]
    assert boxes["turn"][1] <= PHONE[1]  # on the first screen


def test_on_a_phone_the_overseer_picker_comes_before_the_valley(login, live_server):
    game, page = planner_page(login, live_server)
    boxes = page.evaluate(BOXES)
    assert boxes["turn"][1] <= boxes["picker"][0] <= boxes["picker"][1] <= boxes["valley"][0]
    assert boxes["picker"][1] <= PHONE[1]  # on the first screen
    assert page.locator("#board-area .tal-picker a.pick").count() == 2


def test_on_a_phone_the_numbers_of_the_whole_valley_can_be_read(login, live_server, artifacts):
    game, page = planner_page(login, live_server)
    # Targets of overseer 1; the board they come on must be in before the zoom is read
    # (the targets of another figure are drawn while it is on its way).
    with page.expect_response(lambda r: "fig=" in r.url):
        page.locator("#board-area .tal-picker a.pick").first.click()
    page.wait_for_selector("svg.valley a.tgt")
    page.wait_for_timeout(300)  # settled: htmx swaps after its settle delay
    zoom = page.locator("[data-board-zoom]")
    if zoom.get_attribute("aria-pressed") != "true":
        zoom.click()  # the whole valley (as it opens on a phone)
    targets = page.evaluate(TARGETS)
    fields = [t["box"] for t in targets if t["kind"] == "field"]
    areas = [t["height"] for t in targets if t["kind"] == "area"]
    drawn = page.screenshot(full_page=True)
    (artifacts / "tal-phone-whole-valley-390.png").write_bytes(drawn)
    shot = png_rows(drawn)
    inked = [ink_in(shot, box) for box in fields]
    assert len(fields) > 10 and areas
    assert min(areas) >= 10, areas  # px on the screen
    side = fields[0][2]
    assert side < 10  # the whole valley: a field is 8 px wide on this phone ...
    # ... and its number, drawn across it about 11 px high, inks a good part of it (the
    # number in a corner, as at tap size, would be 3 px high: a pixel or two)
    assert min(inked) >= 7, sorted(inked)[:5]
    # At tap size the numbers are the small ones in the fields' corners, as before.
    page.locator("[data-board-zoom]").click()
    assert page.evaluate(BOXES)["drawn"] > 1000
    sizes = page.evaluate(
        "() => [...document.querySelectorAll('svg.valley a.tgt > use')]"
        ".map(u => getComputedStyle(u).fontSize)"
    )
    assert sizes and set(sizes) == {"0px"}
    assert Game.objects.get(pk=game.pk).version == game.version
