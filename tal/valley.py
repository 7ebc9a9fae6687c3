"""The valley (the SVG drawing of the board) as markup, from ``tal.drawing.draw``'s data.

Written out in Python rather than in the board template: the drawing has a
thousand or so values in it (coordinates, ids, labels), and the template engine
spent more time on them than the rest of the page together, on every move's
answer and every first look at a new position. The markup is the same the
template wrote, value for value: numbers are written as Python writes them
(never in a locale's spelling: they are coordinates), text is escaped, and the
translated sentences are the template's (same message ids).

The links in it post to "act", relative to the game's pages (/g/<id>/...): the
many targets stay small.
"""

from __future__ import annotations

import html
from contextvars import ContextVar
from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.text import word_in, words_memo

# The translations of the drawing being written (games.text.words_memo): a few
# sentences, asked for once per target, stone and site (hundreds a drawing).
_WORDS: ContextVar[dict | None] = ContextVar("tal_valley_words", default=None)


def _e(value: Any) -> str:
    """A value as ``{{ value }}`` writes it: escaped, unless marked safe."""
    # A thousand calls a drawing, most of them numbers: the common kinds go
    # straight to what conditional_escape would end up doing with them.
    kind = type(value)
    if kind is int or kind is float:
        return str(value)
    if kind is str:
        return html.escape(value)
    return str(conditional_escape(value))


def _t(message: str, **values: Any) -> str:
    """A translated sentence with values put in, as ``{% blocktranslate %}`` does:
    the values escaped, the sentence not."""
    memo = _WORDS.get()
    text = _(message) if memo is None else word_in(memo, message)
    return text % {k: _e(v) for k, v in values.items()} if values else text


def _plain(message: str) -> str:
    """As ``{% translate "..." %}`` writes it: translated (a literal of the
    template's own, not escaped)."""
    memo = _WORDS.get()
    return _(message) if memo is None else word_in(memo, message)


def render(b: dict[str, Any], board_url: str, act_url: str = "act") -> SafeString:
    """The ``<svg>`` of the valley for the board ``b`` (``tal.board.build``); its actions
    post to ``act_url`` (the game's, relative to its page, or the planning board's)."""
    token = _WORDS.set(words_memo())
    try:
        return _render(b, board_url, act_url)
    finally:
        _WORDS.reset(token)


def _render(b: dict[str, Any], board_url: str, act_url: str) -> SafeString:
    d = b["d"]
    out: list[str] = []
    w = out.append
    w(
        f'<svg class="valley tap-{_e(d["tap"])}" viewBox="0 0 {d["width"]} {d["height"]}" '
        f'role="group" aria-labelledby="tal-valley-title" hx-target="#board-area" '
        f"hx-swap=\"outerHTML\" hx-vals='{_e(b['root_vals'])}'>"
    )
    w(
        '<title id="tal-valley-title">'
        + _plain("The valley: seven areas, fifteen building sites and the Pharaoh pyramid")
        + "</title>"
    )
    _defs(d, w)
    w(f'<polygon points="{_e(d["outline"])}" class="outline"/>')
    for a in d["areas"]:
        title = _t(
            "Area %(n)s, next to areas %(list)s",
            n=a["area"],
            list=mark_safe(", ".join(_e(n) for n in a["neighbours"])),
        )
        w(
            f'<polygon points="{_e(a["points"])}" class="area a{_e(a["area"])}">'
            f"<title>{title}</title></polygon>"
        )
    w(f'<polygon points="{_e(d["inner"])}" class="inner"/>')
    for a in d["areas"]:
        w(f'<text class="area-no" x="{_e(a["lx"])}" y="{_e(a["ly"])}">{_e(a["area"])}</text>')
    for g in d["gates"]:
        title = _t("Areas %(a)s and %(b)s are connected (1 step)", a=g["a"], b=g["b"])
        w(
            f'<g class="gate-mark"><title>{title}</title>'
            f'<circle cx="{_e(g["x"])}" cy="{_e(g["y"])}" r="11" class="gate"/>'
            f'<text x="{_e(g["x"])}" y="{_e(g["y"] + 5)}" class="gate-t">&#8596;</text></g>'
        )
    _pharaoh(d["pharaoh"], w)
    for s in d["sites"]:
        _site(s, d, board_url, act_url, w)
    for a in d["areas"]:
        if a["target"]:
            _target(a["target"], d, act_url, w)
        for t in a["tokens"]:
            _token(t, board_url, w)
    for p in d["arrows"]:
        title = _t("Your plan: overseer %(n)s to %(to)s", n=p["number"], to=p["to"])
        w(
            f'<line x1="{_e(p["x1"])}" y1="{_e(p["y1"])}" x2="{_e(p["x2"])}" y2="{_e(p["y2"])}" '
            f'class="plan-arrow" marker-end="url(#tal-arrow)"><title>{title}</title></line>'
        )
    w("</svg>")
    return mark_safe("".join(out))


