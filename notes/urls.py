from django.urls import path

from . import views

urlpatterns = [
    path("g/<int:game_id>/note", views.note, name="game_note"),
]
