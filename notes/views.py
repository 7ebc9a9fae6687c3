from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.views import game_route

from . import keeping
from .models import MAX_LENGTH


def _box(request, game, text: str, error: str = "", status: int = 200):
    """The viewer's note box: into the game page's place for it (htmx), or a page of
    its own (without JavaScript)."""
    template = "notes/_note.html" if request.htmx else "notes/page.html"
    context = {"game": game, "note_text": text, "note_max": MAX_LENGTH, "error": error}
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
@game_route
def note(request, game):
    """GET: the viewer's own note (a player of the game only). POST: save it, from the
    box as it is typed (htmx: the answer is the box's status line) or from the form
    without JavaScript (back to the game)."""
    if request.method == "GET":
        if not keeping.may_keep(game, request.user):
            return render(request, "404.html", status=404)
        return _box(request, game, keeping.text_of(game, request.user))
    text = request.POST.get("text", "")
    try:
        saved = keeping.save(game, request.user, text)
    except keeping.NoteError as error:
        if request.htmx:
            return render(request, "notes/_status.html", {"error": str(error)}, status=400)
        return _box(request, game, text, str(error), status=400)
    if request.htmx:
        return render(request, "notes/_status.html", {"saved": saved})
    return redirect(game.get_absolute_url() + "#note")
