from tests.games.conftest import alice, bob, started  # noqa: F401
