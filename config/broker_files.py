"""The embedded broker of ``make run``: kombu's filesystem transport, made safe for
several processes (kombu#1551).

kombu writes a message straight into its final file name, so a worker may take the
file before the producer has finished writing it, read half a JSON document, and die
for good (``Unrecoverable error: JSONDecodeError``). Here a producer writes a hidden
temporary file in the same folder and renames it into place (``os.replace`` is atomic
on one filesystem), so a reader sees a whole message or none. A reader takes a
message by renaming it into its own processed folder (one rename wins, so no message
is read twice) and puts aside a file it cannot parse (left by an older version or a
full disk) in ``broken/`` with a warning, instead of dying.

The exchange tables (the fanout of remote control) are rewritten the same way.
"""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path
from queue import Empty
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

# Temporary files start with this: no queue's message name does (they start with digits).
PARTIAL = ".partial-"


def write_atomically(folder: str | Path, name: str, data: bytes) -> None:
    """``folder/name`` holds ``data`` whole, or does not exist: never a part of it."""
    partial = os.path.join(folder, f"{PARTIAL}{uuid.uuid4().hex}")
    try:
        with open(partial, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, os.path.join(folder, name))
    except OSError:
        try:
            os.unlink(partial)
        except OSError:
            pass
        raise


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        # The name sorts by time like kombu's, so the reader keeps its order.
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        try:
            write_atomically(self.data_folder_out, name, str_to_bytes(dumps(payload)))
        except OSError as exc:
            raise ChannelError(f"Cannot add file {name!r} to directory") from exc

    def _get(self, queue):
        wanted = f"{queue}.msg"
        taken_folder = self._taken_folder()
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.startswith(PARTIAL) or name.partition(".")[2] != wanted:
                continue
            taken = os.path.join(taken_folder, name)
            try:
                # One rename wins: another worker that read the same listing gets
                # FileNotFoundError and goes on to the next file.
                os.rename(os.path.join(self.data_folder_in, name), taken)
            except OSError:
                continue
            try:
                with open(taken, "rb") as f:
                    payload = f.read()
                message = loads(bytes_to_str(payload))
            except (OSError, ValueError):
                self._put_aside(taken, name)
                continue
            if not self.store_processed:
                os.remove(taken)
            return message
        raise Empty()

    def _taken_folder(self) -> str:
        # kombu moves to the system's temporary folder when processed messages are not
        # kept: maybe another filesystem, where a move is a copy that two workers can
        # both make. The processed folder is beside the queue, so a rename is atomic.
        folder = self.processed_folder
        os.makedirs(folder, exist_ok=True)
        return folder

    def _put_aside(self, path: str, name: str) -> None:
        broken = Path(self.processed_folder).parent / "broken"
        broken.mkdir(parents=True, exist_ok=True)
        logger.warning("unreadable message file %s put aside in %s", name, broken)
        try:
            os.replace(path, broken / name)
        except OSError:
            pass

    def get_table(self, exchange):
        file = self._exchange_file(exchange)
        try:
            data = file.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise ChannelError(f"Cannot open {file}") from exc
        return [filesystem.exchange_queue_t(*q) for q in loads(bytes_to_str(data) or "[]")]

    def _queue_bind(self, exchange, routing_key, pattern, queue):
        file = self._exchange_file(exchange)
        self.control_folder.mkdir(exist_ok=True)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._table_lock(file):
            queues = self.get_table(exchange)
            if entry not in queues:
                queues.insert(0, entry)
                write_atomically(file.parent, file.name, str_to_bytes(dumps(queues)))

    def _delete(self, queue, exchange, routing_key, pattern, *args, **kwargs):
        # The virtual channel's bookkeeping, then the table, rewritten whole.
        super(filesystem.Channel, self)._delete(
            queue, exchange, routing_key, pattern, *args, **kwargs
        )
        file = self._exchange_file(exchange)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._table_lock(file):
            queues = self.get_table(exchange)
            if entry in queues:
                queues.remove(entry)
                write_atomically(file.parent, file.name, str_to_bytes(dumps(queues)))

    def _table_lock(self, file: Path):
        return _Lock(file.with_name(file.name + ".lock"))


class _Lock:
    """An exclusive lock on a file of its own, so two writers of a table take turns
    (readers need none: they see the old table or the new one)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self):
        self.file = open(self.path, "ab")
        filesystem.lock(self.file, filesystem.LOCK_EX)
        return self

    def __exit__(self, *exc) -> None:
        filesystem.unlock(self.file)
        self.file.close()


class Transport(filesystem.Transport):
    Channel = Channel
