"""The drawn valley tells the truth about the engine's board graph."""

from itertools import combinations

from tal import layout as L
from tal.engine import board as B


def edges(polygon):
    return {frozenset((polygon[i], polygon[(i + 1) % len(polygon)])) for i in range(len(polygon))}


def boxes_overlap(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def test_every_field_is_drawn_inside_the_area_it_borders():
    for num, (size, _suns, letters) in B.SITES.items():
        boxes = L.field_boxes(num, size)
        assert set(boxes) == set(letters)
        for letter, area in letters.items():
            c = L.centre(boxes[letter])
            assert L.inside(c, L.AREAS[str(area)]["polygon"]), (num, letter, area)
            others = [a for a in L.AREAS if a != str(area)]
            assert not any(L.inside(c, L.AREAS[a]["polygon"]) for a in others), (num, letter)


def test_areas_share_an_edge_exactly_when_the_engine_connects_them():
    adjacent = {frozenset((str(a), str(b))) for a, b in B.AREA_ADJACENCY}
    for a, b in combinations(L.AREAS, 2):
        shared = edges(L.AREAS[a]["polygon"]) & edges(L.AREAS[b]["polygon"])
        collinear = any(
            _overlapping(e, f)
            for e in edges(L.AREAS[a]["polygon"])
            for f in edges(L.AREAS[b]["polygon"])
        )
        assert bool(shared or collinear) == (frozenset((a, b)) in adjacent), (a, b)
    assert {frozenset(pair) for pair in L.GATES} == adjacent
    for (a, b), point in L.GATES.items():
        # the mark sits on the border of both areas
        for area in (a, b):
            assert any(_on_segment(point, e) for e in edges(L.AREAS[area]["polygon"])), (a, b)


def _on_segment(p, edge):
    (x1, y1), (x2, y2) = tuple(edge)
    cross = (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1)
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    within = (
        min(x1, x2) - 1 <= p[0] <= max(x1, x2) + 1 and min(y1, y2) - 1 <= p[1] <= max(y1, y2) + 1
    )
    return abs(cross) / length < 2 and within


def test_area_numbers_are_drawn_inside_their_areas():
    for area, spec in L.AREAS.items():
        assert L.inside(spec["label"], spec["polygon"]), area


def _overlapping(e, f):
    """Two segments on one line that overlap in more than a point."""
    (p1, p2), (q1, q2) = tuple(e), tuple(f)

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    if cross(p1, p2, q1) or cross(p1, p2, q2):
        return False
    axis = 0 if p1[0] != p2[0] else 1
    lo1, hi1 = sorted((p1[axis], p2[axis]))
    lo2, hi2 = sorted((q1[axis], q2[axis]))
    return min(hi1, hi2) - max(lo1, lo2) > 0


def test_sites_figures_and_the_pharaoh_pyramid_do_not_overlap():
    boxes = {f"site {n}": L.site_box(n, B.SITES[n][0]) for n in B.SITES}
    for area, spec in L.AREAS.items():
        x, y, per_row = spec["hub"]
        boxes[f"hub {area}"] = (x, y, per_row * (L.TOKEN + 2), 2 * (L.TOKEN + 2))
        # the box clicked to move there, with two rows of figures in it: on a phone a
        # sliver shared with a field would be a tap that could mean either
        boxes[f"target {area}"] = L.hub_target(area, 2 * per_row)
        for corner in [(x, y), (x + per_row * (L.TOKEN + 2), y + 2 * (L.TOKEN + 2))]:
            assert L.inside(corner, spec["polygon"]), area
    px, py = L.PHARAOH_AT
    boxes["pharaoh"] = (px, py, 4 * 4 * L.PH_STONE + 3 * 4 + 10, 4 * L.PH_STONE + 30)
    for (a, box_a), (b, box_b) in combinations(boxes.items(), 2):
        if a.startswith("hub") and b == f"target {a.split()[1]}":
            continue  # an area's figures stand on its target
        assert not boxes_overlap(box_a, box_b), (a, b)
    for name, (x, y, w, h) in boxes.items():
        assert 0 <= x and x + w <= L.WIDTH and 0 <= y and y + h <= L.HEIGHT, name
