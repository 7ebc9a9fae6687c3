from django.urls import path

from . import views

urlpatterns = [
    path("u/<str:username>/report/", views.report_player, name="report_player"),
    path("u/<str:username>/mute/", views.mute, name="mute_player"),
    path("g/<int:game_id>/report", views.report_message, name="report_message"),
]
