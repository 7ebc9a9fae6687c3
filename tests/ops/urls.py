"""The site's routes and one that fails, for the error-report test."""

from django.urls import path

from config.urls import urlpatterns as site


def fail(request):
    # What a careless error message might hold: the player's e-mail address.
    raise RuntimeError(f"forced failure for {request.user.email}")


urlpatterns = [path("test-failure", fail, name="test_failure"), *site]
