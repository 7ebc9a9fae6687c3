from django.urls import path

from . import views

urlpatterns = [
    path("g/<int:game_id>/rematch", views.rematch_answer, name="game_rematch"),
    path("g/<int:game_id>/cancel", views.cancel_vote, name="game_cancel_vote"),
    path("ratings/<slug:kind>/", views.leaderboard, name="leaderboard"),
]
