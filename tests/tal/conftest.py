"""The engine tests need no Django: neutralise the site-wide autouse fixture that asks
pytest-django for ``settings``, so ``pytest -p no:django tests/tal`` runs."""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing():
    yield
