"""SharedLog: O(1) copies that never see each other's entries, and memoised mappings."""

import pickle

from enginekit.log import SharedLog, mapped


def e(n):
    return {"move": n, "key": f"entry {n}", "args": {}}


def test_copies_share_storage_but_not_entries():
    a = SharedLog([e(0)])
    b = a.copy()
    a.append(e(1))
    b.append(e(2))  # b's storage had grown past it: b goes on from its own prefix
    c = b.copy()
    c.append(e(3))
    assert list(a) == [e(0), e(1)]
    assert list(b) == [e(0), e(2)]
    assert list(c) == [e(0), e(2), e(3)]
    assert a == [e(0), e(1)] and a != b and len(c) == 3
    assert c[-1] == e(3) and c[1:] == [e(2), e(3)]


def test_pickling_keeps_only_its_own_entries():
    a = SharedLog([e(0)])
    b = a.copy()
    a.append(e(1))
    assert pickle.loads(pickle.dumps(b)) == [e(0)]
    assert list(pickle.loads(pickle.dumps(a))) == [e(0), e(1)]


def test_mapped_is_memoised_per_key_and_right_for_every_copy():
    calls = []

    def odd_keys(entry):
        calls.append(entry["move"])
        return entry["key"] if entry["move"] % 2 else None

    log = SharedLog()
    states = []
    for n in range(6):
        log = log.copy()
        log.append(e(n))
        states.append(log)
    assert mapped(states[5], "odd", odd_keys) == ["entry 1", "entry 3", "entry 5"]
    assert mapped(states[2], "odd", odd_keys) == ["entry 1"]
    assert mapped(states[5], "odd", odd_keys) == ["entry 1", "entry 3", "entry 5"]
    assert calls == [0, 1, 2, 3, 4, 5]  # each entry mapped once
    assert mapped(states[0], "other", lambda x: x["move"]) == [0]
    assert mapped([e(1), e(2)], "odd", odd_keys) == ["entry 1"]  # plain lists work too
