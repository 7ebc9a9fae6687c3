"""bench/move_parts.py still takes a move apart: the functions it wraps exist and are on
the move's path (a rename would leave its figures silently empty)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_move_breakdown_runs_and_finds_every_part():
    done = subprocess.run(
        [sys.executable, "bench/move_parts.py", "--moves", "4"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = {line.rsplit(None, 1)[0].strip(): float(line.rsplit(None, 1)[1])
             for line in done.stdout.splitlines()[1:]}  # fmt: skip
    for part in (
        "move answered in JSON (no board)",
        "move answered with the new board (htmx)",
        "write (views._once: lock, apply, rows, commit, cache)",
        "of it games.play.act",
        "the page's data (views._board_context)",
        "board fragment",
        "log fragment",
        "tal.board.build",
        "the valley (tal.valley.render)",
        "partial game-header",
        "partial history-nav",
    ):
        assert lines.get(part, 0) > 0, (part, done.stdout)
    ratio = next(v for label, v in lines.items() if label.startswith("moves per second, htmx"))
    assert 0 < ratio < 5, done.stdout  # the htmx move's rate against the JSON move's
