from allauth.account.views import SignupView
from django.contrib import admin
from django.db import transaction
from django.urls import include, path

from notify.channel_views import service_worker

urlpatterns = [
    path("admin/", admin.site.urls),
    # Atomic: no account without the row of its verification e-mail.
    path(
        "accounts/signup/",
        transaction.atomic(SignupView.as_view()),
        name="account_signup",
    ),
    path("accounts/", include("allauth.urls")),
    path("siam/", include("siam.urls")),
    path("notify/", include("notify.urls")),
    path("", include("moderation.urls")),
    path("tal/", include("tal.urls")),
    path("", include("accounts.urls")),
    path("", include("community.urls")),
    path("", include("lobby.urls")),
    path("", include("botplay.urls")),
    path("", include("tournaments.urls")),
    path("", include("automatch.urls")),
    path("", include("agreements.urls")),
    path("", include("notes.urls")),
    path("", include("review.urls")),
    path("", include("social.urls")),
    path("", include("learn.urls")),
    path("", include("games.urls")),
    path("", include("live.urls")),
    path("", include("ops.urls")),
    path("", include("privacy.urls")),
    path("", include("api.urls")),
    # At the root, so that the push service worker's scope is the whole site.
    path("sw.js", service_worker, name="service_worker"),
]
