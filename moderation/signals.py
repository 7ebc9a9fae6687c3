"""What moderation tells the apps above it (``notify`` writes the player's mail).

``sanctioned(user, entry, until)``: a moderator banned ``user`` or muted them in chat
(``entry``: the audit entry, whose reason the player is told; ``until``: the end of a
chat mute, None for a ban). Sent inside the action's transaction."""

from django.dispatch import Signal

sanctioned = Signal()
