"""What the agreements app adds to the game page (``games.extend``): the open request at
the top for those who must answer it, and at the panel the request with its answers and
the forms to ask for a pause, an early resume or taking back one's last turn."""

from __future__ import annotations

from games import extend, facts, pause, play, takeback
from games.models import Game

from . import flows
from .models import Answer, Request


def _latest(context) -> Request | None:
    """The game's latest request, open or decided (a query only if there is one)."""
    page = context["page"]
    if "latest_request" not in page.memo:
        latest = None
        if page.game.status == Game.Status.ACTIVE and facts.fact(context, "agreements.latest"):
            latest = Request.objects.filter(game=page.game).order_by("-pk").first()
        page.memo["latest_request"] = latest
    return page.memo["latest_request"]


def _request(context) -> Request | None:
    """The open request of the page's game; None when it lapsed (the game moved on,
    which the page's key covers, as it does the rows read here)."""
    page = context["page"]
    if "agreement" not in page.memo:
        found = _latest(context)
        if found is not None and (
            found.status != Request.Status.OPEN or flows.lapsed(page.game, found)
        ):
            found = None
        page.memo["agreement"] = found
        if found is not None:
            page.memo["agreed"] = set(found.answers.values_list("user_id", flat=True))
    return page.memo["agreement"]


def _names(page) -> dict[int, str]:
    return {s.user_id: s.user.name for s in page.seats}


def _asked(context) -> dict | None:
    """Said at the top of the page to a player whose answer is missing."""
    page = context["page"]
    if page.viewer is None or page.history:
        return None
    request = _request(context)
    user = context["request"].user
    if request is None or user.pk in page.memo["agreed"]:
        return None
    return {"agreement": request, "asked_by": _names(page).get(request.asked_by_id, "")}


def _taken_back(context) -> dict | None:
    """Said at the top of the page after an agreed take-back until the next move: the
    turn went back without a word on the board, and the history's note is folded away."""
    page = context["page"]
    if page.viewer is None or page.history:
        return None
    last = _latest(context)
    if (
        last is None
        or last.kind != Request.Kind.TAKE_BACK
        or last.status != Request.Status.AGREED
        or flows.lapsed(page.game, last)
    ):
        return None
    return {
        "mine": last.asked_by_id == context["request"].user.pk,
        "taker": _names(page).get(last.asked_by_id, ""),
    }


def _panel(context) -> dict | None:
    page = context["page"]
    game = page.game
    if page.viewer is None or page.history or game.status != Game.Status.ACTIVE:
        return None
    user = context["request"].user
    request = _request(context)
    names = _names(page)
    panel = {"agreement": request, "agree_user": user}
    if request is not None:
        agreed = page.memo["agreed"]
        deciders = [s for s in page.seats if not s.user.is_bot]
        panel.update(
            asked_by=names.get(request.asked_by_id, ""),
            agreed_names=[s.user.name for s in deciders if s.user_id in agreed],
            waiting_names=[s.user.name for s in deciders if s.user_id not in agreed],
            mine=request.asked_by_id == user.pk,
            computers=len(deciders) < len(page.seats),
            my_answer_missing=user.pk not in agreed,
        )
        return panel
    # Nothing open: what the viewer may ask for.
    panel["pause_days_left"] = pause.days_left(game)
    if not page.my_turn:  # the player to move has nothing handed over to take back
        try:
            turn = takeback.last_turn(game, page.viewer)
        except play.PlayError:
            turn = None
        panel["take_back_turn"] = turn
    last = _latest(context)
    if last is not None and last.decided_at and last.status != Request.Status.AGREED:
        panel["last_request"] = last
        panel["refused_name"] = names.get(last.refused_by_id, "")
    offered = ("take_back_turn", "pause_days_left", "last_request")
    if not game.agreed_pause and not any(panel.get(key) for key in offered):
        return None
    return panel


def register() -> None:
    requests, answers = Request._meta.db_table, Answer._meta.db_table
    # Rows are added, and a request's status changes once (the game's version moves
    # with every change too): the newest request, its decision and the answers' count.
    extend.add_key_part(
        f"(SELECT MAX(id) FROM {requests} WHERE game_id = %(game)s)", name="agreements.latest"
    )
    extend.add_key_part(
        f"(SELECT COUNT(*) FROM {requests} WHERE game_id = %(game)s AND status = 'open')"
    )
    extend.add_key_part(
        f"(SELECT COUNT(*) FROM {answers} a JOIN {requests} r ON r.id = a.request_id"
        f" WHERE r.game_id = %(game)s)"
    )
    extend.add_part("game-header", "agreements/_asked.html", _asked)
    extend.add_part("game-header", "agreements/_taken_back.html", _taken_back)
    extend.add_part("game-panel", "agreements/_panel.html", _panel, order=50)
