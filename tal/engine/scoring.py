"""Pyramid types and points (table and stripe definition of tal-der-koenige-board.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .board import CAPACITY, HIDDEN_SLOT, LEVEL_SIDES, POINTS

Levels = Sequence[Sequence[str | None]]


def is_complete(size: str, levels: Levels) -> bool:
    return sum(1 for level in levels for c in level if c is not None) == CAPACITY[size]


def _visible(size: str, levels: Levels) -> list[tuple[int, int, int, str]]:
    """(level, i, j, colour) of every stone whose colour counts."""
    out = []
    for lv, stones in enumerate(levels):
        side = LEVEL_SIDES[size][lv]
        for slot, colour in enumerate(stones):
            if colour is None:
                continue
            if size == "large" and (lv, slot) == HIDDEN_SLOT:
                continue
            i, j = divmod(slot, side)
            out.append((lv, i, j, colour))
    return out


def is_monochrome(size: str, levels: Levels) -> bool:
    return len({c for *_, c in _visible(size, levels)}) == 1


def is_layered(size: str, levels: Levels) -> bool:
    per_level: dict[int, set[str]] = {}
    for lv, _i, _j, c in _visible(size, levels):
        per_level.setdefault(lv, set()).add(c)
    return all(len(cs) == 1 for cs in per_level.values())


def _striped_by(stones: list[tuple[int, int, int, str]], key: Callable[..., int]) -> bool:
    colour_of: dict[int, str] = {}
    for lv, i, j, c in stones:
        parity = key(lv, i, j) % 2
        if colour_of.setdefault(parity, c) != c:
            return False
    return len(colour_of) == 2 and colour_of[0] != colour_of[1]


def is_striped(size: str, levels: Levels) -> bool:
    """Two colours alternating with the parity of (i + j + l), or of (i - j)."""
    stones = _visible(size, levels)
    return _striped_by(stones, lambda lv, i, j: i + j + lv) or _striped_by(
        stones, lambda lv, i, j: i - j
    )


def pyramid_type(size: str, levels: Levels, expert: bool) -> str:
    """The best type a (finished) pyramid satisfies."""
    candidates = ["mixed"]
    if is_monochrome(size, levels):
        candidates.append("monochrome")
    if is_layered(size, levels):
        candidates.append("layered")
    if expert and is_striped(size, levels):
        candidates.append("stripes")
    return max(candidates, key=lambda t: POINTS[size][t])


def pyramid_points(size: str, levels: Levels, expert: bool) -> int:
    """Points of a pyramid: 0 unless finished."""
    if not is_complete(size, levels):
        return 0
    return POINTS[size][pyramid_type(size, levels, expert)]


def _stripes_possible(stones: list[tuple[int, int, int, str]]) -> bool:
    """Could the stones placed so far still become a stripe pyramid?"""
    for key in (lambda lv, i, j: i + j + lv, lambda lv, i, j: i - j):
        colour_of: dict[int, str] = {}
        if all(colour_of.setdefault(key(lv, i, j) % 2, c) == c for lv, i, j, c in stones):
            if len(set(colour_of.values())) == len(colour_of):
                return True
    return False


def best_possible(size: str, levels: Levels, expert: bool) -> tuple[str, int]:
    """The best type (and its points) an unfinished pyramid can still become, judged by
    the stones placed so far; for a finished one its type and points."""
    if is_complete(size, levels):
        kind = pyramid_type(size, levels, expert)
        return kind, POINTS[size][kind]
    stones = _visible(size, levels)
    candidates = ["mixed"]
    if len({c for *_, c in stones}) <= 1:
        candidates.append("monochrome")
    if is_layered(size, levels):
        candidates.append("layered")
    if expert and _stripes_possible(stones):
        candidates.append("stripes")
    best = max(candidates, key=lambda t: POINTS[size][t])
    return best, POINTS[size][best]
