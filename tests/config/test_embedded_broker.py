"""The broker of ``make run`` (files under .celery/, config.broker_files) under a flood:
several producer processes send large messages while a real worker consumes them, and
a message file that is only half there (what kombu#1551's reader saw, and what a
producer killed mid-write leaves) lies among them. The worker lives, every whole
message is consumed exactly once, and the broken file is put aside."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from kombu import Connection

from config import broker_files

ROOT = Path(settings.BASE_DIR)
TRANSPORT = "config.broker_files:Transport"
PRODUCERS = 4
MESSAGES = 150
SIZE = 64 * 1024


def folders(root: Path) -> dict:
    for name in ("queue", "processed", "control"):
        (root / name).mkdir(exist_ok=True)
    return {
        "data_folder_in": str(root / "queue"),
        "data_folder_out": str(root / "queue"),
        "processed_folder": str(root / "processed"),
        "control_folder": str(root / "control"),
        "store_processed": False,
    }


def start_worker(env: dict, log: Path) -> subprocess.Popen:
    with log.open("w") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "tests.config.flood_app", "worker"]
            + ["--pool", "solo", "--without-gossip", "--without-mingle", "--loglevel", "INFO"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def test_the_embedded_broker_is_the_safe_transport():
    if settings.CELERY_BROKER_URL.startswith("filesystem://"):
        assert settings.CELERY_BROKER_TRANSPORT == TRANSPORT


def test_the_worker_lives_through_a_flood_and_consumes_every_message_once(tmp_path):
    folders(tmp_path)
    env = {**os.environ, "FLOOD_DIR": str(tmp_path), "FLOOD_TRANSPORT": TRANSPORT}
    # Half a message, named like one and older than the flood: read first.
    (tmp_path / "queue" / "0_half.celery.msg").write_text('{"body": "eyJ0Y')
    log = tmp_path / "worker.log"
    worker = start_worker(env, log)
    code = (
        "import sys; from tests.config.flood_app import produce; produce(int(sys.argv[1]), {}, {})"
    )
    producers = [
        subprocess.Popen(
            [sys.executable, "-c", code.format(MESSAGES, SIZE), str(p)], cwd=ROOT, env=env
        )
        for p in range(PRODUCERS)
    ]
    consumed = tmp_path / "consumed.txt"

    def lines() -> list[str]:
        return consumed.read_text().split() if consumed.exists() else []

    try:
        for producer in producers:
            assert producer.wait(120) == 0
        end = time.monotonic() + 120
        while time.monotonic() < end and worker.poll() is None:
            if len(lines()) >= PRODUCERS * MESSAGES:
                break
            time.sleep(0.2)
        time.sleep(1)  # a message consumed twice would be written down now
        assert worker.poll() is None, log.read_text()[-3000:]
    finally:
        if worker.poll() is None:
            worker.terminate()
            worker.wait(20)
    expected = [f"{p}:{n}" for p in range(PRODUCERS) for n in range(MESSAGES)]
    assert sorted(lines()) == sorted(expected)
    assert os.listdir(tmp_path / "queue") == []  # nothing left, nothing partial
    assert os.listdir(tmp_path / "broken") == ["0_half.celery.msg"]


def test_a_message_file_appears_only_whole(tmp_path, monkeypatch):
    """A reader lists the queue folder: until the rename, the message is not there
    under a name it reads, and what is renamed into place is the whole message."""
    seen = []
    replace = os.replace

    def look_then_replace(source, target):
        names = os.listdir(tmp_path / "queue")
        seen.append((names, Path(source).read_bytes(), Path(target).name))
        replace(source, target)

    monkeypatch.setattr(broker_files.os, "replace", look_then_replace)
    options = folders(tmp_path)
    with Connection("filesystem://", transport=TRANSPORT, transport_options=options) as conn:
        queue = conn.SimpleQueue("mail")
        queue.put({"row": 7, "padding": "x" * 100_000})
        [(names, written, name)] = [s for s in seen if s[2].endswith(".msg")]
        assert [n for n in names if n.endswith(".msg")] == []
        assert all(n.startswith(broker_files.PARTIAL) for n in names)
        assert name.endswith(".mail.msg") and len(written) > 100_000
        message = queue.get(timeout=5)
        assert message.payload["row"] == 7
        message.ack()
        queue.close()
    assert os.listdir(tmp_path / "queue") == []


@pytest.mark.parametrize("content", ["", '{"body": "eyJ0Y'])
def test_an_unreadable_file_is_put_aside_and_the_next_message_read(tmp_path, content):
    options = folders(tmp_path)
    # kombu keeps a process's bindings in memory: each test binds a queue of its own.
    name = f"mail{len(content)}"
    (tmp_path / "queue" / f"0_broken.{name}.msg").write_text(content)
    with Connection("filesystem://", transport=TRANSPORT, transport_options=options) as conn:
        queue = conn.SimpleQueue(name)
        queue.put({"row": 8})
        message = queue.get(timeout=5)
        assert message.payload == {"row": 8}
        message.ack()
        queue.close()
    assert os.listdir(tmp_path / "broken") == [f"0_broken.{name}.msg"]
