"""bench/page_hits.py still measures what it says: the key parts it leaves out exist (a
rename would make "before" the same as "after"), and the online dot keys the game page by
who is online, not by the minute (the script fails otherwise)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_hits_bench_runs_and_its_dot_check_holds():
    done = subprocess.run(
        [sys.executable, "bench/page_hits.py", "--requests", "10"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:] + done.stdout[-2000:]
    assert "game page drawn 1 time(s)" in done.stdout


def test_the_bench_leaves_out_exactly_the_issues_key_parts(db):
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import page_hits
    finally:
        sys.path.remove(str(ROOT / "bench"))
    from games import extend

    markers = page_hits._markers()
    left_out = [sql for sql in extend.key_parts() if any(m in sql for m in markers)]
    # who is online, the viewer's blocks (their count and highest id), a first game
    assert len(left_out) == 4, left_out
