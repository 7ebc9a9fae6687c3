import re

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponseBadRequest
from django.middleware.gzip import GZipMiddleware
from whitenoise.middleware import WhiteNoiseMiddleware


class RejectUnstorableInput:
    """Answer 400 to a NUL character in the path or query string.

    No page of this site takes one, and PostgreSQL refuses to store or even
    compare text containing NUL, so a lookup like ``/u/%00/`` would be a 500.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in values)
            for key, values in request.GET.lists()
        ):
            return HttpResponseBadRequest("Bad request: NUL character.")
        return self.get_response(request)


BETWEEN_TAGS = re.compile(rb">\s*\n\s*<")


class CompactHTML:
    """Collapse the templates' indentation between tags to one newline.

    It renders the same (a run of white space between tags is one space either
    way; no page has <pre>, and the chat's textarea starts empty), and the
    board pages, fetched every few seconds, are smaller by a kilobyte or two.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            not response.streaming
            and response.get("Content-Type", "").startswith("text/html")
            and not response.has_header("Content-Encoding")
        ):
            response.content = BETWEEN_TAGS.sub(b">\n<", response.content)
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response


class GZip(GZipMiddleware):
    """Django's gzip, except for live streams (text/event-stream): each event must
    reach the page when it is sent, and Django would compress each one on its own."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


class AsyncFileChunks:
    """A static file read in chunks for the event loop, each read in a worker thread.

    Django's ASGI handler sends a response body with ``async for``; handed a plain
    file iterator (whitenoise 6's), it warns on every file and reads the whole file
    into a list first. A file's reads are not tied to the request's thread, so they
    need not wait for it (``thread_sensitive=False``).
    """

    block_size = 2**16  # the chunk size of Django's ASGI handler

    def __init__(self, file) -> None:
        self.file = file

    async def __aiter__(self):
        if self.file is None:  # HEAD, 304: headers only
            return
        read = sync_to_async(self.file.read, thread_sensitive=False)
        while chunk := await read(self.block_size):
            yield chunk

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


class StaticFiles(WhiteNoiseMiddleware):
    """Whitenoise, with the file's body as an asynchronous iterator under ASGI
    (``make run``, production), where whitenoise 6 gives a synchronous one."""

    @staticmethod
    def serve(static_file, request):
        response = WhiteNoiseMiddleware.serve(static_file, request)
        if isinstance(request, ASGIRequest):
            response.streaming_content = AsyncFileChunks(response.file_to_stream)
        return response
