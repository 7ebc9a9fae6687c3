from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.numbering import numbering
from games.rows import read_seats
from games.views import game_route

from . import chart
from .story import story


def _shown_at(request, total: int) -> int | None:
    """The past position the page shows (``?at``, the viewer's number), to be marked."""
    try:
        at = int(request.GET.get("at", ""))
    except (ValueError, OverflowError):
        return None
    return at if 0 <= at < total else None


@require_GET
@game_route
def review(request, game):
    """A finished game's points as it went: drawn into its page when the page shows the
    place for it (htmx), or a page of its own (without JavaScript)."""
    found = story(game)
    if found is None or not found["points"]:
        return render(request, "404.html", status=404)
    seats = read_seats(game)
    mine = next((s for s in seats if s.user_id == request.user.pk), None)
    numbers = numbering(game, mine.number if mine is not None else None)
    names = {s.number: s.user.name for s in seats}
    drawn = chart.draw(found, game, names, numbers, _shown_at(request, numbers.total))
    template = "review/_review.html" if request.htmx else "review/page.html"
    context = {"game": game, "review": drawn, "player_names": names}
    return render(request, template, context)
