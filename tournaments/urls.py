from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/new/<slug:kind>/", views.new_tournament, name="new_tournament"),
    path("tournaments/<int:tournament_id>/", views.tournament, name="tournament"),
    path("tournaments/<int:tournament_id>/enter", views.enter, name="tournament_enter"),
    path("tournaments/<int:tournament_id>/withdraw", views.withdraw, name="tournament_withdraw"),
    path("tournaments/<int:tournament_id>/start", views.start, name="tournament_start"),
    path(
        "tournaments/<int:tournament_id>/remove/<int:entrant_id>",
        views.remove,
        name="tournament_remove",
    ),
    path("ladders/", views.ladder_list, name="ladders"),
    path("ladders/<int:ladder_id>/", views.ladder, name="ladder"),
    path("ladders/<int:ladder_id>/join", views.ladder_join, name="ladder_join"),
    path("ladders/<int:ladder_id>/leave", views.ladder_leave, name="ladder_leave"),
]
