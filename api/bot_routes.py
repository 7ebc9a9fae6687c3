"""Challenges (the lobby's invitations) and the bots listed for them."""

from __future__ import annotations

from ninja import Router

from games import play
from lobby import invites

from . import botaccounts
from .auth import need
from .errors import from_play_error
from .schemas import Error

router = Router(tags=["bots"])
REFUSALS = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 429: Error}


@router.get("/bots", response={200: list[dict], **REFUSALS})
def bots(request):
    """Bot accounts whose people let others challenge them (invite them by name)."""
    need(request, "read")
    return [
        {"username": bot.user.username, "name": bot.user.name} for bot in botaccounts.listed_bots()
    ]


@router.get("/challenges", response={200: list[dict], **REFUSALS})
def challenges(request):
    """The invitations to the caller's account that wait for an answer."""
    need(request, "read")
    return [
        {
            "id": invitation.pk,
            "game": invitation.game_id,
            "kind": invitation.game.kind,
            "players": invitation.game.players,
            "by": invitation.invited_by.username,
        }
        for invitation in invites.pending_for(request.user)
    ]


def _answer(request, challenge_id: int, accept: bool) -> dict:
    need(request, "play")
    try:
        invitation = invites.answer(challenge_id, request.user, accept)
    except play.PlayError as error:
        raise from_play_error(error) from None
    return {"ok": True, "game": invitation.game_id, "status": invitation.status}


@router.post("/challenges/{int:challenge_id}/accept", response={200: dict, **REFUSALS})
def accept(request, challenge_id: int):
    """Join the game (its creator's challenge lets a bot account into a rated game)."""
    return _answer(request, challenge_id, True)


@router.post("/challenges/{int:challenge_id}/decline", response={200: dict, **REFUSALS})
def decline(request, challenge_id: int):
    return _answer(request, challenge_id, False)
