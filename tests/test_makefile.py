"""`make test` (one of the README's two commands) fetches axe-core itself; `make run`
keeps a worker of both queues running (config/run_worker.sh)."""

import shutil
import subprocess
from pathlib import Path

from django.conf import settings

from tests.conftest import need_service

ROOT = Path(settings.BASE_DIR)


def test_make_test_installs_axe_core_when_package_json_changed():
    need_service(shutil.which("make") is not None, "make")
    plan = subprocess.run(
        ["make", "-n", "-W", "package.json", "test"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    npm = plan.index("npm install --no-audit --no-fund")
    assert npm < plan.index("-m pytest")


def test_make_reinstalls_when_the_site_requirements_change():
    # requirements.txt includes requirements/site.txt (the container image installs only
    # that one): a pin changed there must reach .venv too.
    need_service(shutil.which("make") is not None, "make")
    rules = subprocess.run(
        ["make", "-p", "-n", "-q", "--no-builtin-rules", "lint"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout
    stamp = next(line for line in rules.splitlines() if line.startswith(".venv/.installed:"))
    assert set(stamp.split(":", 1)[1].split()) >= {"requirements.txt", "requirements/site.txt"}


def test_make_run_supervises_a_worker_of_both_queues():
    need_service(shutil.which("make") is not None, "make")
    plan = subprocess.run(
        ["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    command = plan[plan.index("config/run_worker.sh") :]
    assert command.index("celery -A config worker") < command.index("& worker=$!")
    assert "-Q celery,pings" in command.split("& worker=$!")[0]
    assert "trap 'kill $worker" in plan
