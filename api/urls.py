from django.urls import path

from . import views
from .site import api

_patterns, _app, _namespace = api.urls
for pattern in _patterns:
    if "<int:game_id>" in str(pattern.pattern):
        # Every operation on a game loads it through the game page's gate first
        # (api.gate.visible_game, games.views.game_route): tests/games/test_routes.py
        # walks these routes with an outsider's token and another seat's.
        pattern.callback.game_route = True

urlpatterns = [
    path("api/v1/", (_patterns, _app, _namespace)),
    path("api/docs/", views.docs, name="api_docs"),
    path("settings/tokens/", views.tokens_view, name="api_tokens"),
    path("settings/tokens/<int:token_id>/revoke", views.revoke, name="api_token_revoke"),
    path("settings/bot/", views.become_bot, name="become_bot"),
    path("settings/bot/listed", views.list_bot, name="list_bot"),
]
