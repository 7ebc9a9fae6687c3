from django import template

from moderation.models import ChatMute

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_muted(context, player) -> bool:
    user = context["request"].user
    return user.is_authenticated and ChatMute.objects.filter(user=user, muted=player).exists()
