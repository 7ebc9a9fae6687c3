"""Map data tables for King of Siam and King of Saba.

Each map is one :class:`MapData` value, so the real boards can replace the site's
reconstructions (see ``koenig-von-siam-boards.md``) without touching rules code.
Factions are indexed 0, 1, 2 in the order yellow, red, blue/green everywhere in the
engine; ids and display names come from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from enginekit import N_

YELLOW, RED, BLUE = 0, 1, 2
FACTIONS = (YELLOW, RED, BLUE)

# Card kinds (the rules of each card; the names differ per map).
KING = "king"  # Maharacha / Saba
FREE = "free"  # Khon Thai / Ityoppaya (two copies per set)
SWAP11 = "swap11"  # 1 vs 1
SWAP21 = "swap21"  # 2 vs 1
FACTION = "faction"  # Rama, Lao, Malai / Amhara, Tigray, Shewa

# Playing aids: aid number -> the two follower colours on it (ruling 1).
AIDS: dict[int, tuple[int, int]] = {1: (YELLOW, RED), 2: (RED, BLUE), 3: (BLUE, YELLOW)}


@dataclass(frozen=True)
class CardData:
    id: str
    name: str
    kind: str
    copies: int = 1
    faction: int | None = None  # for faction cards


@dataclass(frozen=True)
class ProvinceData:
    id: str
    name: str
    home_of: int | None  # faction index
    home_followers: int  # followers of the home faction at set-up
    random_followers: int  # followers drawn at random at set-up


@dataclass(frozen=True)
class MapData:
    id: str
    name: str  # the game's name on this map
    land: str  # the country being fought over
    faction_ids: tuple[str, str, str]
    faction_names: tuple[str, str, str]
    colours: tuple[str, str, str]
    invader_id: str
    invader_name: str
    provinces: tuple[ProvinceData, ...]
    adjacency: dict[str, tuple[str, ...]]
    cards: tuple[CardData, ...]

    def province_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.provinces)

    def home(self, faction: int) -> str:
        for p in self.provinces:
            if p.home_of == faction:
                return p.id
        raise KeyError(faction)


def _cards(
    king: tuple[str, str], free: tuple[str, str], fids: tuple[str, ...], fnames: tuple[str, ...]
) -> tuple[CardData, ...]:
    return (
        CardData(king[0], king[1], KING),
        CardData(free[0], free[1], FREE, copies=2),
        CardData("one_vs_one", "1 vs 1", SWAP11),
        CardData("two_vs_one", "2 vs 1", SWAP21),
    ) + tuple(CardData(fids[i], fnames[i], FACTION, faction=i) for i in FACTIONS)


_SIAM_FIDS = ("rama", "lao", "malai")
_SIAM_FNAMES = ("Rama", "Lao", "Malai")

SIAM = MapData(
    id="siam",
    name=N_("King of Siam"),
    land=N_("Siam"),
    faction_ids=_SIAM_FIDS,
    faction_names=_SIAM_FNAMES,
    colours=(N_("yellow"), N_("red"), N_("blue")),
    invader_id="british",
    invader_name=N_("British"),
    provinces=(
        ProvinceData("chiang_mai", "Chiang Mai", RED, 2, 2),
        ProvinceData("sukothai", "Sukothai", None, 0, 4),
        ProvinceData("korat", "Korat", None, 0, 4),
        ProvinceData("ubon", "Ubon", None, 0, 4),
        ProvinceData("bangkok", "Bangkok", YELLOW, 2, 2),
        ProvinceData("ratchaburi", "Ratchaburi", None, 0, 4),
        ProvinceData("nakhon_si_thammarat", "Nakhon Si Thammarat", None, 0, 4),
        ProvinceData("pattani", "Pattani", BLUE, 2, 2),
    ),
    adjacency={
        "chiang_mai": ("sukothai",),
        "sukothai": ("chiang_mai", "korat", "bangkok", "ratchaburi"),
        "korat": ("sukothai", "ubon", "bangkok"),
        "ubon": ("korat",),
        "bangkok": ("sukothai", "korat", "ratchaburi"),
        "ratchaburi": ("sukothai", "bangkok", "nakhon_si_thammarat"),
        "nakhon_si_thammarat": ("ratchaburi", "pattani"),
        "pattani": ("nakhon_si_thammarat",),
    },
    cards=_cards(
        ("maharacha", "Maharacha"),
        ("khon_thai", "Khon Thai"),
        _SIAM_FIDS,
        _SIAM_FNAMES,
    ),
)

_SABA_FIDS = ("amhara", "tigray", "shewa")
_SABA_FNAMES = ("Amhara", "Tigray", "Shewa")

SABA = MapData(
    id="saba",
    name=N_("King of Saba"),
    land=N_("Ethiopia"),
    faction_ids=_SABA_FIDS,
    faction_names=_SABA_FNAMES,
    colours=(N_("yellow"), N_("red"), N_("green")),
    invader_id="italians",
    invader_name=N_("Italians"),
    provinces=(
        ProvinceData("tigray", "Tigray", RED, 2, 2),
        ProvinceData("begemder", "Begemder", YELLOW, 2, 2),
        ProvinceData("gojjam", "Gojjam", None, 0, 4),
        ProvinceData("wollo", "Wollo", None, 0, 1),
        ProvinceData("shewa", "Shewa", BLUE, 1, 3),
        ProvinceData("herarghe", "Herarghe", None, 0, 1),
        ProvinceData("wollega", "Wollega", None, 0, 4),
        ProvinceData("sidamo", "Sidamo", None, 0, 4),
    ),
    adjacency={
        "tigray": ("begemder", "wollo"),
        "begemder": ("tigray", "wollo", "gojjam"),
        "gojjam": ("begemder", "wollo", "shewa", "wollega"),
        "wollo": ("tigray", "begemder", "gojjam", "shewa", "herarghe"),
        "shewa": ("wollo", "gojjam", "wollega", "herarghe", "sidamo"),
        "wollega": ("gojjam", "shewa", "sidamo"),
        "herarghe": ("wollo", "shewa", "sidamo"),
        "sidamo": ("shewa", "wollega", "herarghe"),
    },
    cards=_cards(
        ("saba", "Saba"),
        ("ityoppaya", "Ityoppaya"),
        _SABA_FIDS,
        _SABA_FNAMES,
    ),
)

MAPS: dict[str, MapData] = {"siam": SIAM, "saba": SABA}

TOTAL_FOLLOWERS = 54
FOLLOWERS_PER_COLOUR = 18
KING_MARKERS = 4
INVADER_LIMIT = 4  # the invaders win at once with this many provinces
