"""Where the valley is drawn (SVG user units): the site's own drawing of the board.

Pure data and geometry, like ``siam/layout.py``. The valley is a triangle of four
triangles (``tal-der-koenige-board.md``): the centre (area 16 with the Pharaoh
pyramid and sites 13-15) and three corners, each an inner area next to the
centre and an outer area. Areas are polygons; every build field is drawn inside
the area it borders and neighbouring areas share an edge, so the drawing shows
the engine's graph (``tests/tal_web/test_layout.py`` checks both).

A site is a block at ``SITES[n]["at"]`` (top-left corner). A small site has its
four fields round the pyramid (A top, B right, C bottom, D left); a large site
has two rows of four fields above and below it, ``ad`` telling which row holds
A-D. Walking the fields in letter order goes round the site either way.
"""

from __future__ import annotations

WIDTH = 1500
HEIGHT = 1300
FIELD = 34  # side of a build field
GAP = 2
STONE = 21  # side of a stone on a site's pyramid
PH_STONE = 13  # side of a stone on the Pharaoh pyramid
TOKEN = 24  # side of a figure standing in an area

# The corners of the big triangle and the midpoints of its sides.
APEX, LEFT, RIGHT = (750, 0), (0, 1300), (1500, 1300)
MID_L, MID_R, MID_B = (375, 650), (1125, 650), (750, 1300)


def _mirror(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(WIDTH - x, y) for x, y in points]


# The outer area of the bottom-left corner, drawn round sites 6 (lower row), 7 and 8.
_AREA_20 = [LEFT, (156, 1030), (360, 1030), (360, 1135), (430, 1135), (430, 1212),
            (600, 1212), (600, 1300)]  # fmt: skip
_AREA_19 = [MID_L, MID_B, (600, 1300), (600, 1212), (430, 1212), (430, 1135), (360, 1135),
            (360, 1030), (156, 1030)]  # fmt: skip
_SPLIT_TOP = 480  # the line between areas 18 (above) and 17 (below)

AREAS: dict[str, dict] = {
    "16": {"polygon": [MID_L, MID_R, MID_B], "label": (750, 1120), "hub": (668, 770, 7)},
    "17": {
        "polygon": [(473, _SPLIT_TOP), (1027, _SPLIT_TOP), MID_R, MID_L],
        "label": (1000, 630),
        "hub": (726, 540, 8),
    },
    "18": {
        "polygon": [APEX, (1027, _SPLIT_TOP), (473, _SPLIT_TOP)],
        "label": (750, 110),
        "hub": (758, 299, 6),
    },
    "19": {"polygon": _AREA_19, "label": (240, 990), "hub": (386, 1014, 7)},
    "20": {"polygon": _AREA_20, "label": (40, 1280), "hub": (178, 1040, 6)},
    "21": {"polygon": _mirror(_AREA_19), "label": (1260, 990), "hub": (946, 1014, 7)},
    "22": {"polygon": _mirror(_AREA_20), "label": (1460, 1280), "hub": (1178, 1040, 6)},
}

# Where each connection between two areas is marked (a point on their shared edge).
GATES: dict[tuple[str, str], tuple[int, int]] = {
    ("16", "17"): (1060, 650),
    ("16", "19"): (520, 898),
    ("16", "21"): (980, 898),
    ("17", "18"): (520, _SPLIT_TOP),
    ("19", "20"): (360, 1090),
    ("21", "22"): (1140, 1090),
}

SMALL_W, SMALL_H = 2 * FIELD + 4 * GAP + 74, 2 * FIELD + 4 * GAP + 44
LARGE_W, LARGE_H = 4 * FIELD + 3 * GAP, 2 * FIELD + 6 * GAP + 66

SITES: dict[int, dict] = {
    1: {"at": (560, 505)},
    2: {"at": (760, 380), "ad": "bottom"},
    3: {"at": (679, 150), "ad": "top"},
    4: {"at": (590, 320)},
    5: {"at": (300, 880)},
    6: {"at": (440, 1140), "ad": "top"},
    7: {"at": (110, 1140), "ad": "top"},
    8: {"at": (270, 1160)},
    13: {"at": (430, 672)},
    15: {"at": (677, 900)},
}
# The bottom-right corner mirrors the bottom-left one; site 14 mirrors 13.
for _left, _right in ((5, 9), (6, 10), (7, 11), (8, 12), (13, 14)):
    _x, _y = SITES[_left]["at"]
    _w = LARGE_W if "ad" in SITES[_left] else SMALL_W
    SITES[_right] = {**SITES[_left], "at": (WIDTH - _x - _w, _y)}

