from django.conf import settings
from django.db import migrations, models


def vacate_left_seats(apps, schema_editor):
    """A player who left a seat to a substitute before seats were kept gets their seat
    back as a vacated row: number and time from their record of that game (written when
    they left), so the game is in their lists again."""
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    SeatRecord = apps.get_model("community", "SeatRecord")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    for game in Game.objects.exclude(left_on_time=[]).iterator():
        for user_id in game.left_on_time:
            if not User.objects.filter(pk=user_id).exists():
                continue  # the account is gone (a list of ids kept no key to it)
            if Seat.objects.filter(game=game, user_id=user_id).exists():
                continue  # they came back, somehow: their seat is the one they hold
            record = SeatRecord.objects.filter(game=game, user_id=user_id).first()
            left = record.created_at if record else game.finished_at or game.started_at
            seat = Seat.objects.create(
                game=game,
                user_id=user_id,
                person_id=user_id,
                number=record.seat if record else None,
                vacated=True,
                ended_at=left,
            )
            # joined_at is set on creation; the real one is unknown, the start is closest.
            Seat.objects.filter(pk=seat.pk).update(joined_at=game.started_at or left)


def forget_vacated_seats(apps, schema_editor):
    """Back to the list of ids: the players of vacated seats, whose rows go (else the
    constraint on (game, number) for every row would fail where a substitute sits)."""
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    left: dict[int, list[int]] = {}
    for game_id, user_id in Seat.objects.filter(vacated=True).values_list("game_id", "user_id"):
        left.setdefault(game_id, []).append(user_id)
    for game_id, user_ids in left.items():
        Game.objects.filter(pk=game_id).update(left_on_time=user_ids)
    Seat.objects.filter(vacated=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_seat_person_one_index"),
        ("community", "0002_rematch_pending_index"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="seat",
            name="unique_seat_number",
        ),
        migrations.AddField(
            model_name="seat",
            name="vacated",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                condition=models.Q(("vacated", False)),
                fields=("game", "number"),
                name="unique_seat_number",
            ),
        ),
        migrations.RunPython(vacate_left_seats, forget_vacated_seats),
    ]
