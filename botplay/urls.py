from django.urls import path

from . import views

urlpatterns = [
    path("g/<int:game_id>/hint", views.hint, name="game_hint"),
]
