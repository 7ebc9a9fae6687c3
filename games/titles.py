"""The names players know games by: a kind, or one variant of a kind (King of Saba is
King of Siam on another map). The lobby's filter and the archive's search offer them."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext

from . import registry


@dataclass(frozen=True)
class Title:
    """One name players know a game by: a kind, or one variant of a kind (King of Saba)."""

    key: str
    name: str
    games: Q


def titles() -> list[Title]:
    """Each kind without variants, and each variant of a kind that has them."""
    found = []
    for kind in registry.kinds():
        variants = variants_of(kind)
        if not variants:
            found.append(Title(kind.slug, gettext(kind.name), Q(kind=kind.slug)))
        found.extend(variants)
    return found


def variants_of(kind: registry.GameKind) -> list[Title]:
    """The variants of ``kind`` by the option that gives a game its own name (the map of
    King of Siam), keyed ``<kind>.<value>``; none when no option does."""
    found = []
    for option, value, name, default in _variants(kind.engine):
        chosen = Q(**{f"options__{option}": value})
        if default:  # a game made before the option existed played the default
            chosen |= ~Q(options__has_key=option)
        found.append(Title(f"{kind.slug}.{value}", gettext(name), Q(kind=kind.slug) & chosen))
    return found


def _variants(engine) -> list[tuple[str, str, str, bool]]:
    variant_name = getattr(engine, "variant_name", None)
    if variant_name is None:
        return []
    for spec in engine.options_schema():
        if spec["type"] != "choice":
            continue
        names = [(value, variant_name({spec["name"]: value})) for value, _text in spec["choices"]]
        if len({name for _value, name in names}) > 1:
            default = spec.get("default")
            return [(spec["name"], value, name, value == default) for value, name in names]
    return []
