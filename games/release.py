"""The code that draws the pages, as one digest: cached HTML is keyed by it.

A cached page or board fragment (``games.pagecache``, ``games.fragments``) is HTML
drawn by one release: its templates, the Python that fills them, its translations and
the static files its links name (hashed names in production). After a deploy that
changes any of these, an unchanged position must not be served the old HTML for the
hour it is kept (a removed form, a CSS file that is gone, last release's wording).
Every key carries this digest, read once per process from the files themselves, so
no one has to remember to set a release number.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from django.conf import settings

DRAWN_BY = (".html", ".py", ".mo", ".css", ".js", ".svg", ".txt")
# Not part of what the site draws with: the environment, tests, generated files.
SKIPPED = {".venv", "node_modules", "tests", "bench", "staticfiles", "test-artifacts", ".git"}


def digest_of(root: Path) -> str:
    """A digest of the names and contents of the drawing files under ``root``."""
    found = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [d for d in subfolders if d not in SKIPPED and not d.startswith(".")]
        found += [Path(folder, name) for name in files if name.endswith(DRAWN_BY)]
    h = hashlib.sha256()
    for path in sorted(found):
        h.update(str(path.relative_to(root)).encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


@functools.cache
def digest() -> str:
    """This process's release digest (the files do not change under a running process)."""
    return digest_of(Path(settings.BASE_DIR))
