"""Where things are drawn on the two boards (SVG user units).

Pure data, one table per map, like the engine's ``maps.py``: the site's own
reconstructions of the two maps (see ``koenig-von-siam-boards.md``). A province
is a polygon of named corner points; neighbouring provinces share an edge (two
consecutive corners), others at most a corner, so the drawn borders show the
engine's adjacency (``tests/siam_web/test_board.py`` checks this). ``capital``
is where the control marker sits; ``plaque`` is the top-left corner of the box
that lists the followers (the box is ``PLAQUE_W`` x ``PLAQUE_H``).
"""

from __future__ import annotations

PLAQUE_W = 132
PLAQUE_H = 76

SIAM_POINTS = {
    "a": (80, 20),
    "b": (200, 12),
    "c": (222, 128),
    "d": (232, 178),
    "e": (240, 264),
    "f": (58, 160),
    "g": (40, 92),
    "h": (170, 284),
    "j": (60, 250),
    "k": (330, 140),
    "o": (452, 150),
    "p": (468, 300),
    "r": (400, 340),
    "q": (350, 310),
    "m": (312, 352),
    "n": (258, 344),
    "s": (292, 392),
    "t": (200, 372),
    "u": (186, 432),
    "v": (170, 480),
    "w": (118, 472),
    "x": (90, 360),
    "y": (200, 562),
    "z": (140, 566),
    "aa": (236, 640),
    "bb": (172, 650),
}

SIAM_LAYOUT = {
    "id": "siam",
    "width": 480,
    "height": 664,
    "points": SIAM_POINTS,
    "provinces": {
        "chiang_mai": {"corners": "a b c f g", "capital": (150, 122), "plaque": (56, 36)},
        "sukothai": {"corners": "f c d e h j", "capital": (200, 248), "plaque": (76, 166)},
        "korat": {"corners": "d k q m n e", "capital": (292, 266), "plaque": (236, 180)},
        "ubon": {"corners": "k o p r q", "capital": (404, 196), "plaque": (344, 262)},
        "bangkok": {"corners": "h e n m s t", "capital": (262, 372), "plaque": (190, 288)},
        "ratchaburi": {"corners": "j h t u v w x", "capital": (140, 440), "plaque": (48, 332)},
        "nakhon_si_thammarat": {"corners": "w v y z", "capital": (160, 520), "plaque": (222, 462)},
        "pattani": {"corners": "z y aa bb", "capital": (192, 610), "plaque": (262, 574)},
    },
}

SABA_POINTS = {
    "p1": (200, 30),
    "p2": (335, 22),
    "p3": (354, 108),
    "p4": (258, 124),
    "p5": (204, 96),
    "p6": (70, 50),
    "p7": (240, 178),
    "p8": (64, 168),
    "p9": (362, 190),
    "p10": (306, 250),
    "p11": (248, 240),
    "p12": (212, 276),
    "p13": (54, 258),
    "p14": (342, 322),
    "p15": (230, 346),
    "p17": (186, 404),
    "p18": (366, 384),
    "p19": (430, 150),
    "p20": (474, 250),
    "p21": (440, 372),
    "p22": (36, 352),
    "p23": (332, 436),
    "p24": (222, 446),
}

SABA_LAYOUT = {
    "id": "saba",
    "width": 480,
    "height": 460,
    "points": SABA_POINTS,
    "provinces": {
        "tigray": {"corners": "p1 p2 p3 p4 p5", "capital": (276, 108), "plaque": (206, 30)},
        "begemder": {"corners": "p6 p1 p5 p4 p7 p8", "capital": (190, 150), "plaque": (70, 66)},
        "wollo": {"corners": "p4 p3 p9 p10 p11 p7", "capital": (322, 206), "plaque": (250, 124)},
        "gojjam": {"corners": "p8 p7 p11 p12 p13", "capital": (212, 236), "plaque": (62, 180)},
        "shewa": {"corners": "p11 p10 p14 p15 p12", "capital": (250, 334), "plaque": (204, 252)},
        "herarghe": {
            "corners": "p9 p19 p20 p21 p18 p14 p10",
            "capital": (420, 330),
            "plaque": (342, 212),
        },
        "wollega": {"corners": "p13 p12 p15 p17 p22", "capital": (170, 370), "plaque": (44, 280)},
        "sidamo": {
            "corners": "p15 p14 p18 p23 p24 p17",
            "capital": (250, 432),
            "plaque": (240, 354),
        },
    },
    "deserts": ("wollo", "herarghe"),
}

LAYOUTS = {"siam": SIAM_LAYOUT, "saba": SABA_LAYOUT}

# Follower colours (fill, text on it) per map and faction index, and each map's look.
LOOKS = {
    "siam": {
        "colours": [("#f2c230", "#1d1d1d"), ("#c4122f", "#ffffff"), ("#1f4fa8", "#ffffff")],
        "invader": "british",
    },
    "saba": {
        "colours": [("#f0c419", "#1d1d1d"), ("#a81e22", "#ffffff"), ("#2e7d32", "#ffffff")],
        "invader": "italians",
    },
}


def corners(layout: dict, province: str) -> list[tuple[int, int]]:
    pts = layout["points"]
    return [pts[name] for name in layout["provinces"][province]["corners"].split()]


def shared_edge(layout: dict, a: str, b: str) -> bool:
    """True when provinces ``a`` and ``b`` share a border (two consecutive corners)."""

    def edges(p: str) -> set[frozenset[str]]:
        names = layout["provinces"][p]["corners"].split()
        return {frozenset((names[i], names[(i + 1) % len(names)])) for i in range(len(names))}

    return bool(edges(a) & edges(b))
