from django.urls import path

from . import views

urlpatterns = [
    path("settings/", views.settings_view, name="settings"),
    path("language/", views.set_language, name="set_language"),
    path("u/<str:username>/", views.profile, name="profile"),
]
