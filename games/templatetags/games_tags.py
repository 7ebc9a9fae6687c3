from datetime import timedelta

from django import template
from django.template.base import Template
from django.template.loader import get_template
from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games import clock, extend, fragments, jinja, text
from games.actions import compact_json
from games.clock.seats import clock_minute
from games.models import Game
from games.numbering import line_names

register = template.Library()


@register.simple_tag(takes_context=True)
def parts(context, place: str) -> str:
    """What feature apps draw at ``place`` (``games.extend.add_part``), in their order,
    each with this place's context and what its own function adds."""
    drawn = []
    for part in extend.parts(place):
        extra = part.context(context) if part.context is not None else {}
        if extra is None:
            continue
        drawing = context.template.engine.get_template(part.template)
        with context.push(**extra):
            drawn.append(drawing.render(context))
    return mark_safe("".join(drawn))


@register.simple_tag(takes_context=True)
def board(context, name: str) -> str:
    """A title's board template drawn with the page's context: a Django template as
    ``{% include %}`` draws it, a Jinja2 one (``games.jinja``) with the context's values."""
    found = get_template(name)  # of any template engine
    if isinstance(found.template, Template):
        return mark_safe(found.template.render(context))
    return mark_safe(found.render(context.flatten()))


@register.simple_tag
def name_marks_for(games) -> list:
    """What the name marks of a list of games (or of seats of games) need, prepared
    once for the list (``games.extend.add_name_mark``)."""
    games = [getattr(item, "game", item) for item in games]
    return [(mark, mark.prepare(games)) for mark in extend.name_marks()]


@register.simple_tag
def name_marks(prepared, user_id: int, kind: str) -> str:
    """The marks beside one player's name in a list: "" where no app has one to show."""
    if not prepared:
        return ""
    drawn = ((mark.draw(ready, user_id, kind),) for mark, ready in prepared)
    return format_html_join("", "{}", drawn)


@register.simple_tag
def header_marks(seat) -> str:
    """The marks beside one player's name in a game page's header (``add_header_mark``)."""
    return format_html_join("", "{}", ((draw(seat),) for draw in extend.header_marks()))


@register.simple_tag
def winner_names(game: Game) -> str:
    """The winners of a finished game, from the seats read with it (the lists prefetch them)."""
    winners = set((game.result or {}).get("winners") or [])
    return text.join_names([seat.user.name for seat in game.seats.all() if seat.number in winners])


@register.simple_tag
def outcome(game: Game, player) -> str:
    """How an ended game went for ``player`` ("My games", the archive, the profile):
    aborted, ran out of time (a computer stood in for them to the end, or they left
    the seat to a substitute), won, lost, or finished (nobody won: a draw)."""
    if game.status == Game.Status.ABORTED:
        return _("aborted")
    winners = (game.result or {}).get("winners") or []
    for seat in game.seats.all():
        if seat.stood_in_for_id == player.pk:
            return _("ran out of time")
        if seat.user_id == player.pk:
            if seat.number in winners:
                return _("won")
            return _("lost") if winners else _("finished")
    return _("ran out of time")  # they left the seat to a substitute


@register.simple_tag(takes_context=True)
def message(context, msg):
    """Render an engine Message with the page's player names, to the viewer's seat
    ("You resigned." on their own page: ``text.render_for``)."""
    page = context.get("page")
    viewer = getattr(page, "viewer", None)
    return text.render_for(msg, context.get("player_names", {}), viewer)


@register.simple_tag(takes_context=True)
def board_url(context, which: str) -> str:
    """``{% board_url "act" as act_url %}``: where a board's clicks go. A board template
    names no route itself, so the same drawing serves the planning board."""
    return jinja.board_address(which, context["game"].id, context.get("planning"))


@register.filter
def as_json(value):
    return compact_json(value)


@register.filter(is_safe=True)
def before_full_stop(text):
    """Names that end a sentence: "Clara K." gives up its own full stop to the
    sentence's, so that there is one, not two."""
    text = str(text)
    return text[:-1] if text.endswith(".") else text


@register.filter
def get_item(mapping, key):
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def duration_text(value):
    """A timedelta in words ("2 days, 3 hours"), in the reader's language."""
    return "" if value is None else clock.duration(value)


LOG_ON_PAGE = 10


