"""`make test` (one of the README's two commands) fetches axe-core itself."""

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
