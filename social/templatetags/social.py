from django import template

from .. import relations

register = template.Library()


@register.inclusion_tag("social/_profile_actions.html", takes_context=True)
def social_actions(context, player) -> dict:
    """Follow or block ``player``, for a signed-in visitor of their profile."""
    request = context["request"]
    user = request.user
    shown = user.is_authenticated and user.pk != player.pk and not player.is_bot
    if user.is_authenticated and user.pk == player.pk:
        return {"own": True}  # a link to one's friends page instead
    following, blocked = relations.standing(user, player) if shown else (False, False)
    return {
        "shown": shown,
        "player": player,
        "following": following,
        "blocked": blocked,
        "next": request.get_full_path(),
        "csrf_token": context.get("csrf_token"),
    }
