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
