"""The rules pages of Tal der Könige (German and English), with the site's values."""

from django.shortcuts import render
from django.utils.translation import get_language

from .engine import board as B


def rules_context() -> dict:
    sizes = ("small", "large")
    types = ("monochrome", "layered", "stripes", "mixed")
    return {
        "points": {t: [B.POINTS[s][t] for s in sizes] for t in types},
        "bid_tiles": B.BID_TILES,
        "max_rings": B.MAX_RINGS_PER_GROUP,
        "scarabs": B.SCARABS,
        "steps": B.STEPS,
        "stones": B.TOTAL_STONES,
        "per_colour": B.STONES_PER_COLOUR,
        "capacity": B.CAPACITY,
        "sites_in_play": {n: len(B.sites_in_play(n)) for n in (2, 3, 4)},
        "out_with": {n: sorted(set(B.SITES) - set(B.sites_in_play(n))) for n in (2, 3)},
    }


def rules(request):
    lang = "de" if (get_language() or "en").startswith("de") else "en"
    return render(request, f"tal/rules_{lang}.html", rules_context())
