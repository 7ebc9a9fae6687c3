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
import sys
from collections.abc import Iterable
from pathlib import Path

from django.apps import apps
from django.conf import settings

DRAWN_BY = (".html", ".py", ".mo", ".css", ".js", ".svg", ".txt")
SKIPPED = {"tests", "__pycache__", "node_modules"}


def digest_of(folders: Iterable[Path], base: Path) -> str:
    """A digest of the names (relative to ``base``) and contents of the drawing files in
    ``folders`` and below them."""
    found = set()
    for root in folders:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = [d for d in subfolders if d not in SKIPPED and not d.startswith(".")]
            found |= {Path(folder, name) for name in files if name.endswith(DRAWN_BY)}
    h = hashlib.sha256()
    for path in sorted(found):
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


@functools.cache
def digest() -> str:
    """This process's release digest (the files do not change under a running process)."""
    return digest_of(folders(), Path(settings.BASE_DIR).resolve())