PHARAOH_AT = (610, 676)  # top-left corner of the Pharaoh pyramid's levels


def site_box(num: int, size: str) -> tuple[int, int, int, int]:
    x, y = SITES[num]["at"]
    return (x, y, *((LARGE_W, LARGE_H) if size == "large" else (SMALL_W, SMALL_H)))


def field_boxes(num: int, size: str) -> dict[str, tuple[int, int]]:
    """letter -> top-left corner of the field's square."""
    x, y = SITES[num]["at"]
    if size == "small":
        w, h = SMALL_W, SMALL_H
        return {
            "A": (x + (w - FIELD) // 2, y),
            "B": (x + w - FIELD, y + (h - FIELD) // 2),
            "C": (x + (w - FIELD) // 2, y + h - FIELD),
            "D": (x, y + (h - FIELD) // 2),
        }
    step = FIELD + GAP
    top = [(x + i * step, y) for i in range(4)]
    bottom = [(x + i * step, y + LARGE_H - FIELD) for i in range(4)]
    # round the site: along one row, then back along the other
    if SITES[num]["ad"] == "top":
        ring = top + bottom[::-1]
    else:
        ring = bottom[::-1] + top
    return dict(zip("ABCDEFGH", ring, strict=True))


def level_boxes(num: int, size: str) -> list[tuple[int, int]]:
    """Top-left corner of each level's square, bottom level first.

    Small: the two levels side by side in the middle. Large: the bottom level on
    the left, the two upper ones stacked right of it, a column for the labels last.
    """
    x, y, w, h = site_box(num, size)
    if size == "small":
        left = x + (w - 3 * STONE - 4) // 2
        top = y + (h - 2 * STONE) // 2
        return [(left, top), (left + 2 * STONE + 4, top + STONE)]
    top = y + FIELD + 3 * GAP
    return [
        (x, top),
        (x + 3 * STONE + 4, top),
        (x + 3 * STONE + 4 + STONE // 2, top + 2 * STONE + 4),
    ]


def label_spot(num: int, size: str) -> tuple[int, int]:
    """Where the site's number goes (the owner's scarab and the points below it)."""
    x, y, w, _h = site_box(num, size)
    if size == "small":
        return x + 4, y + 4
    return x + 5 * STONE + 12, y + FIELD + 3 * GAP


PHARAOH_SIDES = (4, 3, 2, 1)


def pharaoh_boxes() -> list[tuple[int, int]]:
    x, y = PHARAOH_AT
    base = y + 4 * PH_STONE
    out = []
    for side in PHARAOH_SIDES:
        out.append((x, base - side * PH_STONE))
        x += side * PH_STONE + 4
    return out


def centre(box: tuple[int, int]) -> tuple[int, int]:
    return box[0] + FIELD // 2, box[1] + FIELD // 2


def inside(point: tuple[float, float], polygon: list[tuple[int, int]]) -> bool:
    """Ray casting: is the point strictly inside the polygon?"""
    x, y = point
    result = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result


def points(polygon: list[tuple[int, int]]) -> str:
    return " ".join(f"{x},{y}" for x, y in polygon)


def hub_slots(area: str, count: int) -> list[tuple[int, int]]:
    """Top-left corners for ``count`` figures standing in an area, in rows."""
    x, y, per_row = AREAS[area]["hub"]
    return [
        (x + (i % per_row) * (TOKEN + 2), y + (i // per_row) * (TOKEN + 2)) for i in range(count)
    ]


def hub_target(area: str, count: int) -> tuple[int, int, int, int]:
    """The box (x, y, width, height) clicked to move into an area where ``count``
    figures stand: their rows and one free row below, at least two rows."""
    x, y, per_row = AREAS[area]["hub"]
    rows = max(2, -(-count // per_row) + 1)
    return x - 1, y - 1, per_row * (TOKEN + 2), rows * (TOKEN + 2)
