"""Following the archive's pager links, as a reader clicks them."""

import html
import re


def link(page: str, rel: str) -> str | None:
    """The address of the page's ``rel`` ("next", "prev") link, or None."""
    found = re.search(rf'<a rel="{rel}" href="([^"]+)"', page)
    return "/archive/" + html.unescape(found[1]) if found else None
