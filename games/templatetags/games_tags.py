from django import template
from django.utils import timezone
from django.utils.timesince import timeuntil

from games import text
from games.actions import compact_json

register = template.Library()


@register.simple_tag(takes_context=True)
def message(context, msg):
    """Render an engine Message with the page's player names."""
    return text.render(msg, context.get("player_names", {}))


@register.filter
def as_json(value):
    return compact_json(value)


@register.filter
def get_item(mapping, key):
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def duration_text(value):
    """A timedelta in words ("2 days, 3 hours"), in the reader's language."""
    if value is None:
        return ""
    now = timezone.now()
    return timeuntil(now + value, now)
