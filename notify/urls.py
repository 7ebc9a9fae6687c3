from django.urls import path

from . import views

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("mute/<str:token>/", views.mute_link, name="mute_link"),
    path("game/<int:game_id>/mute", views.toggle_mute, name="game_mute"),
]
