"""The time zones a player chooses from: canonical IANA zones, no aliases.

``zoneinfo.available_timezones()`` lists every name the database knows,
links included ("US/Eastern", "Asia/Calcutta", "localtime", "Etc/GMT+5"),
about 600 of them. The database's own source (``tzdata.zi``) tells zones
("Z" lines) from links ("L" lines); only zones in a region are offered.
"""

import functools
import zoneinfo
from importlib import resources
from pathlib import Path

REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)


def _source(name: str) -> str:
    try:
        return resources.files("tzdata").joinpath("zoneinfo", name).read_text()
    except (ModuleNotFoundError, FileNotFoundError):
        pass
    for folder in zoneinfo.TZPATH:
        path = Path(folder) / name
        if path.exists():
            return path.read_text()
    return ""


@functools.cache
def canonical() -> list[str]:
    """The canonical zones, sorted, with UTC first.

    zone.tab adds the country zones that newer releases merged into a
    neighbour's (Europe/Amsterdam): a browser in Amsterdam still says so.
    """
    names = {line.split()[1] for line in _source("tzdata.zi").splitlines() if line[:2] == "Z "}
    names |= {
        line.split("\t")[2]
        for line in _source("zone.tab").splitlines()
        if line and not line.startswith("#")
    }
    if not names:
        names = zoneinfo.available_timezones()  # no source to read: at least drop the odd ones
    known = zoneinfo.available_timezones()
    zones = sorted(n for n in names if n.split("/")[0] in REGIONS and "/" in n and n in known)
    return ["UTC", *zones]


def choices() -> list[tuple[str, str]]:
    return [(zone, zone.replace("_", " ")) for zone in canonical()]
