"""Playwright (sync API) in Debian's Chromium against pytest-django's live server."""

import json
import os
from pathlib import Path

import pytest

from tests.conftest import need_service

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests
# make between clicks are still plain synchronous calls.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def browser():
    need_service(os.path.exists(CHROMIUM), "Chromium (/usr/bin/chromium)")
    need_service(AXE.exists(), "axe-core (npm install)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


@pytest.fixture
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def login(browser, live_server):
    """A new browser context signed in as ``user`` (through a session cookie)."""
    from django.conf import settings
    from django.test import Client

    contexts = []

    def open_as(user, width=1280, height=900):
        client = Client()
        client.force_login(user)
        context = browser.new_context(viewport={"width": width, "height": height})
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        contexts.append(context)
        page = context.new_page()
        watch_csp(page)
        return page

    yield open_as
    for context in contexts:
        context.close()
    assert not CSP_VIOLATIONS, CSP_VIOLATIONS


CSP_VIOLATIONS: list[str] = []


def watch_csp(page):
    """Collect what the Content-Security-Policy blocked (Chromium reports it on the console)."""
    CSP_VIOLATIONS.clear()

    def seen(message):
        if "Content Security Policy" in message.text:
            CSP_VIOLATIONS.append(f"{page.url}: {message.text}")

    page.on("console", seen)


def axe_violations(page, impacts=("serious", "critical")):
    """Run axe-core on the page; the violations of the given impacts."""
    # Evaluated through the DevTools protocol: a script tag would be inline
    # script, which the site's CSP (rightly) refuses.
    page.evaluate(AXE.read_text())
    result = page.evaluate("async () => await axe.run(document)")
    return [v for v in result["violations"] if v.get("impact") in impacts]


def check_axe(page, where):
    """Fail with a readable list if axe-core finds serious or critical problems."""
    violations = axe_violations(page)
    details = [
        (v["id"], v["impact"], [(n["target"], n["html"][:300]) for n in v["nodes"][:3]])
        for v in violations
    ]
    assert not violations, f"{where}: {json.dumps(details, indent=1)}"
