"""A broker that accepts connections and never answers does not hang a move."""

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_queueing_a_mail_gives_up_quickly_on_a_silent_broker():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    held = []

    def accept_and_stay_silent():
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept_and_stay_silent, daemon=True).start()
    code = (
        "import time, django; django.setup()\n"
        "from notify.outbox import enqueue\n"
        "t = time.monotonic(); enqueue(1); print(time.monotonic() - t)\n"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "REDIS_URL": f"redis://127.0.0.1:{port}/0",
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }
    started = time.monotonic()
    try:
        out = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
        )
    finally:
        listener.close()
        for conn in held:
            conn.close()
    assert out.returncode == 0, out.stderr[-2000:]
    assert float(out.stdout.strip().splitlines()[-1]) < 30
    assert "could not queue delivery" in out.stderr  # logged; the drain sends it later
    assert time.monotonic() - started < 60
