"""The rules pages of King of Siam and King of Saba (German and English)."""

from django.shortcuts import render
from django.utils.translation import get_language

from .engine.maps import MAPS
from .layout import LAYOUTS, LOOKS, corners


def _map_context(map_id: str) -> dict:
    m = MAPS[map_id]
    layout = LAYOUTS[map_id]
    names = {p.id: p.name for p in m.provinces}
    provinces = []
    for p in m.provinces:
        geo = layout["provinces"][p.id]
        xs = [x for x, _ in corners(layout, p.id)]
        ys = [y for _, y in corners(layout, p.id)]
        provinces.append(
            {
                "id": p.id,
                "name": p.name,
                "home_of": m.faction_names[p.home_of] if p.home_of is not None else "",
                "home_fill": LOOKS[map_id]["colours"][p.home_of][0]
                if p.home_of is not None
                else "",
                "home_followers": p.home_followers,
                "random_followers": p.random_followers,
                "neighbours": [names[q] for q in m.adjacency[p.id]],
                "points": " ".join(f"{x},{y}" for x, y in corners(layout, p.id)),
                "label": ((min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2),
                "capital": geo["capital"],
                "desert": p.id in layout.get("deserts", ()),
            }
        )
    return {
        "map_id": map_id,
        "game_name": m.name,
        "land": m.land,
        "factions": [
            {
                "name": m.faction_names[i],
                "colour": m.colours[i],
                "fill": LOOKS[map_id]["colours"][i][0],
                "home": names[m.home(i)],
            }
            for i in range(3)
        ],
        "invader": m.invader_name,
        "cards": {c.kind: c.name for c in m.cards},
        "provinces": provinces,
        "layout": {"width": layout["width"], "height": layout["height"]},
    }


def rules(request, map_id="siam"):
    lang = "de" if (get_language() or "en").startswith("de") else "en"
    context = {
        **_map_context(map_id),
        "other_map": "saba" if map_id == "siam" else "siam",
        "other_name": MAPS["saba" if map_id == "siam" else "siam"].name,
    }
    return render(request, f"siam/rules_{lang}.html", context)
