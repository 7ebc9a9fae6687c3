"""With PROMETHEUS_MULTIPROC_DIR, what one process counted (a Celery worker's delivery)
is in the scrape of another (a web process) sharing the directory. Two processes of
their own: prometheus-client chooses its mode when imported. PostgreSQL (the scrape
reads the outbox from the test database)."""

import os
import subprocess
import sys

import pytest
from django.db import connection

from tests.conftest import need_service
from tests.notify.test_real_services import ROOT, database_url

pytestmark = pytest.mark.django_db(transaction=True)

SETUP = "import django; django.setup()\n"
COUNT = SETUP + (
    "from notify import signals\n"
    "from notify.models import Notification\n"
    "for _ in range(3):\n"
    "    signals.delivered.send(Notification, channel='push', outcome='sent', retry=False)\n"
)
SCRAPE = SETUP + "from ops import metrics\nprint(metrics.exposition().decode())\n"


def run(code: str, directory) -> str:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "PROMETHEUS_MULTIPROC_DIR": str(directory),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_workers_counters_reach_the_scrape_of_a_web_process(tmp_path):
    need_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    run(COUNT, tmp_path)  # the "worker", gone when it is done
    text = run(SCRAPE, tmp_path)
    assert 'pbw_deliveries_total{channel="push",outcome="sent"} 3.0' in text
    assert 'pbw_outbox_due{channel="email"} 0.0' in text  # read from the database
