import json

from django import template

from games import text

register = template.Library()


@register.simple_tag(takes_context=True)
def message(context, msg):
    """Render an engine Message with the page's player names."""
    return text.render(msg, context.get("player_names", {}))


@register.filter
def as_json(value):
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@register.filter
def get_item(mapping, key):
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None
