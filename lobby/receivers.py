"""Invitations kept in step with the games they are for."""

from django.dispatch import receiver

from games import signals

from .models import Invitation


@receiver(signals.joined)
def joined(sender, game, user, **kwargs) -> None:
    # Joining from the lobby or the game page answers an invitation as well as
    # accepting it would: it leaves "My games" and the creator's list shows it accepted.
    Invitation.objects.filter(game=game, invitee=user, status=Invitation.Status.PENDING).update(
        status=Invitation.Status.ACCEPTED
    )
