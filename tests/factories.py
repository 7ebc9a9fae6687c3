import factory
from allauth.account.models import EmailAddress

from accounts.models import User


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("a-long-test-password")

    @factory.post_generation
    def verified(user, create, extracted, **kwargs):
        if create:
            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


def running_game(kind: str, users, options=None, title="Test game", **create):
    """A game of ``kind`` created by users[0] and joined by the rest, so it has started
    (``create``: more of ``play.create_game``'s arguments, e.g. ``pace``)."""
    from games import play, registry

    game = play.create_game(
        users[0],
        registry.get(kind),
        title=title,
        players=len(users),
        options=options or {},
        time_limit_days=3,
        private=False,
        **create,
    )
    for user in users[1:]:
        play.join(game.pk, user)
    game.refresh_from_db()
    return game
