"""An append-only game log whose copies share storage, with per-log memos.

Engines copy their state on every ``apply``; copying a plain list made every action cost
O(length of the game). A :class:`SharedLog` copy is O(1): the copy and the original share
one storage list and each knows its own length. Appending to a log whose storage has
already grown past it (a sibling state appended first) copies the prefix once, so no log
ever sees another state's entries. Entries must never be changed once appended.

Because entries never change, anything computed entry by entry (the part of the log a
viewer may read) can be memoised on the shared storage and extended as the game grows:
see :meth:`SharedLog.mapped`. Views then cost O(new entries), not O(length).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import islice
from threading import Lock
from typing import Any, overload

Entry = dict[str, Any]

# Memos are shared by every copy of a log, which threads may hold at once (a threaded
# server keeping states in memory): extending one is done under this lock.
_MEMO_LOCK = Lock()


class _Store(list):
    """The shared storage: entries, plus memos derived from them (see ``mapped``)."""

    __slots__ = ("memo",)

    def __init__(self, entries: Any = ()) -> None:
        super().__init__(entries)
        self.memo: dict[Hashable, tuple[list[Any], list[int]]] = {}


class SharedLog(Sequence[Entry]):
    """A list-like, append-only log; ``copy()`` is O(1). Compares equal to a list."""

    __slots__ = ("_store", "_n")

    def __init__(self, entries: Any = ()) -> None:
        self._store = _Store(entries)
        self._n = len(self._store)

    @classmethod
    def of(cls, log: Any) -> SharedLog:
        """``log`` itself shared if it is a SharedLog, else a new one holding its entries."""
        return log.copy() if isinstance(log, SharedLog) else cls(log)

    def copy(self) -> SharedLog:
        new = SharedLog.__new__(SharedLog)
        new._store = self._store
        new._n = self._n
        return new

    def append(self, entry: Entry) -> None:
        if len(self._store) != self._n:
            # Another copy appended first: this log goes on from its own prefix.
            self._store = _Store(self._store[: self._n])
        self._store.append(entry)
        self._n += 1

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Entry: ...
    @overload
    def __getitem__(self, i: slice) -> list[Entry]: ...
    def __getitem__(self, i: int | slice) -> Entry | list[Entry]:
        if isinstance(i, slice):
            return self._store[: self._n][i]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("log index out of range")
        return self._store[i]

    def __iter__(self) -> Iterator[Entry]:
        return islice(self._store, self._n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SharedLog | list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SharedLog({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle only this log's entries, never a sibling's, and no memos.
        return (SharedLog, (list(self),))

    def mapped(self, key: Hashable, fn: Callable[[Entry], Any]) -> list[Any]:
        """``[fn(e) for e in self]`` leaving out ``None`` results, memoised under ``key``.

        ``fn`` must depend only on the entry and on what ``key`` stands for; its results
        are shared between calls (and between copies of the log), so callers must treat
        them as read-only. The memo grows with the storage: a call costs O(entries not
        seen before under ``key``) plus copying the list of results.
        """
        store, n = self._store, self._n
        if not n:
            return []
        with _MEMO_LOCK:
            memo = store.memo.get(key)
            if memo is None:
                memo = store.memo[key] = ([], [])
            out, marks = memo
            for i in range(len(marks), n):
                value = fn(store[i])
                if value is not None:
                    out.append(value)
                marks.append(len(out))
            return out[: marks[n - 1]]


def mapped(log: Sequence[Entry], key: Hashable, fn: Callable[[Entry], Any]) -> list[Any]:
    """:meth:`SharedLog.mapped` for any log (a plain list is mapped afresh)."""
    if isinstance(log, SharedLog):
        return log.mapped(key, fn)
    return [v for v in map(fn, log) if v is not None]
