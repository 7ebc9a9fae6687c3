"""An SMTP server that keeps every message as a file: the mail sink of the image's smoke test.

Standard library only (the host runs it beside the containers):
    python3 deploy/ci/smtp_sink.py --port 2525 --dir /tmp/mail
Each message is written to DIR/<n>.eml once its DATA ends. It speaks just enough SMTP
for Django's mail backend without TLS or authentication; it listens on 127.0.0.1 only.
"""

import argparse
import asyncio
import itertools
from pathlib import Path

counter = itertools.count(1)


async def session(reader, writer, folder: Path) -> None:
    def say(line: str) -> None:
        writer.write(line.encode() + b"\r\n")

    say("220 sink ESMTP")
    while True:
        line = await reader.readline()
        if not line:
            break
        verb = line.decode(errors="replace").strip().split(" ", 1)[0].upper()
        if verb in ("EHLO", "HELO"):
            say("250 sink")
        elif verb in ("MAIL", "RCPT", "RSET", "NOOP"):
            say("250 OK")
        elif verb == "DATA":
            say("354 end with <CRLF>.<CRLF>")
            await writer.drain()
            lines = []
            while (part := await reader.readline()) not in (b".\r\n", b".\n", b""):
                lines.append(part[1:] if part.startswith(b"..") else part)
            path = folder / f"{next(counter):04d}.eml"
            path.with_suffix(".part").write_bytes(b"".join(lines))
            path.with_suffix(".part").rename(path)
            say("250 OK: kept")
        elif verb == "QUIT":
            say("221 bye")
            await writer.drain()
            break
        else:
            say("502 not implemented")
        await writer.drain()
    writer.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", type=Path, required=True)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    server = await asyncio.start_server(
        lambda r, w: session(r, w, args.dir), host="127.0.0.1", port=args.port
    )
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
