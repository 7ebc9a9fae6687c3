from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.views import game_route

from . import keeping


@require_POST
@game_route
def note(request, game):
    """Save the viewer's note: from the page's box as it is typed (htmx: the answer is
    the box's status line), or from the form without JavaScript (back to the game)."""
    text = request.POST.get("text", "")
    try:
        saved = keeping.save(game, request.user, text)
    except keeping.NoteError as error:
        context = {"game": game, "error": str(error), "note_text": text}
        template = "notes/_status.html" if request.htmx else "notes/refused.html"
        return render(request, template, context, status=400)
    if request.htmx:
        return render(request, "notes/_status.html", {"saved": saved})
    return redirect(game.get_absolute_url() + "#note")
