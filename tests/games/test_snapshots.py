"""Snapshots: the state stored at turn hand-overs, so no page replays more than one turn."""

import json
import random
import zlib

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command

from games import play, replay, statecodec
from games.models import Game, Snapshot
from siam.engine import ENGINE as SIAM
from tal.engine import ENGINE as TAL
from tests.factories import running_game

# Real transactions: play.act writes its snapshot once the move is committed.
pytestmark = pytest.mark.django_db(transaction=True)

# -- the codec (pure) ---------------------------------------------------------


def _random_positions(engine, players, options, seed, moves):
    rng = random.Random(seed)
    state = engine.setup(players, options, seed)
    for _ in range(moves):
        if engine.result(state) is not None:
            return
        seat = rng.choice(sorted(engine.active_seats(state)))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        yield state, rng


@pytest.mark.parametrize(
    ("engine", "package", "players", "options"),
    [
        (TAL, "tal.engine", 2, {}),
        (TAL, "tal.engine", 4, {"advanced": True, "expert": True}),
        (SIAM, "siam.engine", 2, {}),
        (SIAM, "siam.engine", 4, {}),
    ],
)
def test_a_state_comes_back_from_json_and_plays_on_the_same(engine, package, players, options):
    for n, (state, rng) in enumerate(_random_positions(engine, players, options, 7, 400)):
        if n % 13:
            continue
        back = statecodec.loads(statecodec.dumps(state), package)
        assert statecodec.encode(back) == statecodec.encode(state)
        for viewer in [None, *range(players)]:
            assert engine.view(back, viewer) == engine.view(state, viewer)
        # The random draws and everything else go on alike.
        for _ in range(20):
            if engine.result(state) is not None:
                break
            seat = min(engine.active_seats(state))
            action = rng.choice(engine.legal_actions(state, seat))
            state, back = engine.apply(state, seat, action), engine.apply(back, seat, action)
        assert statecodec.encode(back) == statecodec.encode(state)


def test_types_survive_the_round_trip():
    rng = random.Random(3)
    value = {
        "t": (1, "a"),
        "fs": frozenset({("x", (1, 2)), ("y", ())}),
        "s": {3, 1},
        2: [None, True, 1.5],
        "$odd": "key",
        "rng": rng,
    }
    back = statecodec.loads(statecodec.dumps(value), "tests")
    assert back == {k: v for k, v in value.items() if k != "rng"} | {"rng": back["rng"]}
    assert back["rng"].random() == rng.random()


def _rewrite(blob, change):
    data = json.loads(zlib.decompress(blob))
    change(data)
    return zlib.compress(json.dumps(data).encode())


def test_a_state_of_another_engine_version_or_package_is_refused():
    state = TAL.setup(2, {}, 1)
    blob = statecodec.dumps(state)
    dropped = _rewrite(blob, lambda d: d["$dc"][2].pop("round"))
    with pytest.raises(statecodec.SnapshotError, match="other fields"):
        statecodec.loads(dropped, "tal.engine")
    retyped = _rewrite(blob, lambda d: d["$dc"].__setitem__(1, "a field changed its type"))
    with pytest.raises(statecodec.SnapshotError, match="other fields"):
        statecodec.loads(retyped, "tal.engine")
    with pytest.raises(statecodec.SnapshotError, match="not part of the engine"):
        statecodec.loads(blob, "siam.engine")
    with pytest.raises(statecodec.SnapshotError, match="unreadable"):
        statecodec.loads(b"not a snapshot", "tal.engine")
    with pytest.raises(statecodec.SnapshotError, match="cannot store"):
        statecodec.dumps({"x": object()})


# -- snapshots on the site ------------------------------------------------------


def _play(game, first, second, turns):
    """Count to Ten: each turn adds 1 and ends (two moves, the second hands over)."""
    users = [first, second]
    for turn in range(turns):
        user = users[turn % 2]
        play.act(game.pk, user, {"type": "add", "n": 1}, None)
        play.act(game.pk, user, {"type": "end"}, None)
    game.refresh_from_db()


def _counting_applies(monkeypatch, engine):
    calls = []
    apply = engine.apply

    def counted(state, seat, action):
        calls.append(action)
        return apply(state, seat, action)

    monkeypatch.setattr(engine, "apply", counted)
    return calls


def test_act_stores_a_snapshot_when_the_turn_changes_hands(started):
    game, first, second = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    assert not Snapshot.objects.exists()  # the same seat is still to move
    play.act(game.pk, first, {"type": "end"}, None)
    snapshot = Snapshot.objects.get()
    assert (snapshot.move_count, snapshot.last_number) == (2, 2)
    game.refresh_from_db()
    assert statecodec.encode(replay.load(game, snapshot)) == statecodec.encode(
        replay.fresh_replay(game)
    )


