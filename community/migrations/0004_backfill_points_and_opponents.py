"""The games that ended before the profile kept scores and opponents: each seat record's
score from its game's result, each player's sums, and who met whom (as
``community.scoring`` now keeps them when a game ends). Going back drops nothing: the
columns and the table go with 0003."""

from collections import defaultdict

from django.db import migrations


def _title(kind, rules_version):
    from games import registry

    try:
        return registry.get(kind, rules_version)
    except KeyError:
        return None


def forward(apps, schema_editor):
    SeatRecord = apps.get_model("community", "SeatRecord")
    PlayerStats = apps.get_model("community", "PlayerStats")
    Opponent = apps.get_model("community", "Opponent")
    Seat = apps.get_model("games", "Seat")
    by_game = defaultdict(list)
    for record in SeatRecord.objects.select_related("game").order_by("game_id", "pk"):
        by_game[record.game_id].append(record)
    met = defaultdict(lambda: [0, 0])  # (user, kind, opponent) -> [games, won]
    for records in by_game.values():
        game = records[0].game
        title = _title(game.kind, game.rules_version)
        if title is None:
            continue
        finished = game.status == "finished"
        points = None
        if finished and title.points is not None and game.result:
            try:
                points = title.points(game.result)
            except (TypeError, ValueError, KeyError, AttributeError):
                points = None
        bots = set(
            Seat.objects.filter(game_id=game.pk, user__is_bot=True).values_list(
                "user_id", flat=True
            )
        )
        stood_in = set(
            Seat.objects.filter(game_id=game.pk, stood_in_for__isnull=False).values_list(
                "stood_in_for_id", flat=True
            )
        )
        # A record of a player who left (time-out, substitute) has no score and met nobody
        # at the end; only those who held their seat to the end did.
        held = set(
            Seat.objects.filter(game_id=game.pk, vacated=False).values_list("user_id", flat=True)
        )
        people = [
            r
            for r in records
            if r.user_id not in bots and r.user_id not in stood_in and r.user_id in held
        ]
        for record in people:
            if points and record.seat < len(points):
                record.points = int(points[record.seat])
                record.save(update_fields=["points"])
        teammates = getattr(title.engine, "teammates", None)
        winners = set((game.result or {}).get("winners") or []) if finished else set()
        for a in people:
            for b in people:
                if a.pk == b.pk:
                    continue
                if teammates is not None and b.seat in teammates(game.players, a.seat):
                    continue
                row = met[(a.user_id, game.kind, b.user_id)]
                row[0] += 1
                row[1] += a.seat in winners
    Opponent.objects.bulk_create(
        [
            Opponent(user_id=user, kind=kind, opponent_id=other, games=games, won=won)
            for (user, kind, other), (games, won) in met.items()
        ],
        ignore_conflicts=True,
    )
    for stats in PlayerStats.objects.all():
        scored = SeatRecord.objects.filter(
            user_id=stats.user_id, kind=stats.kind, points__isnull=False
        ).values_list("points", flat=True)
        stats.points_total, stats.points_games = sum(scored), len(scored)
        stats.save(update_fields=["points_total", "points_games"])


class Migration(migrations.Migration):
    dependencies = [
        ("community", "0003_points_and_opponents"),
        ("games", "0017_remove_game_left_on_time"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
