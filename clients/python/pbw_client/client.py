"""The API's operations as methods; refusals as ``ApiError``."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
from httpx_sse import ServerSentEvent, connect_sse


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class Client:
    """One token's view of the site. ``retries``: how often a request that met a network
    error or a 429 is sent again (an action with the same idempotency key)."""

    def __init__(self, base_url: str, token: str, timeout: float = 30.0, retries: int = 3):
        self.http = httpx.Client(
            base_url=base_url.rstrip("/") + "/api/v1",
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )
        self.retries = retries

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def request(self, method: str, path: str, body: dict | None = None) -> Any:
        for attempt in range(self.retries + 1):
            try:
                response = self.http.request(method, path, json=body)
            except httpx.TransportError:
                if attempt == self.retries:
                    raise
                time.sleep(0.5 * 2**attempt)
                continue
            if response.status_code == 429 and attempt < self.retries:
                time.sleep(5 * 2**attempt)
                continue
            break
        if response.status_code >= 400:
            try:
                error = response.json()
                raise ApiError(response.status_code, error["code"], error["message"])
            except (ValueError, KeyError, TypeError):
                raise ApiError(response.status_code, "http", response.text[:200]) from None
        return response.json() if response.content else None

    # -- the caller -----------------------------------------------------------------
    def me(self) -> dict:
        return self.request("GET", "/me")

    def my_games(self) -> list[dict]:
        return self.request("GET", "/me/games")

    # -- the lobby ------------------------------------------------------------------
    def lobby(self, kind: str = "") -> list[dict]:
        return self.request("GET", f"/lobby?kind={kind}")

    def create(self, kind: str, players: int = 2, **fields) -> dict:
        return self.request("POST", "/lobby", {"kind": kind, "players": players, **fields})

    def join(self, game_id: int, invite_token: str | None = None) -> dict:
        return self.request("POST", f"/games/{game_id}/join", {"invite_token": invite_token})

    def leave(self, game_id: int) -> dict:
        return self.request("POST", f"/games/{game_id}/leave")

    # -- one game -------------------------------------------------------------------
    def game(self, game_id: int) -> dict:
        return self.request("GET", f"/games/{game_id}")

    def actions(self, game_id: int) -> dict:
        return self.request("GET", f"/games/{game_id}/actions")

    def act(self, game_id: int, action: dict, version: int | str, key: str | None = None):
        """One action, on the position ``version`` (the game's version or token)."""
        body = {"action": action, "version": version, "idempotency_key": key or _key()}
        return self.request("POST", f"/games/{game_id}/act", body)

    def undo(self, game_id: int, version: int | str) -> dict:
        return self.request(
            "POST", f"/games/{game_id}/undo", {"version": version, "idempotency_key": _key()}
        )

    def history(self, game_id: int) -> dict:
        return self.request("GET", f"/games/{game_id}/history")

    def chat(self, game_id: int) -> list[dict]:
        return self.request("GET", f"/games/{game_id}/chat")

    def say(self, game_id: int, text: str) -> dict:
        return self.request(
            "POST", f"/games/{game_id}/chat", {"text": text, "idempotency_key": _key()}
        )

    # -- challenges (a bot account's invitations) -------------------------------------
    def challenges(self) -> list[dict]:
        return self.request("GET", "/challenges")

    def accept(self, challenge_id: int) -> dict:
        return self.request("POST", f"/challenges/{challenge_id}/accept")

    def decline(self, challenge_id: int) -> dict:
        return self.request("POST", f"/challenges/{challenge_id}/decline")

    def bots(self) -> list[dict]:
        return self.request("GET", "/bots")

    # -- the event stream -----------------------------------------------------------
    def events(self) -> Iterator[ServerSentEvent]:
        """The token's events as they come; the stream is opened again when it ends."""
        while True:
            with connect_sse(self.http, "GET", "/events", timeout=None) as source:
                if source.response.status_code != 200:
                    raise ApiError(source.response.status_code, "stream", "no event stream")
                yield from source.iter_sse()


def _key() -> str:
    return secrets.token_urlsafe(16)
