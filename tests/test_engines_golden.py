"""The engines behave exactly as when the golden record was taken (see engines_golden.py)."""

import json

import pytest

from tests.engines_golden import FIXTURE, cases, play

GOLDEN = json.loads(FIXTURE.read_text())


def test_the_record_covers_every_case():
    assert sorted(GOLDEN) == sorted(name for name, *_ in cases())


@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_replay_matches_the_record(case):
    name, title, players, options, seed, limit = case
    digests = play(title, players, options, seed, limit)
    expected = GOLDEN[name]
    first = next(
        (i for i, (a, b) in enumerate(zip(digests, expected, strict=False)) if a != b), None
    )
    assert first is None, f"{name}: differs from move {first} on"
    assert len(digests) == len(expected)
