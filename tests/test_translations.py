"""The German catalogue is kept complete: every visible string has a translation."""

import gettext
import io
import shutil
import subprocess
from pathlib import Path

from django.conf import settings as django_settings
from django.core.management import call_command

from tests.conftest import need_service

ROOT = Path(django_settings.BASE_DIR)


def test_german_catalogue_covers_every_string(tmp_path, settings, monkeypatch):
    tools = all(shutil.which(t) for t in ("xgettext", "msgmerge", "msgattrib"))
    need_service(tools, "gettext tools (xgettext, msgmerge, msgattrib)")
    # makemessages writes beside the sources it reads, so it runs on a copy.
    skip = shutil.ignore_patterns(
        ".*", "node_modules", "staticfiles", "test-artifacts", "*.sqlite3*"
    )
    shutil.copytree(ROOT, tmp_path, ignore=skip, dirs_exist_ok=True)
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)
    call_command(
        "makemessages",
        locale=["de"],
        ignore_patterns=["tests", "bench"],
        verbosity=0,
    )
    po = tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.po"
    missing = []
    for flag in ("--untranslated", "--only-fuzzy"):
        out = subprocess.run(
            ["msgattrib", flag, "--no-wrap", str(po)], capture_output=True, text=True, check=True
        ).stdout
        missing += [
            line for line in out.splitlines() if line.startswith("msgid ") and line != 'msgid ""'
        ]
    assert not missing, "Strings without a German translation (run `make messages`):\n" + "\n".join(
        missing
    )
    # A translated string the extraction no longer finds would be dropped from the
    # compiled catalogue: a sentence the code still shows, in English on German pages.
    committed = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
    lost = sorted(_obsolete(po) - _obsolete(committed))
    assert not lost, "Translations no source string asks for any more:\n" + "\n".join(lost)


def _obsolete(po: Path) -> set[str]:
    out = subprocess.run(
        ["msgattrib", "--only-obsolete", "--no-wrap", str(po)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {
        line for line in out.splitlines() if line.startswith("#~ msgid ") and line != '#~ msgid ""'
    }


def test_compiled_catalogue_is_up_to_date():
    po = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
    mo = po.with_suffix(".mo")
    assert mo.exists() and mo.stat().st_size > 0
    need_service(bool(shutil.which("msgfmt")), "gettext tools (msgfmt)")
    fresh = subprocess.run(["msgfmt", "-o", "-", str(po)], capture_output=True, check=True).stdout
    assert _catalogue(fresh) == _catalogue(mo.read_bytes()), "django.mo is stale: `make messages`"


def _catalogue(mo: bytes) -> dict:
    return dict(gettext.GNUTranslations(io.BytesIO(mo))._catalog)
