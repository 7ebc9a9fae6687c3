"""The Jinja2 environment the titles' board templates are written for.

A board is drawn anew on every move: nobody has seen the new position yet, so no cache
can serve the mover's answer. Django's template engine walks its node tree for each of
a board's hundreds of values (the King of Siam map alone: over a thousand nodes, 14 ms
of a 33 ms move in ``bench/move_parts.py``); Jinja2 compiles a template to Python once
and draws the same board in a fraction of that (``docs/performance.md``). The rest of
the site stays with Django's templates and django-template-partials; a board template
is found by its name like any other (``manage.py check`` looks for it) and drawn in the
game page's ``{% board %}`` (``games_tags``) with the page's context.

What a board template has, beside the page's context (``view``, ``page``, ``game``,
``player_names``, ``request``, ``csrf_token``):

- translations as in Django's templates, with the same message ids:
  ``{{ _("Your turn") }}``, ``{{ _("Round %(n)s", n=b.round) }}`` (the values escaped,
  the sentence not, as ``{% blocktranslate %}``), ``{{ ngettext("%(n)s point",
  "%(n)s points", count, n=count) }}``, ``pgettext``; ``make messages`` collects them
  (``games/management/commands/makemessages.py``);
- ``board_route("act")`` and ``board_route("board")``: where the board's controls post and
  its choices are drawn, the game's or, on the planning board, the queue's (a board
  names no route itself, so the same drawing serves both);
- ``url(name, *args)``, ``static(path)``, ``message(engine_message)`` (an engine
  message in the viewer's words, as ``{% message %}``), ``csrf_input()`` (the form
  field ``{% csrf_token %}`` writes);
- the filters ``spaceless`` (``{% filter spaceless %}``, as ``{% spaceless %}``) and
  ``as_json``;
- what the titles add with ``add_globals`` in their ``AppConfig.ready`` (the board
  prepared from the view: ``{% set b = tal_board() %}``).

As in Django's templates, ``x.name`` of a dict reads its key first (a board is dicts
of dicts: ``b.bag.count`` is the key "count", and no exception is raised and caught
for each of a thousand lookups, as Jinja2's attribute-first order would), and
undefined values draw as nothing, their attributes undefined too
(``ChainableUndefined``).
"""

from __future__ import annotations

import weakref
from typing import Any

import jinja2
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html, strip_spaces_between_tags
from django.utils.translation import ngettext, npgettext, pgettext
from markupsafe import Markup

from . import text
from .actions import compact_json

# What the titles add (add_globals), and the environments made so far, which get them too.
_added: dict[str, Any] = {}
_environments: weakref.WeakSet = weakref.WeakSet()


def add_globals(**functions: Any) -> None:
    """Names a title's board templates call (in its ``AppConfig.ready``)."""
    _added.update(functions)
    for env in _environments:
        env.globals.update(functions)


class BoardEnvironment(jinja2.Environment):
    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute``: the key of a dict first (see the module docstring)."""
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options: Any) -> jinja2.Environment:
    """The environment of the ``jinja2`` template backend (``TEMPLATES`` in settings)."""
    options["undefined"] = jinja2.ChainableUndefined
    env = BoardEnvironment(extensions=["jinja2.ext.i18n"], **options)
    env.newstyle_gettext = True  # {% trans %} calls gettext(message, **values) as _() does
    env.globals.update(
        _=translate,
        gettext=translate,
        ngettext=translate_plural,
        pgettext=translate_in,
        npgettext=translate_plural_in,
        url=url,
        static=static,
        message=message,
        csrf_input=csrf_input,
        board_route=board_route,
        **_added,
    )
    env.filters.update(spaceless=spaceless, as_json=compact_json)
    _environments.add(env)
    return env


# The routes a board's controls post to ("act") and its choices are drawn by ("board"):
# the game's, or on the planning board the queue's (games.premoves).
BOARD_ROUTES = {
    ("act", False): "game_act",
    ("board", False): "game_board",
    ("act", True): "game_premove",
    ("board", True): "game_plan",
}


def board_address(which: str, game_id: int, planning: bool) -> str:
    return reverse(BOARD_ROUTES[(which, bool(planning))], args=[game_id])


@jinja2.pass_context
def board_route(context: Any, which: str) -> str:
    return board_address(which, context["game"].id, context.get("planning"))


# The translation functions of the templates: Django's, with the values put into the
# translated sentence as {% blocktranslate %} does (escaped, the sentence not). A board
# asks for a hundred sentences, the same ones on every move: each is looked up once per
# language (games.text.words_memo), not in every catalogue of the language every time.


def translate(message: str, /, **values: Any) -> Markup:
    text_ = Markup(text.word_in(text.words_memo(), message))
    return text_ % values if values else text_


def translate_plural(singular: str, plural: str, count: int, /, **values: Any) -> Markup:
    values.setdefault("num", count)
    return Markup(ngettext(singular, plural, count)) % values


def translate_in(context: str, message: str, /, **values: Any) -> Markup:
    text_ = Markup(pgettext(context, message))
    return text_ % values if values else text_


def translate_plural_in(
    context: str, singular: str, plural: str, count: int, /, **values: Any
) -> Markup:
    values.setdefault("num", count)
    return Markup(npgettext(context, singular, plural, count)) % values


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


@jinja2.pass_context
def message(context: Any, msg: Any) -> str:
    """An engine message with the page's player names, told to the viewer's seat
    (``{% message %}`` of ``games_tags``)."""
    viewer = getattr(context.get("page"), "viewer", None)
    return text.render_for(msg, context.get("player_names") or {}, viewer)


@jinja2.pass_context
def csrf_input(context: Any) -> str:
    """The hidden field ``{% csrf_token %}`` writes (nothing without a token)."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return Markup("")
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


def spaceless(value: str) -> Markup:
    """Whitespace between tags taken out, as ``{% spaceless %}`` does."""
    return Markup(strip_spaces_between_tags(str(value).strip()))


def template_messages(source: str) -> str:
    """The translatable strings of a Jinja2 template as Python calls, each on the line
    of the template it is on, for xgettext (``makemessages``)."""
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"])
    lines = ["" for _ in range(source.count("\n") + 1)]
    for lineno, function, strings in env.extract_translations(source):
        if isinstance(strings, str):
            strings = (strings,)
        args = ", ".join(repr(s) if s is not None else "0" for s in strings)
        lines[lineno - 1] += f"{function}({args}); "
    return "\n".join(lines) + "\n"
