"""What travels on a live stream: the channels a change is told on, and the events a
page receives. Nothing secret: a game's event says only its version and chat count,
a player's says only "your badge may have changed"; the page then fetches what it
shows through the game's own views (visibility gate, per-viewer render cache).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings


def prefix() -> str:
    """Redis's channels are shared by all its databases: the cache's key prefix and the
    database number keep two sites (or two test processes) on one server apart."""
    url = live_redis_url()
    database = urlsplit(url).path.strip("/") or "0" if url else "local"
    key_prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    return f"{key_prefix}:{database}:live:"


def live_redis_url() -> str:
    return getattr(settings, "LIVE_REDIS_URL", settings.REDIS_URL)


def game_channel(game_id: int) -> str:
    return f"{prefix()}game:{game_id}"


def user_channel(user_id: int) -> str:
    return f"{prefix()}user:{user_id}"


@dataclass(frozen=True)
class GameState:
    """What a page of the game compares with its own: version and chat count."""

    version: int
    chat_count: int

    @property
    def wire(self) -> str:
        return f"{self.version} {self.chat_count}"

    @classmethod
    def parse(cls, text: str | None) -> GameState | None:
        """From the wire, an event id ("12.3") or a page's query; None for anything else."""
        if not text:
            return None
        parts = text.replace(".", " ").split()
        if len(parts) != 2 or not all(p.isdigit() and len(p) < 12 for p in parts):
            return None
        return cls(int(parts[0]), int(parts[1]))


BADGE = "badge"  # what a player's channel carries: their badge may have changed


def game_event(state: GameState) -> bytes:
    # The id comes back as Last-Event-ID when the browser reconnects.
    return f"id: {state.version}.{state.chat_count}\nevent: game\ndata: {state.wire}\n\n".encode()


def badge_event() -> bytes:
    return b"event: badge\ndata: 1\n\n"


def event_id(state: GameState) -> bytes:
    """Only the id (no event): a reconnect then says what the page was last told."""
    return f"id: {state.version}.{state.chat_count}\n\n".encode()


HEARTBEAT = b": still here\n\n"  # a comment line: keeps proxies from closing an idle stream


def retry(milliseconds: int) -> bytes:
    return f"retry: {milliseconds}\n\n".encode()