def _defs(d: dict[str, Any], w: Any) -> None:
    stone, field = _e(d["stone"]), _e(d["field"])
    mid, base = _e(d["stone_mid"]), _e(d["stone_base"])
    w(
        '<defs><pattern id="tal-out" width="10" height="10" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="10" height="10" class="out-bg"/>'
        '<line x1="0" y1="0" x2="0" y2="10" class="out-line"/></pattern>'
        '<pattern id="tal-hid" width="5" height="5" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="5" class="hid-line"/>'
        f'</pattern><rect id="tf" width="{field}" height="{field}" rx="4"/>'
    )
    # presentation attributes, not CSS: what a <use> copies is not matched by the
    # page's selectors
    for letters in d["letter_sets"]:
        w(f'<g id="{_e(letters["id"])}" font-size="10" fill="#6b5a2e" pointer-events="none">')
        for ch, x, y in letters["letters"]:
            w(f'<text x="{_e(x)}" y="{_e(y)}">{_e(ch)}</text>')
        w("</g>")
    # Each number twice: small in the field's corner, and large in its middle (.valley-n:
    # a selector of its own, matched in the <use>'s copy as no descendant selector is) for
    # the whole valley on a phone (board.css). What a <use> shows is switched by what it
    # passes on: its font-size (the large number has none of its own: 0 hides it) and
    # its visibility (hidden there for the small number; the field and the large number
    # keep their own).
    half = d["field"] // 2
    big = f'<text class="valley-n" x="{_e(half)}" y="{_e(half + d["whole_drop"])}">'
    for n in d["step_numbers"]:
        w(
            f'<g id="n{_e(n)}" class="tgt-field"><use href="#tf" visibility="visible"/>'
            f'<text x="{_e(d["field"] - 3)}" y="13" font-size="13" font-weight="bold" '
            'fill="#0b57d0" text-anchor="end" stroke="#fff" stroke-width="3" '
            f'paint-order="stroke">{_e(n)}</text>{big}{_e(n)}</text></g>'
        )
    # A target over a figure: its number in a badge on the field's top edge, off the
    # figure, which stays readable under the target; the badge keeps (nearly) within
    # the field's width, so that it never reaches a neighbour's tap target.
    bx = _e(d["field"] - 5)
    for n in d["over_numbers"]:
        w(
            f'<g id="o{_e(n)}"><use href="#tf" fill="#cfdcf3" fill-opacity="0.15" '
            f'visibility="visible"/>{big}{_e(n)}</text>'
            f'<circle cx="{bx}" cy="-2" r="8" fill="#fff" stroke-width="2" '
            f'stroke-dasharray="none"/><text x="{bx}" y="2.5" font-size="12" font-weight="bold" '
            f'fill="#0b57d0" stroke="none" text-anchor="middle">{_e(n)}</text></g>'
        )
    for c in d["looks"]:
        w(
            f'<g id="t-{_e(c["id"])}"><rect width="{stone}" height="{stone}" '
            f'fill="{_e(c["fill"])}" stroke="#333"/><text x="{mid}" y="{base}" '
            f'fill="{_e(c["ink"])}" font-size="13" '
            f'font-weight="bold" text-anchor="middle">{_e(c["initial"])}</text></g>'
        )
    w(
        f'<rect id="t-e" width="{stone}" height="{stone}" fill="#efe6cc" stroke="#b3a57c" '
        'stroke-dasharray="2 2"/>'
    )
    for e in d["empty_levels"]:
        w(f'<g id="t-E{_e(e["side"])}">')
        for x, y in e["cells"]:
            w(f'<use href="#t-e" x="{_e(x)}" y="{_e(y)}"/>')
        w("</g>")
    big = _e(d["stone"] + 4)
    w(
        f'<g id="t-b"><rect width="{stone}" height="{stone}" fill="#e8f0fe" stroke="#0b57d0" '
        f'stroke-width="2"/><text x="{mid}" y="{base}" fill="#0b57d0" font-size="15" '
        'font-weight="bold" text-anchor="middle">+</text></g>'
        f'<rect id="t-h" width="{stone}" height="{stone}" fill="url(#tal-hid)" stroke="#fff" '
        'stroke-width="2" stroke-dasharray="3 2"/>'
        f'<rect id="t-r" width="{stone}" height="{stone}" fill="none" stroke="#0b57d0" '
        'stroke-width="3"/>'
        f'<rect id="t-c" x="-2" y="-2" width="{big}" height="{big}" fill="#ffe08a" '
        'fill-opacity="0.5" stroke="#a15c00" stroke-width="4"/>'
        f'<rect id="tp" width="{_e(d["ph_stone"])}" height="{_e(d["ph_stone"])}"/>'
        '<marker id="tal-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 Z" '
        'class="arrow-head"/></marker></defs>'
    )


