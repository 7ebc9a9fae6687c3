"""Every clickable target of the King of Siam and King of Saba maps takes a click at its
centre: no province label, marker or follower chip of another province lies on top.

Not a sample: random games are played through the site until every province has been a
target (choosing its tile, the King marker, placing its only follower) and every follower
chip of every province has been one (placing, picking, taking away), and in each position
that brought a new one every target on the map is tried, at its centre, in Chromium.
"""

import random

import pytest

from games import play, replay
from siam import board
from tests.factories import UserFactory, running_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROVINCE_KINDS = {"tile", "king", "place"}
FOLLOWER_KINDS = {"place", "pick", "take"}

# For each target on the map (an <a> in the SVG): the point a player aims at, and what
# the browser finds there. A polygon's centre is its visual centre (the inside point
# farthest from its edges: a province may be bent, its box's centre outside it), a
# chip's or label's the centre of its rectangle.
CHECK_TARGETS = """
() => {
  const results = [];
  for (const a of document.querySelectorAll('#board-area svg.map-svg a.act')) {
    const shape = a.querySelector('polygon, rect');
    a.scrollIntoView({block: 'center', inline: 'center'});
    let x, y;
    if (shape.tagName === 'polygon') {
      const pts = Array.from(shape.points).map(p => [p.x, p.y]);
      const inside = (px, py) => {
        let c = false;
        for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
          const [xi, yi] = pts[i], [xj, yj] = pts[j];
          if ((yi > py) !== (yj > py) && px < (xj - xi) * (py - yi) / (yj - yi) + xi) c = !c;
        }
        return c;
      };
      const edge = (px, py) => {
        let best = Infinity;
        for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
          const [x1, y1] = pts[j], [x2, y2] = pts[i];
          const dx = x2 - x1, dy = y2 - y1;
          const along = ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy);
          const t = Math.max(0, Math.min(1, along));
          best = Math.min(best, Math.hypot(px - x1 - t * dx, py - y1 - t * dy));
        }
        return best;
      };
      const xs = pts.map(p => p[0]), ys = pts.map(p => p[1]);
      const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      let best = -1, bx = 0, by = 0;
      for (let i = 0; i <= 60; i++) for (let j = 0; j <= 60; j++) {
        const px = x0 + (x1 - x0) * i / 60, py = y0 + (y1 - y0) * j / 60;
        if (!inside(px, py)) continue;
        const d = edge(px, py);
        if (d > best) { best = d; bx = px; by = py; }
      }
      const m = shape.getScreenCTM();
      x = m.a * bx + m.c * by + m.e;
      y = m.b * bx + m.d * by + m.f;
    } else {
      const r = shape.getBoundingClientRect();
      x = r.x + r.width / 2;
      y = r.y + r.height / 2;
    }
    const found = document.elementFromPoint(x, y);
    const link = found && found.closest('a.act');
    // A province is one target drawn in two or three places: its shape, its label (whose
    // link is out of the tab order) and, where it takes one faction's follower, that
    // chip. Any of them answers for the province; a chip answers for itself.
    const province = !a.classList.contains('fol-act');
    const same = !!link && link.getAttribute('data-act') === a.getAttribute('data-act');
    results.push({
      label: a.getAttribute('aria-label') || a.getAttribute('data-act'),
      kind: a.classList.contains('prov-act') ? 'province' :
            a.classList.contains('fol-act') ? 'follower' : 'label',
      ok: !!found && (a.contains(found) || (province && same)),
      found: found ? found.outerHTML.slice(0, 160) : null,
      over: found && found.closest('g.plaque') ? found.closest('g.plaque').dataset.province : null,
      x: Math.round(x), y: Math.round(y),
    });
  }
  return results;
}
"""


def targets_of(view, players):
    """(province, kind) and (province, faction) pairs the map offers as targets in ``view``."""
    b = board.build(view, {i: f"P{i}" for i in range(players)}, "t")
    provinces = {(p["id"], p["act"]["type"]) for p in b["provinces"] if p["act"]}
    chips = {
        (p["id"], f["id"], f["act"]["type"])
        for p in b["provinces"]
        if not p["controller"]
        for f in p["followers"]
        if f["act"]
    }
    return provinces, chips


def coverage(provinces, chips):
    """Which provinces have been targets, which chips of which provinces, and which
    kinds of target have appeared."""
    return (
        {p for p, _ in provinces},
        {(p, f) for p, f, _ in chips},
        {k for _, k in provinces},
        {k for _, _, k in chips},
    )


def covered(provinces, chips, before_provinces=None, before_chips=None):
    """Every province has been a target, every chip of every province, and every kind
    of target (or, given what was covered before: nothing new has come)."""
    now = coverage(provinces, chips)
    if before_provinces is not None:
        return now == coverage(before_provinces, before_chips)
    return [len(part) for part in now] == [8, 8 * 3, 3, 3] and now[2:] == (
        PROVINCE_KINDS,
        FOLLOWER_KINDS,
    )


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
@pytest.mark.parametrize("map_id", ["siam", "saba"])
def test_every_target_of_the_map_takes_a_click_at_its_centre(login, live_server, map_id, size):
    users = [UserFactory() for _ in range(2)]
    pages = {}
    seen_provinces, seen_chips, tried, failures = set(), set(), 0, []
    rng = random.Random(f"targets-{map_id}")
    for _ in range(40):
        game = running_game("siam", users, {"map": map_id})
        by_seat = {s.number: s.user for s in game.seats.all()}
        engine = game.engine
        while True:
            game.refresh_from_db()
            if game.status != "active":
                break
            state = replay.current_state(game)
            seat = sorted(engine.active_seats(state))[0]
            provinces, chips = targets_of(engine.view(state, seat), len(users))
            if not covered(
                seen_provinces | provinces, seen_chips | chips, seen_provinces, seen_chips
            ):
                seen_provinces |= provinces
                seen_chips |= chips
                user = by_seat[seat]
                if user.pk not in pages:
                    pages[user.pk] = login(user, *size)
                page = pages[user.pk]
                page.goto(f"{live_server.url}/g/{game.pk}/")
                results = page.evaluate(CHECK_TARGETS)
                page.goto("about:blank")  # no poll of the page while the game moves on
                assert len(results) >= len(provinces) + len(chips)
                tried += len(results)
                failures += [r for r in results if not r["ok"]]
            legal = engine.legal_actions(state, seat)
            # a player who plays cards rather than passing: every kind of card comes up
            action = rng.choice([a for a in legal if a["type"] != "pass"] or legal)
            play.act(game.pk, by_seat[seat], action, None)
        if covered(seen_provinces, seen_chips):
            break
    assert covered(seen_provinces, seen_chips)
    assert not failures, f"{len(failures)} of {tried} targets covered at their centre: {failures}"
