"""Parts of the board's side panel written out in Python rather than in the board
template, like the valley (``tal.valley``): the ones that repeat a form per action.

The markup is the template's, value for value, without the whitespace between tags
(the template's ``{% spaceless %}`` took it out); the sentences are the template's
(same message ids, extracted through ``_t`` and ``_plain``).
"""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString, mark_safe

from tal.valley import _e, _plain, _t


def bid_panel(group: dict[str, Any], act_url: str, token: str, csrf_input: str) -> SafeString:
    """A market group's bid buttons (``group["bid_acts"]``), one form each: in the
    bidding phase a dozen or more forms, each drawn anew on every move."""
    acts = group["bid_acts"]
    if not acts:
        return mark_safe("")
    url = _e(act_url)
    label = _t("Lay a tile on group %(n)s", n=group["group"])
    lay = _plain("Lay a tile")  # outside the f-string, where xgettext finds it
    out = [
        f'<div class="bid-panel" role="group" aria-label="{label}">'
        f'<span class="bid-label" aria-hidden="true">{lay}:</span>'
    ]
    form = (
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#board-area" '
        f'hx-swap="outerHTML">{csrf_input}<input type="hidden" name="action" value="'
    )
    version = f'"><input type="hidden" name="version" value="{_e(token)}">'
    for a in acts:
        encoded, text = _e(a["json"]), _e(a["label"])
        out.append(
            f'{form}{encoded}{version}<button class="bid-btn" data-act="{encoded}" '
            f'title="{text}"><span class="sr">{text}</span><span aria-hidden="true">'
            f"{_e(a['action']['rings'])}</span></button></form>"
        )
    out.append("</div>")
    return SafeString("".join(out))
