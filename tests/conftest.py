import os

import pytest

# Set by CI: a test that needs a real server fails instead of skipping.
REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"


def need_service(available: bool, what: str) -> None:
    if available:
        return
    if REQUIRE_SERVICES:
        pytest.fail(f"{what} is required (REQUIRE_SERVICES=1) but not configured")
    pytest.skip(f"{what} not configured")


@pytest.fixture
def count_kind():
    from games import registry

    from .fake_engine import ENGINE

    registry.register(ENGINE)  # the generic board
    yield registry.get("count")
    registry.unregister("count")


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    # Real hashers take ~0.3 s per password; tests need no strength. The engine
    # tests may run without the Django plugin (-p no:django), hence the check.
    if request.config.pluginmanager.hasplugin("django"):
        settings = request.getfixturevalue("settings")
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _check_page_cache(request):
    # Every cached game page any test loads twice is compared with a fresh render:
    # a page input missing from games.pagecache's key fails that test.
    if request.config.pluginmanager.hasplugin("django"):
        request.getfixturevalue("settings").PAGE_CACHE_CHECK = True


@pytest.fixture(autouse=True)
def _celery_eager(request):
    # Unit tests run tasks in-process, even where REDIS_URL names a broker;
    # the real-worker tests switch this off for themselves.
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture(autouse=True)
def _clear_cache():
    try:
        from django.core.cache import cache

        cache.clear()
    except Exception:  # engine tests run without Django settings
        pass
    yield


@pytest.fixture
def users(db):
    """Three players with readable names, for the board tests."""
    from tests.factories import UserFactory

    return [
        UserFactory(username="anna", display_name="Anna"),
        UserFactory(username="ben", display_name="Ben"),
        UserFactory(username="cleo", display_name="Cleo"),
    ]


@pytest.fixture(autouse=True)
def _site_language(request):
    # A request in German leaves German active in this thread (LocaleMiddleware does not
    # switch back): each test starts in the site's default language, whatever ran before.
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.utils import translation

    translation.deactivate()
    yield
