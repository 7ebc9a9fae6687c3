"""The site under ASGI: ``uvicorn config.asgi:application`` (``make run``), and in
production gunicorn with uvicorn workers (README). ASGI serves the live streams
(``live/``): an open stream waits in the event loop, holding no thread.

Django's ASGI handler runs the synchronous code of each request (the middleware, the
views, the ORM) in a thread made for that request and ended with its response. That
costs a new database connection per request (Django's connections belong to threads:
``CONN_MAX_AGE`` keeps one for a thread about to end), and an idle thread for as long
as a stream is open. Here each request borrows one of ``ASGI_THREADS`` threads that
live as long as the process instead, the least busy one, as gunicorn's threaded
workers do: connections are kept between requests as under WSGI, and a stream needs
its thread only while it starts (gate, subscription), a few milliseconds.
"""

import os
import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()


class _Thread(ThreadPoolExecutor):
    """One thread, and how much work waits for it."""

    def __init__(self, number: int) -> None:
        super().__init__(max_workers=1, thread_name_prefix=f"asgi-{number}")
        self.waiting = 0
        self._count = threading.Lock()

    def submit(self, fn, /, *args, **kwargs):
        with self._count:
            self.waiting += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._done)
        return future

    def _done(self, future) -> None:
        with self._count:
            self.waiting -= 1


class SharedThreads:
    def __init__(self, app, count: int) -> None:
        self.app = app
        self.threads = [_Thread(number) for number in range(max(1, count))]
        self.turn = 0

    def _pick(self) -> _Thread:
        # The least busy thread; among equals the next in turn, so connections stay warm.
        self.turn = (self.turn + 1) % len(self.threads)
        order = self.threads[self.turn :] + self.threads[: self.turn]
        return min(order, key=lambda thread: thread.waiting)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        async with ThreadSensitiveContext(executor=self._pick()):
            return await self.app(scope, receive, send)


def _threads() -> int:
    from django.conf import settings

    return settings.ASGI_THREADS


application = SharedThreads(django_application, _threads())
