from django.urls import path

from . import views

urlpatterns = [
    path("g/<int:game_id>/review", views.review, name="game_review"),
]
