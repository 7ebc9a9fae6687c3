"""The board graph, the pyramid geometry and the constants of Tal der Könige.

All values follow ``tal-der-koenige-board.md``. Nodes are strings: an area is its
number (``"16"``), a build field is ``"<site>-<letter>"`` (``"15-B"``).
"""

from __future__ import annotations

from collections import deque

from enginekit import N_

# Display words (passed through gettext by the site), so marked for translation.
COLOURS: tuple[str, ...] = (N_("red"), N_("grey"), N_("black"), N_("white"), N_("ochre"))
STONES_PER_COLOUR = 33
TOTAL_STONES = STONES_PER_COLOUR * len(COLOURS)  # 165

BID_TILES: tuple[int, ...] = (0, 0, 1, 1, 2, 2, 3, 4)
MAX_RINGS_PER_GROUP = 10
SCARABS = 8
OVERSEERS = 2
WORKERS = 5
STEPS = 6
GROUP_SIZE = 5
STONES_PER_WORKER = 2

AREAS: tuple[int, ...] = (16, 17, 18, 19, 20, 21, 22)
CENTRE = "16"
AREA_ADJACENCY: tuple[tuple[int, int], ...] = (
    (16, 17),
    (16, 19),
    (16, 21),
    (17, 18),
    (19, 20),
    (21, 22),
)


def _fields(spec: str) -> dict[str, int]:
    """``"ABCD:17,EFGH:18"`` -> {"A": 17, ...}."""
    out: dict[str, int] = {}
    for part in spec.split(","):
        letters, area = part.split(":")
        for letter in letters:
            out[letter] = int(area)
    return out


# site -> (size, suns, fields {letter: bordering area})
SITES: dict[int, tuple[str, int | None, dict[str, int]]] = {
    1: ("small", 2, _fields("ABCD:17")),
    2: ("large", None, _fields("ABCD:17,EFGH:18")),
    3: ("large", None, _fields("ABCDEFGH:18")),
    4: ("small", 3, _fields("ABCD:18")),
    5: ("small", 2, _fields("ABCD:19")),
    6: ("large", None, _fields("ABCD:19,EFGH:20")),
    7: ("large", None, _fields("ABCDEFGH:20")),
    8: ("small", 3, _fields("ABCD:20")),
    9: ("small", 2, _fields("ABCD:21")),
    10: ("large", None, _fields("ABCD:21,EFGH:22")),
    11: ("large", None, _fields("ABCDEFGH:22")),
    12: ("small", 3, _fields("ABCD:22")),
    13: ("small", None, _fields("ABCD:16")),
    14: ("small", None, _fields("ABCD:16")),
    15: ("small", None, _fields("ABCD:16")),
}

# Side length of each level, bottom first.
LEVEL_SIDES: dict[str, tuple[int, ...]] = {
    "small": (2, 1),
    "large": (3, 2, 1),
    "pharaoh": (4, 3, 2, 1),
}
CAPACITY: dict[str, int] = {k: sum(s * s for s in v) for k, v in LEVEL_SIDES.items()}
PHARAOH_CAPACITY = CAPACITY["pharaoh"]  # 30
HIDDEN_SLOT = (0, 4)  # (level, slot) of a large pyramid's invisible centre stone

POINTS: dict[str, dict[str, int]] = {
    "small": {"monochrome": 5, "layered": 3, "stripes": 2, "mixed": 1},
    "large": {"monochrome": 20, "layered": 10, "stripes": 7, "mixed": 3},
}


def field_id(site: int, letter: str) -> str:
    return f"{site}-{letter}"


FIELD_AREA: dict[str, str] = {}  # field -> the area it borders
FIELD_SITE: dict[str, int] = {}  # field -> its site
SITE_FIELDS: dict[int, tuple[str, ...]] = {}
for _site, (_size, _suns, _fields_) in SITES.items():
    SITE_FIELDS[_site] = tuple(field_id(_site, letter) for letter in _fields_)
    for _letter, _area in _fields_.items():
        FIELD_AREA[field_id(_site, _letter)] = str(_area)
        FIELD_SITE[field_id(_site, _letter)] = _site

