from django.urls import path

from games import views as game_views

from . import views

urlpatterns = [
    path("g/<int:game_id>/live", views.game_stream, name="live_game"),
    # What the page fetches when its stream tells of a change: the poll's own answer
    # (the same gate, render cache and partials), at an address of its own, so that a
    # page that is told never polls (the browser test checks it).
    path("g/<int:game_id>/live/changes", game_views.poll, name="live_changes"),
    path("live/me", views.user_stream, name="live_user"),
    path("live/badge", views.badge, name="live_badge"),
]
