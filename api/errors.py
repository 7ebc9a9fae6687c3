"""Every refusal of the API is JSON with a code and a message; nothing changed."""

from __future__ import annotations

from games import play


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def not_found() -> ApiError:
    # The same answer for a game that does not exist and one the caller may not see.
    return ApiError(404, "not_found", "There is no such game.")


def from_play_error(error: play.PlayError) -> ApiError:
    """The frame's refusal (its message in the request's language), with a code
    a program can branch on."""
    if isinstance(error, play.StaleMove):
        code = "stale_version"
    elif isinstance(error, play.RejectedAction):
        code = "illegal_action"
    elif isinstance(error, play.NotAPlayer):
        code = "not_a_player"
    else:
        code = {403: "forbidden", 404: "not_found", 409: "conflict"}.get(error.status, "refused")
    return ApiError(error.status, code, str(error.message))


def body(code: str, message: str) -> dict:
    return {"code": code, "message": message}
