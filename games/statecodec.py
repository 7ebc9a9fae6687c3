"""Engine states as JSON, for snapshots stored in the database.

Engines keep their state in dataclasses of plain values (lists, dicts with
str or int keys, tuples, frozensets) plus one ``random.Random``. This codec
writes exactly those, tagged so they come back with the same types:

- ``{"$dc": ["module.Class", signature, {field: value, ...}]}`` a dataclass
  instance; the signature is a short hash of the class's field names and
  declared types;
- ``{"$t": [...]}`` tuple, ``{"$fs": [...]}`` frozenset, ``{"$s": [...]}`` set
  (members sorted by their encoding, so equal states encode alike);
- ``{"$d": [[key, value], ...]}`` a dict whose keys are not all plain strings
  (insertion order is kept: an engine may iterate over it);
- ``{"$rng": [version, [internal state], gauss_next]}`` a ``random.Random``;
- ``{"$log": [...]}`` an engine log (``enginekit.log.SharedLog``), only its own
  entries: the storage it shares with other states and its memos stay behind.

Why JSON and not pickle: a snapshot is written by the server only, but a
pickle would run whatever code a tampered or stale row names when it is read.
Decoding here only builds dataclasses of the engine's own package, without
calling ``__init__`` or anything else of theirs, and refuses a dataclass
whose fields (names and declared types) are not exactly the ones the running
code declares: a snapshot written by an older engine is then not loaded
(``SnapshotError``) and the caller replays the log instead.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import random
import zlib
from typing import Any

from enginekit.log import SharedLog

# Bump when this encoding changes: older snapshots are then ignored.
FORMAT = 1


class SnapshotError(Exception):
    """The state cannot be written, or a stored one cannot be read back."""


def encode(state: Any) -> Any:
    """``state`` as a JSON-able value (raises SnapshotError for a type it cannot keep)."""
    return _encode(state)


def dumps(state: Any) -> bytes:
    text = json.dumps(_encode(state), separators=(",", ":"), ensure_ascii=False)
    return zlib.compress(text.encode(), 6)


def loads(blob: bytes, package: str) -> Any:
    """The state in ``blob``; dataclasses may only come from ``package`` (the engine's)."""
    try:
        return json.loads(zlib.decompress(blob), object_hook=_Decoder(package))
    except (zlib.error, ValueError, TypeError) as error:
        raise SnapshotError(f"unreadable snapshot: {error}") from None


def raw(blob: bytes) -> Any:
    """The stored JSON value, without rebuilding the state (to compare with ``encode``)."""
    try:
        return json.loads(zlib.decompress(blob))
    except (zlib.error, ValueError, TypeError) as error:
        raise SnapshotError(f"unreadable snapshot: {error}") from None


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _encode(value: Any) -> Any:
    # Exact types throughout: an enum that subclasses int or str, or a named
    # tuple, would otherwise come back as a plain one.
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list:
        return [v if type(v) in _PLAIN else _encode(v) for v in value]
    if kind is dict:
        if all(type(k) is str and k[:1] != "$" for k in value):
            return {k: v if type(v) in _PLAIN else _encode(v) for k, v in value.items()}
        return {"$d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if kind is tuple:
        return {"$t": [_encode(v) for v in value]}
    if kind is set or kind is frozenset:
        members = sorted((_encode(v) for v in value), key=_sort_key)
        return {"$fs" if kind is frozenset else "$s": members}
    if kind is SharedLog:
        return {"$log": [v if type(v) in _PLAIN else _encode(v) for v in value]}
    if kind is random.Random:
        version, internal, gauss = value.getstate()
        return {"$rng": [version, list(internal), gauss]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"$dc": [f"{kind.__module__}.{kind.__qualname__}", _signature(kind), fields]}
    raise SnapshotError(f"cannot store a {kind.__name__} in a snapshot")


_signatures: dict[type, str] = {}


def _signature(cls: type) -> str:
    """A fingerprint of the fields a dataclass declares, with their types: a
    field that changed its type (an engine's new random generator, say) makes
    old snapshots of it unreadable instead of wrong."""
    signature = _signatures.get(cls)
    if signature is None:
        text = ";".join(f"{f.name}:{f.type}" for f in dataclasses.fields(cls))
        signature = _signatures[cls] = hashlib.sha256(text.encode()).hexdigest()[:12]
    return signature


def _sort_key(encoded: Any) -> str:
    return json.dumps(encoded, sort_keys=True)


class _Decoder:
    """``json.loads``' object hook: the parser hands over each object, innermost
    first, so a tagged one is turned back into its type in one pass."""

    def __init__(self, package: str) -> None:
        self.package = package

    def __call__(self, data: dict) -> Any:
        if len(data) != 1:
            return data
        ((tag, body),) = data.items()
        if not tag.startswith("$"):
            return data
        try:
            if tag == "$dc":
                return _dataclass(body, self.package)
            if tag == "$t":
                return tuple(body)
            if tag == "$fs":
                return frozenset(body)
            if tag == "$s":
                return set(body)
            if tag == "$d":
                return {k: v for k, v in body}
            if tag == "$log":
                return SharedLog(body)
            if tag == "$rng":
                rng = random.Random()
                rng.setstate((body[0], tuple(body[1]), body[2]))
                return rng
        except (TypeError, ValueError, IndexError) as error:
            raise SnapshotError(f"bad {tag} in snapshot: {error}") from None
        raise SnapshotError(f"unknown tag in snapshot: {tag}")


def _dataclass(body: Any, package: str) -> Any:
    try:
        path, signature, fields = body
        module_name, _, name = path.rpartition(".")
    except (TypeError, ValueError):
        raise SnapshotError("malformed dataclass in snapshot") from None
    if not (module_name == package or module_name.startswith(package + ".")):
        raise SnapshotError(f"{path} is not part of the engine ({package})")
    try:
        cls = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError):
        raise SnapshotError(f"{path} no longer exists") from None
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise SnapshotError(f"{path} is not a dataclass")
    declared = {f.name for f in dataclasses.fields(cls)}
    if not isinstance(fields, dict) or set(fields) != declared or signature != _signature(cls):
        raise SnapshotError(f"{path} has other fields now than when the snapshot was written")
    instance = object.__new__(cls)
    for key, value in fields.items():
        # object.__setattr__: frozen dataclasses too, without running any of their code.
        object.__setattr__(instance, key, value)
    return instance
