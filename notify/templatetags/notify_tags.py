from django import template

from notify.models import Mute

register = template.Library()


@register.simple_tag(takes_context=True)
def game_muted(context, game) -> bool:
    user = context["request"].user
    return user.is_authenticated and Mute.objects.filter(user=user, game=game).exists()