def _pharaoh(ph: dict[str, Any], w: Any) -> None:
    label = _t("Pharaoh pyramid: %(n)s of %(cap)s stones", n=ph["count"], cap=ph["capacity"])
    w(f'<g class="pharaoh" role="img" aria-label="{label}">')
    for p in ph["slots"]:
        look = "ph-full" if p["full"] else "ph-empty"
        w(f'<use href="#tp" x="{_e(p["x"])}" y="{_e(p["y"])}" class="{look}"/>')
    text = _t("Pharaoh: %(n)s/%(cap)s", n=ph["count"], cap=ph["capacity"])
    w(f'<text x="{_e(ph["x"])}" y="{_e(ph["y"])}" class="ph-label">{text}</text></g>')


def _site(s: dict[str, Any], d: dict[str, Any], board_url: str, act_url: str, w: Any) -> None:
    classes = f"site {_e(s['size'])}"
    if not s["in_play"]:
        classes += " out"
    if s["owner"] is not None:
        classes += f" owned o{_e(s['owner'])}"
    if s["finished"]:
        classes += " finished"
    title = _t("Site %(n)s", n=s["site"]) + ": "
    if not s["in_play"]:
        title += _plain("not in play")
    else:
        title += _e(s["owner_name"]) if s["owner"] is not None else _plain("unclaimed")
        title += ", " + _t("%(n)s/%(cap)s stones", n=s["stones"], cap=s["capacity"])
        if s["finished"]:
            title += f", {_e(s['type'])}: {_e(s['points'])}"
        else:
            title += ", " + _t("at best %(n)s (%(type)s)", n=s["best"], type=s["best_type"])
    x, y = s["x"], s["y"]
    box = (
        f'x="{_e(x - 3)}" y="{_e(y - 3)}" width="{_e(s["w"] + 6)}" height="{_e(s["h"] + 6)}" rx="8"'
    )
    w(f'<g class="{classes}" id="tal-site-{_e(s["site"])}"><title>{title}</title>')
    w(f'<rect {box} class="site-bg"/>')
    if not s["in_play"]:
        # Hatched, without a word on it (a word ran over the fields and figures): the
        # legend says what the hatching means, the site's title says it too.
        w(f'<rect {box} class="cover"/>')
    w('<g class="fld">')
    for f in s["fields"]:
        if f["target"] and not f["token"]:
            _target(f["target"], d, act_url, w)
        else:
            w(f'<use href="#tf" x="{_e(f["x"])}" y="{_e(f["y"])}"/>')
    w("</g>")
    w(f'<use href="#{_e(s["letters"])}" x="{_e(x)}" y="{_e(y)}" pointer-events="none"/>')
    for f in s["fields"]:
        if f["token"]:
            _token(f["token"], board_url, w)
    for f in s["fields"]:
        if f["token"] and f["target"]:
            _target(f["target"], d, act_url, w)
    nx, ny = s["nx"], s["ny"]
    if s["in_play"]:
        chosen = (d["build_choice"] or {}).get("key")
        for lv in s["levels"]:
            w(f'<use href="#t-E{_e(lv["side"])}" x="{_e(lv["x"])}" y="{_e(lv["y"])}"/>')
            for k in lv["slots"]:
                if k["steal"]:
                    steal = k["steal"]
                    w(
                        f'<a class="act steal" href="#ta{_e(steal["index"])}" '
                        f'hx-post="{_e(act_url)}" '
                        f"hx-vals='{_e(steal['av'])}' aria-label=\"{_e(steal['label'])}\">"
                    )
                    _stone(k, chosen, w)
                    w("</a>")
                elif k["build_key"]:
                    label = _t(
                        "Choose site %(site)s, level %(lv)s, position %(n)s to build on",
                        site=s["site"],
                        lv=lv["level"],
                        n=k["position"],
                    )
                    key = _e(k["build_key"])
                    picked = " chosen" if chosen == k["build_key"] else ""
                    w(
                        f'<a class="pickslot{picked}" href="?slot={key}" '
                        f'hx-get="{_e(board_url)}?slot={key}" aria-label="{label}">'
                    )
                    _stone(k, chosen, w)
                    w("</a>")
                elif k["colour"] or k["hidden"]:
                    _stone(k, chosen, w)
        w(f'<text x="{_e(nx)}" y="{_e(ny + 14)}" class="site-no">{_e(s["site"])}</text>')
        if s["owner"] is not None:
            w(
                f'<g class="scarab o{_e(s["owner"])}"><ellipse cx="{_e(nx + 10)}" '
                f'cy="{_e(ny + 30)}" rx="11" ry="9"/><text x="{_e(nx + 10)}" '
                f'y="{_e(ny + 35)}">{_e(s["owner_initial"])}</text></g>'
            )
        if s["finished"]:
            w(f'<text x="{_e(nx)}" y="{_e(ny + 58)}" class="site-pts">{_e(s["points"])}</text>')
        if s["takeover"]:
            t = s["takeover"]
            label = _plain("Take over")  # outside the f-string, where xgettext finds it
            w(
                f'<a class="act takeover" href="#ta{_e(t["index"])}" hx-post="{_e(act_url)}" '
                f"hx-vals='{_e(t['av'])}' aria-label=\"{_e(t['label'])}\">"
                f'<rect x="{_e(x)}" y="{_e(y - 26)}" width="{_e(s["w"])}" height="22" rx="6"/>'
                f'<text x="{_e(x + 6)}" y="{_e(y - 10)}">{label}</text></a>'
            )
    else:
        w(f'<text x="{_e(nx)}" y="{_e(ny + 14)}" class="site-no">{_e(s["site"])}</text>')
    w("</g>")


