from django import template

from .. import relations

register = template.Library()


@register.inclusion_tag("social/_profile_actions.html", takes_context=True)
def social_actions(context, player) -> dict:
    """Follow or block ``player``, for a signed-in visitor of their profile."""
    request = context["request"]
    user = request.user
    shown = user.is_authenticated and user.pk != player.pk and not player.is_bot
    return {
        "shown": shown,
        "player": player,
        "following": shown and relations.is_following(user, player),
        "blocked": shown and relations.has_blocked(user, player),
        "next": request.get_full_path(),
        "csrf_token": context.get("csrf_token"),
    }
