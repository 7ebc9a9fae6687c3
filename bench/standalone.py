"""Django for a benchmark script run on its own: a throw-away SQLite database (or
DATABASE_URL if set), e-mail sent but not printed, only warnings logged.

    import standalone

    standalone.setup()  # before importing anything that needs Django
"""

import os
import sys
import tempfile
from pathlib import Path


def setup() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("EMAIL_URL", "dummymail://")
    os.environ.setdefault("LOG_LEVEL", "WARNING")

    import django

    django.setup()
