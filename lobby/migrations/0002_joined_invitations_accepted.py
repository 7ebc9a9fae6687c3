"""Invitations whose invitee joined the game without answering were left pending; joining
now answers them (lobby.receivers). Bring the old ones in line, so that they leave the
invitee's "My games" and badge."""

from django.db import migrations
from django.db.models import Exists, OuterRef


def accept_joined(apps, schema_editor):
    Invitation = apps.get_model("lobby", "Invitation")
    Seat = apps.get_model("games", "Seat")
    seated = Seat.objects.filter(game_id=OuterRef("game_id"), user_id=OuterRef("invitee_id"))
    Invitation.objects.filter(Exists(seated), status="pending").update(status="accepted")


class Migration(migrations.Migration):
    dependencies = [
        ("lobby", "0001_initial"),
        ("games", "0015_seat_person_one_index"),
    ]

    operations = [migrations.RunPython(accept_joined, migrations.RunPython.noop)]