def _stone(k: dict[str, Any], chosen: Any, w: Any) -> None:
    if k["colour"]:
        look = _e(k["colour"]["id"])
    elif k["build_key"]:
        look = "b"
    else:
        look = "e"
    at = f'x="{_e(k["x"])}" y="{_e(k["y"])}"'
    w(f'<use href="#t-{look}" {at}/>')
    if k["hidden"]:
        title = _plain("hidden centre stone: its colour never counts")
        w(f'<use href="#t-h" {at}><title>{title}</title></use>')
    if k["steal"]:
        w(f'<use href="#t-r" {at}/>')
    elif k["build_key"] and chosen == k["build_key"]:
        w(f'<use href="#t-c" {at}/>')


def _token(t: dict[str, Any], board_url: str, w: Any) -> None:
    classes = f"tok s{_e(t['seat'])}"
    if t["chosen"]:
        classes += " chosen"
    if t["big"]:
        classes += " big"
    w(f'<g class="{classes}"><title>{_e(t["title"])}</title>')
    if t["kind"] == "overseer":
        w(f'<polygon points="{_e(t["diamond"])}"/>')
    else:
        w(f'<circle cx="{_e(t["cx"])}" cy="{_e(t["cy"])}" r="{_e(t["r"])}"/>')
    w(f'<text x="{_e(t["cx"])}" y="{_e(t["cy"] + 5)}">{_e(t["initial"])}</text></g>')
    if t["pick"]:
        key = _e(t["key"])
        label = _t("Choose %(fig)s", fig=t["title"])
        hx, hy, side = (_e(v) for v in t["hit"])
        w(
            f'<a class="pickfig" href="?fig={key}" hx-get="{_e(board_url)}?fig={key}" '
            f'aria-label="{label}"><rect x="{hx}" y="{hy}" width="{side}" height="{side}" '
            'class="hit"/></a>'
        )


def _target(t: dict[str, Any], d: dict[str, Any], act_url: str, w: Any) -> None:
    label = _t("to %(to)s, %(n)s left", to=t["action"]["to"], n=t["left"])
    w(
        f'<a class="tgt" href="#ta{_e(t["index"])}" hx-post="{_e(act_url)}" '
        f"hx-vals='{_e(t['av'])}' "
        f'aria-label="{label}">'
    )
    x, y, size, left = _e(t["x"]), _e(t["y"]), _e(t["size"]), _e(t["left"])
    if t["size"] > d["field"]:
        w(
            f'<rect x="{x}" y="{y}" width="{size}" height="{_e(t["height"])}" rx="5"/>'
            f'<text class="tn" x="{_e(t["tx"])}" y="{_e(t["ty"])}">{left}</text>'
        )
        # the number as the whole valley on a phone shows it (board.css)
        w(f'<text class="wn" x="{_e(t["wx"])}" y="{_e(t["wy"])}">{left}</text>')
    elif t["over"]:
        w(f'<use href="#o{left}" x="{x}" y="{y}"/>')
    else:
        w(f'<use href="#n{left}" x="{x}" y="{y}"/>')
    w("</a>")