@register.simple_tag(takes_context=True)
def log_window(context, log):
    """The history entries the page shows, newest first, each with its name
    (``numbering.line_names``, over the whole history so that a name never depends on
    the window): the last few, or all of them with ``?log=all``. Returns ((entry, name)
    pairs, number left out)."""
    request = context.get("request")
    named = list(zip(log, line_names(log), strict=True))
    if (request is not None and request.GET.get("log") == "all") or len(log) <= LOG_ON_PAGE:
        return list(reversed(named)), 0
    return list(reversed(named[-LOG_ON_PAGE:])), len(log) - LOG_ON_PAGE


@register.simple_tag(takes_context=True)
def log_lines(context, window) -> str:
    """The ``<li>`` of each history entry in ``window`` (``log_window``'s pairs): drawn
    here, not by a loop of the template, which took a dozen nodes per entry on every
    move's answer. What the loop drew: the entries new since the viewer last looked
    marked, else the last move's; each named by its move ("move 12a", linked to that
    position) or its set-up letter, then the entry's text for the viewer."""
    page = context["page"]
    since, at = page.since, page.at
    names = context.get("player_names", {})
    lines = []
    for entry, name in window:
        move = entry.get("move") or 0
        new = since is not None and move > since.moves
        mark = "<mark>" if new else '<mark class="last">' if at and move == at else ""
        if move:
            label = _("move %(n)s") % {"n": conditional_escape(name)}
            label = f'<a href="?at={move}" class="move-no">{label}</a>'
        elif name:
            label = _("set-up %(n)s") % {"n": conditional_escape(name)}
            label = f'<span class="move-no">{label}</span>'
        else:
            label = ""
        said = conditional_escape(text.render_for(entry, names, page.viewer))
        lines.append(f"<li>{mark}{label} {said}{'</mark>' if mark else ''}</li>")
    return mark_safe("\n  ".join(lines))


class FragmentNode(template.Node):
    def __init__(self, part: str, nodelist):
        self.part = part
        self.nodelist = nodelist

    def render(self, context):
        return fragments.render(self.part, context, self.nodelist.render)


@register.simple_tag
def kept_param(digests) -> str:
    """The digests of the page's cached parts, for the poller to send back."""
    return fragments.kept_param(digests or {})


@register.tag("fragment")
def fragment(parser, token):
    """``{% fragment "board" %}...{% endfragment %}``: rendered once per position and
    viewer, then served from the cache (see ``games.fragments`` for the key)."""
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError("{% fragment %} takes one quoted part name.")
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    return FragmentNode(bits[1][1:-1], nodelist)


@register.simple_tag
def seat_clock(game, seat):
    """A seat's clock as the page draws it (``games.clock.clock_state``), with the time
    left as a countdown reads it; the browser counts on from there (static/js/clock.js)."""
    state = clock.clock_state(game, seat, clock_minute())
    seconds = state["seconds_left"]
    state["countdown"] = "" if seconds is None else countdown(seconds)
    state["words"] = "" if seconds is None else clock.duration(timedelta(seconds=seconds))
    state["until"] = state["stops_at"] or state["runs_out_at"]
    return state


def countdown(seconds: int) -> str:
    """“1 d 03:12:45”: the same text static/js/clock.js writes each second."""
    days, rest = divmod(max(int(seconds), 0), 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    clock_text = f"{hours:02d}:{minutes:02d}:{secs:02d}"
    return f"{days} {pgettext('days, abbreviated', 'd')} {clock_text}" if days else clock_text


@register.filter
def clock_text(game) -> str:
    """The game's clock in words: its bank's pace, or its time per move."""
    pace = clock.pace_of(game)
    if pace is None:
        return ngettext("%(n)d day per move", "%(n)d days per move", game.time_limit_days) % {
            "n": game.time_limit_days
        }
    return _("bank: %(pace)s") % {"pace": clock.pace_text(pace)}


@register.filter
def pace_label(key: str) -> str:
    """A named pace (a tournament's, a ladder's) in words."""
    found = clock.named(key)
    return found.label if found else ""


@register.filter
def seat_deadline(seat):
    """When the seat's time runs out: its own bank's end, or the game's deadline."""
    return clock.seats.deadline_of(seat.game, seat) or seat.game.deadline
