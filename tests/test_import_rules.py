"""The floors of the house (docs/architecture.md), read from the code's own imports.

The contracts live in pyproject.toml (``[tool.importlinter]``), where ``lint-imports``
(``make lint``) reads them too. An import inside a function counts like one at the top
of a module: a lazy import is still a dependency.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

importlinter = pytest.importorskip("importlinter")

from importlinter import configuration  # noqa: E402
from importlinter.adapters.building import GraphBuilder  # noqa: E402
from importlinter.application import use_cases  # noqa: E402
from importlinter.application.app_config import settings  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = str(ROOT / "pyproject.toml")


class _WithImport(GraphBuilder):
    """The real graph, plus imports the code does not have (to show a contract bites)."""

    def __init__(self, extra: list[tuple[str, str]]) -> None:
        self.extra = extra

    def build(self, *args, **kwargs):
        graph = super().build(*args, **kwargs)
        for importer, imported in self.extra:
            graph.add_import(importer=importer, imported=imported)
        return graph


def _broken(extra: list[tuple[str, str]] | None = None) -> dict[str, list]:
    """The broken contracts (id: what broke them), checking the project's own code."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    configuration.configure()
    if extra:
        settings.configure(GRAPH_BUILDER=_WithImport(extra))
    try:
        use_cases._register_built_in_contract_types()  # what lint_imports does first
        options = use_cases.read_user_options(PYPROJECT)
        report = use_cases.create_report(options, cache_dir=None)
    finally:
        configuration.configure()
    return {
        contract.contract_options["id"]: check.metadata
        for contract, check in report.get_contracts_and_checks()
        if not check.kept
    }


def test_every_import_keeps_the_floors_the_walls_and_has_no_circle():
    assert _broken() == {}


@pytest.mark.parametrize(
    "importer, imported, rules",
    [
        ("games.views", "lobby.views", {"frame", "floors"}),  # up to a feature app
        ("games.pagecache", "community.models", {"frame", "floors"}),
        ("games.lists", "moderation.confirm", {"frame", "floors"}),
        # The bots are a floor below, but a game is played by the engines alone: the
        # frame seats computers only through games.extend (botplay registers them).
        ("games.play", "bots", {"frame"}),
    ],
)
def test_an_upward_import_into_the_frame_breaks_the_rules(importer, imported, rules):
    assert set(_broken([(importer, imported)])) == rules


def test_an_engine_importing_django_breaks_the_rules():
    assert "pure" in _broken([("tal.engine.view", "django.utils.html")])


def test_a_feature_app_importing_another_on_its_floor_breaks_the_rules():
    assert "floors" in _broken([("lobby.views", "community.rematch")])


@pytest.mark.parametrize(
    "importer, imported",
    [
        ("notify.outbox", "notify.tasks"),  # the circle the outbox had
        ("tal.engine.view", "tal.engine.engine"),
        ("games.replay", "games.play"),
        ("bots.mcts", "bots.play"),  # the bots' old circle
    ],
)
def test_an_import_circle_inside_a_package_breaks_the_rules(importer, imported):
    assert "circles" in _broken([(importer, imported)])
