"""The code that draws the pages, as one digest: cached HTML is keyed by it.

A cached page or board fragment (``games.pagecache``, ``games.fragments``) is HTML
drawn by one release: its templates, the Python that fills them, its translations and
the static files its links name (hashed names in production). After a deploy that
changes any of these, an unchanged position must not be served the old HTML for the
hour it is kept (a removed form, a CSS file that is gone, last release's wording).
Every key carries this digest, read from the files themselves, so no one has to
remember to set a release number.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from django.apps import apps
from django.conf import settings

DRAWN_BY = (".html", ".py", ".mo", ".css", ".js", ".svg", ".txt")
SKIPPED = {"tests", "__pycache__", "node_modules"}
# In development, how long a digest of the files' times is trusted (see digest).
RECHECK_SECONDS = 1.0


def _files(folders: Iterable[Path]) -> Iterator[Path]:
    for root in folders:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = [d for d in subfolders if d not in SKIPPED and not d.startswith(".")]
            yield from (Path(folder, name) for name in files if name.endswith(DRAWN_BY))


def digest_of(folders: Iterable[Path], base: Path) -> str:
    """A digest of the names (relative to ``base``) and contents of the drawing files in
    ``folders`` and below them."""
    h = hashlib.sha256()
    for path in sorted(set(_files(folders))):
        h.update(str(path.relative_to(base)).encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def folders() -> list[Path]:
    """The project's own apps, templates, static files and translations (never the
    installed packages: their version is in the requirements, and a deploy that changes
    them changes this project's files too, or restarts with the same HTML)."""
    base = Path(settings.BASE_DIR).resolve()
    found = [Path(d) for t in settings.TEMPLATES for d in t.get("DIRS", [])]
    found += [Path(d) for d in getattr(settings, "STATICFILES_DIRS", [])]
    found += [Path(d) for d in settings.LOCALE_PATHS]
    found += [Path(app.path) for app in apps.get_app_configs()]
    found.append(base / "config")
    installed = Path(sys.prefix).resolve()  # a virtualenv may live inside the project
    return sorted(
        {
            f.resolve()
            for f in found
            if f.resolve().is_relative_to(base) and not f.resolve().is_relative_to(installed)
        }
    )


def digest() -> str:
    """This process's release digest. Deployed files do not change under a running
    process: they are read once. In development (DEBUG) they do, under runserver, which
    restarts for Python but not for a template: there the digest is of the files' times,
    read again after a second, so an edited template shows on the next load."""
    if settings.DEBUG:
        return _edited_digest()
    return _deployed_digest()


@functools.cache
def _deployed_digest() -> str:
    return digest_of(folders(), Path(settings.BASE_DIR).resolve())


_edited: tuple[float, str] = (float("-inf"), "")


def _edited_digest() -> str:
    global _edited
    checked, value = _edited
    if time.monotonic() - checked > RECHECK_SECONDS:
        h = hashlib.sha256()
        for path in _files(folders()):
            h.update(f"{path}:{path.stat().st_mtime_ns}".encode())
        _edited = (time.monotonic(), h.hexdigest()[:16])
    return _edited[1]
