from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("siam/", include("siam.urls")),
    path("tal/", include("tal.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
]
