from django.urls import path

from . import calendar_views, views

urlpatterns = [
    path("new/<slug:kind>/", views.new_game, name="new_game"),
    path("my/", views.my_games, name="my_games"),
    path("archive/", views.archive, name="archive"),
    path("next/", views.next_game, name="next_game"),
    path("invite/<str:token>/", views.invite, name="invite"),
    path("calendar/<str:token>.ics", calendar_views.calendar_feed, name="calendar_feed"),
    path("settings/calendar/new/", calendar_views.new_calendar_link, name="new_calendar_link"),
    path("g/<int:game_id>/", views.game_page, name="game"),
    path("g/<int:game_id>/board", views.board, name="game_board"),
    path("g/<int:game_id>/poll", views.poll, name="game_poll"),
    path("g/<int:game_id>/version", views.version, name="game_version"),
    path("g/<int:game_id>/act", views.act, name="game_act"),
    path("g/<int:game_id>/undo", views.undo, name="game_undo"),
    path("g/<int:game_id>/resign", views.resign, name="game_resign"),
    path("g/<int:game_id>/chat", views.chat, name="game_chat"),
    path("g/<int:game_id>/join", views.join, name="game_join"),
    path("g/<int:game_id>/leave", views.leave, name="game_leave"),
    path("g/<int:game_id>/seen", views.seen, name="game_seen"),
    path("g/<int:game_id>/replay", views.replay_since, name="game_replay"),
    path("g/<int:game_id>/record.json", views.game_record, name="game_record"),
    path("g/<int:game_id>/take-seat", views.take_seat, name="game_take_seat"),
    path("g/<int:game_id>/reclaim-seat", views.reclaim_seat, name="game_reclaim_seat"),
    path("g/<int:game_id>/plan", views.plan, name="game_plan"),
    path("g/<int:game_id>/premove", views.premove, name="game_premove"),
]
