"""What the API's operations take (pydantic, through django-ninja) and the shape of a refusal."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from django.conf import settings
from ninja import Schema
from pydantic import Field

# As the page's request ids (games.views.REQUEST_ID): a retry sends the same one.
IdempotencyKey = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{8,64}$")]
Version = Annotated[int, Field(ge=0)] | Annotated[str, Field(max_length=40)]


class Error(Schema):
    code: str = Field(description="stable, for programs: not_found, stale_version, ...")
    message: str


class ActIn(Schema):
    action: dict[str, Any] = Field(description="one of the game's legal actions, as listed")
    version: Version = Field(description="the game's version, or its token, as read")
    idempotency_key: IdempotencyKey | None = None


class UndoIn(Schema):
    version: Version
    idempotency_key: IdempotencyKey | None = None


class ChatIn(Schema):
    # The page's limit (games.play.post_chat checks it again, with mutes and the rest).
    text: Annotated[str, Field(min_length=1, max_length=settings.CHAT_MAX_LENGTH)]
    idempotency_key: IdempotencyKey | None = None


class PremoveIn(Schema):
    action: dict[str, Any]
    version: Annotated[str, Field(max_length=40)] | None = None


class JoinIn(Schema):
    invite_token: Annotated[str, Field(max_length=200)] | None = None


class CreateGameIn(Schema):
    kind: Annotated[str, Field(max_length=20)]
    title: Annotated[str, Field(max_length=80)] | None = None
    players: int
    time_limit_days: int = 3
    private: bool = False
    timeout_policy: Literal["lose", "abort", "substitute", "stand_in"] = "lose"
    vacation_allowed: bool = True
    pause_days: int = 0
    # A named pace of banks ("quick", "live", "fast", "slow"); "" for the time per move.
    clock: Annotated[str, Field(max_length=12)] = ""
    weekends_off: bool = False
    options: dict[str, Any] = Field(default_factory=dict)
    computer_players: list[str] = Field(default_factory=list, max_length=8)


class AskIn(Schema):
    kind: Literal["pause", "resume", "take_back"]
    until: datetime | None = None


class AnswerIn(Schema):
    request_id: int
    agree: bool


class LadderIn(Schema):
    games_at_once: Annotated[int, Field(ge=1, le=20)] = 1
