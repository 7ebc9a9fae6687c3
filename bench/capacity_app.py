"""``config.asgi``'s application as ``bench/capacity.py`` serves it, counting where the
time goes (gunicorn loads it with ``--pythonpath bench capacity_app:application``).

Nothing of the site changes: each request still borrows one of ``config.asgi``'s
threads. Every piece of work handed to such a thread is timed there, with the thread's
own CPU clock (``time.thread_time``) and the wall time of the SQL it sends, and put
down to the kind of request it serves (``KINDS``, from the path). What the event loop
does itself (HTTP parsing, the streams' heartbeats and events, the hub) is the rest of
the process's CPU, which the benchmark reads from /proc. The hub's figures (open
streams, publishes, messages told to streams) are counted here too. Every second the
totals of this process go to ``$BENCH_TIMING_DIR/<pid>.json``; the benchmark adds the
processes up before and after each step.
"""

from __future__ import annotations

import contextvars
import json
import os
import re
import threading
import time
from collections import defaultdict

from config import asgi

KINDS = [
    ("move", re.compile(r"^/g/\d+/act$")),
    ("chat", re.compile(r"^/g/\d+/chat$")),
    ("changes", re.compile(r"^/g/\d+/live/changes$")),
    ("stream", re.compile(r"^(/g/\d+/live|/live/me)$")),
    ("badge", re.compile(r"^/live/badge$")),
    ("game page", re.compile(r"^/g/\d+/$")),
    ("lobby", re.compile(r"^/$")),
    ("my games", re.compile(r"^/my/$")),
]

_kind: contextvars.ContextVar[str] = contextvars.ContextVar("bench_kind", default="other")
_lock = threading.Lock()
# kind -> [pieces of work, thread CPU seconds, SQL seconds, queries]
_totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0])
_hub = {"publishes": 0, "published messages": 0, "told": 0}


def kind_of(path: str) -> str:
    for name, pattern in KINDS:
        if pattern.match(path):
            return name
    return "other"


_submit = asgi._Thread.submit


def _timed_submit(self, fn, /, *args, **kwargs):
    kind = _kind.get()

    def timed(*a, **k):
        from django.db import connection

        sql = [0.0, 0]

        def clock(execute, query, params, many, context):
            started = time.perf_counter()
            try:
                return execute(query, params, many, context)
            finally:
                sql[0] += time.perf_counter() - started
                sql[1] += 1

        began = time.thread_time()
        try:
            with connection.execute_wrapper(clock):
                return fn(*a, **k)
        finally:
            used = time.thread_time() - began
            with _lock:
                row = _totals[kind]
                row[0] += 1
                row[1] += used
                row[2] += sql[0]
                row[3] += sql[1]

    return _submit(self, timed, *args, **kwargs)


asgi._Thread.submit = _timed_submit


def _count_hub() -> None:
    from live import hub

    publish, put = hub.publish, hub.Inbox.put

    def counted_publish(messages):
        with _lock:
            _hub["publishes"] += 1
            _hub["published messages"] += len(messages)
        return publish(messages)

    def counted_put(self, item):
        _hub["told"] += 1  # in the event loop's thread only
        return put(self, item)

    hub.publish = counted_publish
    hub.Inbox.put = counted_put


def _dump() -> None:
    from live import hub

    directory = os.environ["BENCH_TIMING_DIR"]
    path = os.path.join(directory, f"{os.getpid()}.json")
    while True:
        time.sleep(1.0)
        with _lock:
            data = {
                "kinds": {k: list(v) for k, v in _totals.items()},
                "hub": dict(_hub),
            }
        data["hub"]["streams"] = hub.open_streams()
        data["at"] = time.time()
        with open(path + ".tmp", "w") as out:
            json.dump(data, out)
        os.replace(path + ".tmp", path)


_count_hub()
if os.environ.get("BENCH_TIMING_DIR"):
    threading.Thread(target=_dump, name="bench-timing", daemon=True).start()


async def application(scope, receive, send):
    if scope["type"] == "http":
        _kind.set(kind_of(scope["path"]))
    return await asgi.application(scope, receive, send)