def test_a_cold_page_and_a_past_position_replay_at_most_one_turn(started, monkeypatch):
    game, first, second = started
    _play(game, first, second, 4)
    play.act(game.pk, first, {"type": "add", "n": 1}, None)  # half a turn
    game.refresh_from_db()
    expected = statecodec.encode(replay.fresh_replay(game))
    cache.clear()
    calls = _counting_applies(monkeypatch, game.engine)
    assert statecodec.encode(replay.current_state(game)) == expected
    assert len(calls) == 1  # the move after the hand-over at move 8
    calls.clear()
    at_five = replay.state_at(game, 5)
    assert len(calls) == 1  # from the snapshot at 4
    monkeypatch.undo()
    assert statecodec.encode(at_five) == statecodec.encode(replay._position(game, 5)[2])


def test_a_move_keeps_the_position_it_left_for_the_other_players_next_look(started, monkeypatch):
    """Their page compares with the position before the move ("since you last
    looked", "changed by the last move"): it is in the cache, not replayed."""
    game, first, second = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    play.act(game.pk, first, {"type": "end"}, None)  # left position 1, mid-turn
    game.refresh_from_db()
    calls = _counting_applies(monkeypatch, game.engine)
    before = replay.state_at(game, 1)
    assert calls == []
    monkeypatch.undo()
    assert statecodec.encode(before) == statecodec.encode(replay._position(game, 1)[2])


def test_a_tal_game_page_stays_within_one_turn_of_a_snapshot(users, client, monkeypatch):
    game = running_game("tal", users[:2])
    rng = random.Random(5)
    seat_users = {s.number: s.user for s in game.seats.all()}
    for _ in range(120):
        game.refresh_from_db()
        state = replay.current_state(game)
        seat = min(TAL.active_seats(state))
        action = rng.choice(TAL.legal_actions(state, seat))
        play.act(game.pk, seat_users[seat], action, None)
    game.refresh_from_db()
    assert Snapshot.objects.filter(game=game).count() >= 120 // replay.SNAPSHOT_EVERY
    cache.clear()
    calls = _counting_applies(monkeypatch, TAL)
    client.force_login(users[0])
    assert client.get(f"/g/{game.pk}/").status_code == 200
    assert client.get(f"/g/{game.pk}/?at=61").status_code == 200
    # Each position rebuilt (the page, the one before it, ?at=61 and 60) plays on
    # from a snapshot: never more than one stretch of SNAPSHOT_EVERY moves.
    assert 0 < len(calls) <= 4 * replay.SNAPSHOT_EVERY


def test_a_take_back_deletes_the_snapshots_after_the_new_end(started, monkeypatch):
    monkeypatch.setattr(replay, "SNAPSHOT_EVERY", 1)  # a snapshot after every move
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    assert list(Snapshot.objects.values_list("move_count", "last_number")) == [(1, 1)]
    play.undo(game.pk, first, None)
    assert not Snapshot.objects.exists()
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    assert list(Snapshot.objects.values_list("move_count", "last_number")) == [(1, 2)]
    game.refresh_from_db()
    cache.clear()
    assert replay.current_state(game).total == 1


def test_a_snapshot_whose_last_move_was_taken_back_is_not_used(started, monkeypatch):
    # A replay racing a take-back may store one; it must not be believed.
    monkeypatch.setattr(replay, "SNAPSHOT_EVERY", 1)
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    stale = Snapshot.objects.get()
    play.undo(game.pk, first, None)
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    Snapshot.objects.all().delete()
    stale.pk = None
    stale.save()
    game.refresh_from_db()
    cache.clear()
    assert replay.current_state(game).total == 1
    assert replay.state_at(game, 1).total == 1


@pytest.mark.parametrize(
    "damage",
    [
        lambda blob: b"garbage",
        lambda blob: _rewrite(blob, lambda d: d["$dc"][2].pop("total")),  # an older engine
        lambda blob: _rewrite(blob, lambda d: d["$dc"].__setitem__(0, "os.system")),
    ],
    ids=["damaged", "other-fields", "foreign-class"],
)
def test_an_unreadable_snapshot_falls_back_to_the_replay_and_is_written_anew(
    started, damage, caplog
):
    game, first, second = started
    _play(game, first, second, 2)
    snapshot = Snapshot.objects.get(move_count=4)
    snapshot.state = damage(bytes(snapshot.state))
    snapshot.save()
    cache.clear()
    assert replay.current_state(game).total == 2
    assert "unreadable" in caplog.text
    snapshot.refresh_from_db()
    assert replay.load(game, snapshot).total == 2


