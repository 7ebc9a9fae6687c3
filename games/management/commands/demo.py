"""Create two demo accounts and running games, so a newcomer sees a board at once."""

import random

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games import play, registry, replay

DEMO_PASSWORD = "demo-password-2026"
DEMO_USERS = [("anna", "Anna"), ("bert", "Bert")]


class Command(BaseCommand):
    help = "Create the demo accounts anna and bert and a running game of each kind."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="Do nothing if any account exists."
        )
        parser.add_argument(
            "--moves", type=int, default=6, help="Random opening moves to play in each game."
        )

    def handle(self, *args, **options):
        if options["if_empty"] and get_user_model().objects.exists():
            return
        with transaction.atomic():
            users = [self.user(name, display) for name, display in DEMO_USERS]
            for kind in registry.kinds():
                if kind.engine.min_players > len(users):
                    continue  # the demo has two players
                game = play.create_game(
                    users[0],
                    kind,
                    title=f"Demo: {kind.name}",
                    players=2,
                    options={},
                    time_limit_days=7,
                    private=False,
                )
                play.join(game.pk, users[1])
                self.play_random(game, options["moves"])
        self.stdout.write(
            "Demo accounts: anna and bert, password "
            f"{DEMO_PASSWORD!r}. Sign in at {settings.SITE_URL}/accounts/login/"
        )

    def user(self, username, display_name):
        user, created = get_user_model().objects.get_or_create(
            username=username,
            defaults={"email": f"{username}@example.com", "display_name": display_name},
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        return user

    def play_random(self, game, moves):
        rng = random.Random(game.pk)
        seats = {s.number: s.user for s in game.seats.all()}
        for _ in range(moves):
            game.refresh_from_db()
            state = replay.current_state(game)
            engine = game.engine
            active = sorted(engine.active_seats(state))
            if not active or engine.result(state) is not None:
                return
            seat = active[0]
            actions = engine.legal_actions(state, seat)
            play.act(game.pk, seats[seat], rng.choice(actions), None)
