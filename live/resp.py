"""A Redis connection that only subscribes: SUBSCRIBE, UNSUBSCRIBE, PING, and the
messages pushed back (RESP2). redis-py's PubSub reconnects by itself and subscribes
again, which would hide an outage from the streams: messages published meanwhile are
lost, and the pages would never learn that they missed them. Here a lost connection
is an error the hub sees (``live.hub``), and it ends the streams, whose pages then
poll and reconnect, catching up on what they missed.
"""

from __future__ import annotations

import asyncio
import ssl
from urllib.parse import unquote, urlsplit


class Lost(ConnectionError):
    """The connection to Redis is gone (or never came)."""


def _command(*parts: str) -> bytes:
    out = [f"*{len(parts)}\r\n".encode()]
    for part in parts:
        data = part.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


class Subscriber:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def connect(cls, url: str, timeout: float = 1.0) -> Subscriber:
        parts = urlsplit(url)
        if parts.scheme not in ("redis", "rediss"):
            raise Lost(f"live updates need a redis:// or rediss:// URL, not {parts.scheme}://")
        context = ssl.create_default_context() if parts.scheme == "rediss" else None
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(
                    parts.hostname or "127.0.0.1", parts.port or 6379, ssl=context
                )
                subscriber = cls(reader, writer)
                if parts.password is not None:
                    auth = [unquote(parts.password)]
                    if parts.username:
                        auth.insert(0, unquote(parts.username))
                    subscriber.send("AUTH", *auth)
                    reply = await subscriber.read()
                    if isinstance(reply, Exception):
                        subscriber.close()
                        raise Lost(f"Redis refused the password: {reply}")
        except (OSError, TimeoutError) as error:
            raise Lost(f"cannot reach Redis: {error}") from None
        return subscriber

    def send(self, *parts: str) -> None:
        if self.writer.is_closing():
            raise Lost("the connection to Redis is closed")
        self.writer.write(_command(*parts))

    async def read(self):
        """The next reply or pushed message (a list, bytes, int, str or an Exception)."""
        try:
            return await self._read()
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            raise Lost(f"lost the connection to Redis: {error!r}") from None

    async def _read(self):
        line = await self.reader.readuntil(b"\r\n")
        kind, rest = line[:1], line[1:-2]
        if kind == b"*":
            return [await self._read() for _ in range(int(rest))]
        if kind == b"$":
            size = int(rest)
            if size < 0:
                return None
            return (await self.reader.readexactly(size + 2))[:-2]
        if kind == b":":
            return int(rest)
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            return RuntimeError(rest.decode())
        raise ValueError(f"not RESP: {line[:40]!r}")

    def close(self) -> None:
        self.writer.close()
