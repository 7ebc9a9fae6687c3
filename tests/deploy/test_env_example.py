"""deploy/.env.example documents every setting the site reads from the environment."""

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# env.str("NAME", ...), env.int(...), env.db(...), env.email_url(...): django-environ's
# readers; os.environ.get("NAME") for anything read without it.
READ = re.compile(
    r'\benv(?:\.[a-z_]+)?\(\s*"([A-Z][A-Z0-9_]*)"|os\.environ\.get\(\s*"([A-Z][A-Z0-9_]*)"'
)
# Not settings: what the test runner sets for its own processes.
NOT_SETTINGS = {"PYTEST_XDIST_WORKER"}


def names_read(source: str) -> set[str]:
    return {a or b for a, b in READ.findall(source)} - NOT_SETTINGS


def names_documented(example: str) -> set[str]:
    return set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", example, re.MULTILINE))


def test_the_reader_finds_each_kind_of_setting():
    source = 'A = env.bool("DEBUG", default=True)\nB = env("PLAIN")\nC = env.db("DATABASE_URL")'
    assert names_read(source) == {"DEBUG", "PLAIN", "DATABASE_URL"}


def test_every_setting_read_is_in_env_example():
    read = names_read((ROOT / "config" / "settings.py").read_text())
    documented = names_documented((ROOT / "deploy" / ".env.example").read_text())
    assert "SECRET_KEY" in read and "DATABASE_URL" in read
    assert sorted(read - documented) == []
