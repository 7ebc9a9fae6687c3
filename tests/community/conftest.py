from tests.games.conftest import alice, bob, started  # noqa: F401  (shared game fixtures)
