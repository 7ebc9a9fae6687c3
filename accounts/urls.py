from django.urls import path

from . import own_data, views

urlpatterns = [
    path("settings/", views.settings_view, name="settings"),
    path("settings/data/", own_data.download_data, name="download_data"),
    path("settings/delete/", own_data.delete_account, name="delete_account"),
    path("language/", views.set_language, name="set_language"),
    path("u/<str:username>/", views.profile, name="profile"),
]
