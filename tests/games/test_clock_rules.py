"""The bank's rules (games.clock.bank), as properties: it never holds more than its cap,
never runs while stopped (a vacation, a pause, not to move, a weekend), and runs out at
the right minute whatever the order of stops and starts."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from zoneinfo import ZoneInfo

from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.clock import bank as rules
from games.clock.bank import Bank, Pace
from games.clock.seats import settle

MINUTE = timedelta(minutes=1)
ZONES = [
    None,
    ZoneInfo("Europe/Berlin"),
    ZoneInfo("America/New_York"),
    ZoneInfo("Pacific/Auckland"),
]
# Minutes of 2027, so that daylight-saving changes fall in some examples.
instants = st.integers(0, 365 * 24 * 60).map(
    lambda m: datetime(2027, 1, 1, tzinfo=UTC) + m * MINUTE
)
spans = st.integers(0, 3 * 24 * 60).map(lambda m: m * MINUTE)
zones = st.sampled_from(ZONES)


def in_weekend(at: datetime, zone) -> bool:
    return zone is not None and at.astimezone(zone).weekday() >= 5


@settings(max_examples=60, deadline=None)
@given(
    start=st.integers(60, 48 * 60),
    increment=st.integers(0, 24 * 60),
    extra=st.integers(0, 48 * 60),
    spent=spans,
    since=instants,
    zone=zones,
)
def test_a_bank_never_holds_more_than_its_cap(start, increment, extra, spent, since, zone):
    pace = Pace(start * MINUTE, increment * MINUTE, (start + extra) * MINUTE)
    held = Bank(pace.cap, since)
    after = rules.end_turn(held, since + spent, pace, zone)
    assert timedelta(0) <= after.left <= pace.cap
    assert not after.running


@settings(max_examples=60, deadline=None)
@given(left=spans, at=instants, later=spans, zone=zones)
def test_a_stopped_bank_holds_what_it_had(left, at, later, zone):
    stopped = rules.stop(Bank(left, at), at, zone)
    assert rules.left_at(stopped, at + later, zone) == left
    assert rules.runs_out_at(stopped, zone) is None


@settings(max_examples=60, deadline=None)
@given(at=instants, length=spans, zone=st.sampled_from(ZONES[1:]))
def test_no_time_is_charged_on_a_weekend(at, length, zone):
    begins, ends = rules.weekend_around(at, zone)
    within = max(begins, min(at, ends))
    assert rules.running_time(within, min(within + length, ends), zone) == timedelta(0)
    # The working days before it are charged in full (the last weekend is 5 days back).
    assert rules.running_time(begins - length, ends, zone) == length


def minute_by_minute(left, runs, zone):
    """The oracle: walk the minutes, charging those in a running span and not in a weekend."""
    for run_from, run_to in runs:
        at = run_from
        while run_to is None or at < run_to:
            if not in_weekend(at, zone):
                left -= MINUTE
                if left <= timedelta(0):
                    return at + MINUTE
            at += MINUTE
    return None


@settings(max_examples=40, deadline=None)
@given(
    left=st.integers(1, 2 * 24 * 60).map(lambda m: m * MINUTE),
    start=instants,
    gaps=st.lists(st.integers(0, 24 * 60), max_size=6),
    zone=zones,
)
# Empty exactly as the weekend begins (Saturday 00:00 in Berlin): on Friday, not Monday.
@example(60 * MINUTE, datetime(2027, 3, 5, 22, tzinfo=UTC), [], ZoneInfo("Europe/Berlin"))
def test_a_bank_runs_out_at_the_right_minute_whatever_the_stops(left, start, gaps, zone):
    """Runs alternate with stops (vacations, pauses, the other player's turns) of the
    lengths ``gaps``; the bank empties where the minute-by-minute count says."""
    current, at, runs = rules.run(Bank(left), start), start, []
    for gap in gaps:
        step = at + gap * MINUTE
        if current.running:
            if rules.left_at(current, step, zone) <= timedelta(0):
                break  # it ran out during this run: the sweep would have ended it
            runs.append((at, step))
            current = rules.stop(current, step, zone)
        else:
            current = rules.run(current, step)
        at = step
    if not current.running:
        current = rules.run(current, at)
    runs.append((current.since, None))
    expected = minute_by_minute(left, runs, zone)
    assert rules.runs_out_at(current, zone) == expected
    assert rules.left_at(current, expected, zone) == timedelta(0)


def test_in_a_simultaneous_phase_every_seat_to_move_is_charged():
    """Tal's secret plans: both seats write at once; each bank runs, the game's deadline
    is the first to empty, and a seat that handed in its plan stops and gains."""
    now = datetime(2027, 3, 1, 12, tzinfo=UTC)
    game = SimpleNamespace(
        bank_start=2 * 60 * MINUTE, bank_increment=30 * MINUTE, bank_cap=3 * 60 * MINUTE,
        weekends_off=False, deadline=None, paused_remaining=None,
    )  # fmt: skip

    def seat(number, left):
        return SimpleNamespace(
            pk=None, number=number, to_move=True, bank=left, bank_since=None, user=None
        )

    seats = [seat(0, 60 * MINUTE), seat(1, 90 * MINUTE), seat(2, 90 * MINUTE)]
    seats[2].to_move = False
    settle(game, seats, now, ended=set(), stopped=False)
    assert game.deadline == now + 60 * MINUTE
    assert [s.bank_since for s in seats] == [now, now, None]

    seats[0].to_move = False  # hands in its plan after 20 minutes
    settle(game, seats, now + 20 * MINUTE, ended={0}, stopped=False)
    assert (seats[0].bank, seats[0].bank_since) == (70 * MINUTE, None)
    assert game.deadline == now + 90 * MINUTE  # the other one's bank ran all along
    assert seats[2].bank == 90 * MINUTE  # not to move: never charged

    settle(game, seats, now + 30 * MINUTE, ended=set(), stopped=True)  # an agreed pause
    assert game.deadline is None and seats[1].bank == 60 * MINUTE
    assert game.paused_remaining == 60 * MINUTE
