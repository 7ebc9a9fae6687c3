from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("g/<int:game_id>/invite-player", views.invite_player, name="game_invite_player"),
    path(
        "invitations/<int:invitation_id>/accept",
        views.answer_invitation,
        {"accept": True},
        name="invitation_accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline",
        views.answer_invitation,
        {"accept": False},
        name="invitation_decline",
    ),
]