NODES: tuple[str, ...] = tuple(str(a) for a in AREAS) + tuple(
    f for s in sorted(SITE_FIELDS) for f in SITE_FIELDS[s]
)
NODE_SET = frozenset(NODES)


def _neighbours() -> dict[str, list[str]]:
    nb: dict[str, list[str]] = {n: [] for n in NODES}

    def link(a: str, b: str) -> None:
        if b not in nb[a]:
            nb[a].append(b)
        if a not in nb[b]:
            nb[b].append(a)

    for a, b in AREA_ADJACENCY:
        link(str(a), str(b))
    for fields in SITE_FIELDS.values():
        for i, f in enumerate(fields):
            link(f, fields[(i + 1) % len(fields)])
            link(f, FIELD_AREA[f])
    return nb


NEIGHBOURS: dict[str, list[str]] = _neighbours()


def _all_distances() -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for start in NODES:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for nxt in NEIGHBOURS[node]:
                if nxt not in dist:
                    dist[nxt] = dist[node] + 1
                    queue.append(nxt)
        out[start] = dist
    return out


DIST: dict[str, dict[str, int]] = _all_distances()

# WITHIN[node][k]: the nodes at most k steps from ``node`` (itself included), and
# REACH[node][k] the same without ``node``, both in the order of NODES, for k = 0 .. STEPS:
# the targets of moves and plans, looked up instead of filtered from every node each time.
WITHIN: dict[str, tuple[tuple[str, ...], ...]] = {
    a: tuple(tuple(b for b in NODES if DIST[a][b] <= k) for k in range(STEPS + 1)) for a in NODES
}
REACH: dict[str, tuple[tuple[str, ...], ...]] = {
    a: tuple(tuple(b for b in WITHIN[a][k] if b != a) for k in range(STEPS + 1)) for a in NODES
}


def distance(a: str, b: str) -> int:
    """Steps (lines crossed) between two nodes; passing through figures is allowed."""
    return DIST[a][b]


def is_field(node: str) -> bool:
    return node in FIELD_SITE


def sites_in_play(players: int) -> list[int]:
    out = []
    for site, (_size, suns, _f) in SITES.items():
        if suns == 3 and players <= 3:
            continue
        if suns == 2 and players <= 2:
            continue
        out.append(site)
    return out


def landing_nodes(players: int) -> tuple[str, ...]:
    """The nodes a figure may end a move or a plan on from rules version 2 (ruling 19 in
    ``tal.engine``): every area and the fields of the sites in play, in ``NODES`` order."""
    return LANDING_NODES[players]


def _landing_nodes(players: int) -> tuple[str, ...]:
    in_play = set(sites_in_play(players))
    return tuple(n for n in NODES if n not in FIELD_SITE or FIELD_SITE[n] in in_play)


LANDING_NODES = {players: _landing_nodes(players) for players in (2, 3, 4)}
LANDING_SETS = {players: frozenset(nodes) for players, nodes in LANDING_NODES.items()}


def site_size(site: int) -> str:
    return SITES[site][0]


def empty_levels(size: str) -> list[list[str | None]]:
    return [[None] * (side * side) for side in LEVEL_SIDES[size]]


def slot_position(size: str, level: int, slot: int) -> tuple[int, int]:
    side = LEVEL_SIDES[size][level]
    return divmod(slot, side)


def plan_budget(pos: list[str], plan: list[str | None], i: int) -> int:
    """Steps overseer ``i`` may be planned to go: what the other one's plan leaves.
    (The engine lists the plan actions from this, and the view too, without building them.)"""
    other = 1 - i
    return STEPS - DIST[pos[other]][plan[other] or pos[other]]
