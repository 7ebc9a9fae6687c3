"""``make run``'s worker is started again when it dies, and says so; stopping the
script (what the Makefile's trap does when the web server ends) stops the worker too."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
SCRIPT = str(ROOT / "config" / "run_worker.sh")


def wait_until(condition, seconds: float = 20) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_a_worker_that_dies_is_started_again_and_the_terminal_is_told(tmp_path):
    starts = tmp_path / "starts"
    # A "worker" that dies at once the first two times, then keeps running.
    worker = f'echo x >> {starts}; [ "$(wc -l < {starts})" -ge 3 ] && exec sleep 60; kill -9 $$'
    script = subprocess.Popen(
        [SCRIPT, "sh", "-c", worker], stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert wait_until(lambda: starts.exists() and len(starts.read_text().split()) == 3)
        time.sleep(0.5)
        assert script.poll() is None
        running = subprocess.run(
            ["pgrep", "-s", str(script.pid), "-x", "sleep"], capture_output=True, text=True
        ).stdout.split()
        assert len(running) == 1
        script.send_signal(signal.SIGTERM)
        assert script.wait(10) == 0
        # The worker went with it.
        assert wait_until(lambda: not os.path.exists(f"/proc/{running[0]}"), 5)
        told = script.stderr.read()
    finally:
        if script.poll() is None:
            os.killpg(script.pid, signal.SIGKILL)
    assert told.count("The Celery worker stopped (exit status 137); starting it again.") == 2