def test_a_snapshot_the_engine_cannot_play_on_falls_back_to_the_replay(started, caplog):
    # It reads back (same fields), but holds what the engine no longer understands.
    game, first, second = started
    _play(game, first, second, 2)
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    game.refresh_from_db()
    snapshot = Snapshot.objects.get(move_count=4)
    snapshot.state = _rewrite(
        bytes(snapshot.state), lambda d: d["$dc"][2].__setitem__("added", "a new kind of flag")
    )
    snapshot.save()
    cache.clear()
    assert replay.current_state(game).total == 3
    assert "unusable" in caplog.text
    snapshot.refresh_from_db()
    assert replay.load(game, snapshot).added is False


def test_games_without_snapshots_get_them_when_first_replayed(started):
    game, first, second = started
    _play(game, first, second, 3)
    Snapshot.objects.all().delete()
    cache.clear()
    replay.current_state(game)
    assert list(Snapshot.objects.order_by("move_count").values_list("move_count", flat=True)) == [
        2,
        4,
        6,
    ]


def test_check_replays_compares_every_snapshot_and_finds_a_corrupted_one(started, capsys):
    game, first, second = started
    _play(game, first, second, 3)
    call_command("check_replays")
    assert "1 games replayed, 0 broken (3 snapshots compared)" in capsys.readouterr().out
    # A snapshot that reads back fine but holds another position.
    wrong = Snapshot.objects.get(move_count=4)
    wrong.state = Snapshot.objects.get(move_count=2).state
    wrong.save()
    with pytest.raises(CommandError, match="bad snapshots"):
        call_command("check_replays")
    assert f"game {game.pk} (count v1): snapshot at move 4 differs from the replay" in (
        capsys.readouterr().out
    )
    with pytest.raises(CommandError):
        call_command("check_replays", "--fix")
    call_command("check_replays")
    assert "0 broken" in capsys.readouterr().out


def test_check_replays_lists_a_snapshot_past_the_end(started, capsys):
    game, first, second = started
    _play(game, first, second, 1)
    extra = Snapshot.objects.get()
    extra.pk, extra.move_count = None, 9
    extra.save()
    with pytest.raises(CommandError):
        call_command("check_replays")
    assert "snapshot at move 9 is past the end of the log (2 moves)" in capsys.readouterr().out


def test_moves_are_numbered_without_counting_the_log(started, capsys):
    game, first, _ = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    play.undo(game.pk, first, None)
    play.act(game.pk, first, {"type": "add", "n": 2}, None)
    play.act(game.pk, first, {"type": "end"}, None)
    game = Game.objects.get(pk=game.pk)
    assert list(game.moves.values_list("number", "undone")) == [(1, True), (2, False), (3, False)]
    call_command("check_replays")
    # The numbering relies on every row being in force or taken back; the check says if not.
    game.moves.filter(number=3).delete()
    with pytest.raises(CommandError):
        call_command("check_replays")
    assert "the log has 2 moves, the game counts 3" in capsys.readouterr().out


def test_a_page_draws_the_state_of_the_row_it_read_from_the_cache_without_the_log(
    started, django_assert_num_queries
):
    """``replay.state_as_read``: the cached state of the row's move count needs no look
    at the log; a row read before a later move gets its own position, not the later one
    (the page's links and poll name that row's version)."""
    game, first, second = started
    play.act(game.pk, first, {"type": "add", "n": 1}, None)
    game.refresh_from_db()
    expected = statecodec.encode(replay.fresh_replay(game))
    replay.current_state(game)  # cached, as every move leaves it
    with django_assert_num_queries(0):
        assert statecodec.encode(replay.state_as_read(game)) == expected
    read_before = Game.objects.get(pk=game.pk)
    play.act(game.pk, first, {"type": "end"}, None)  # a move after that row was read
    assert statecodec.encode(replay.state_as_read(read_before)) == expected
    game.refresh_from_db()
    newer = statecodec.encode(replay.fresh_replay(game))
    assert newer != expected
    assert statecodec.encode(replay.state_as_read(game)) == newer
    cache.clear()  # cold: from the snapshot and the log, then kept
    assert statecodec.encode(replay.state_as_read(game)) == newer
    with django_assert_num_queries(0):
        replay.state_as_read(game)
