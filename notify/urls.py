from django.urls import path

from . import channel_views, views

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("mute/<str:token>/", views.mute_link, name="mute_link"),
    path("game/<int:game_id>/mute", views.toggle_mute, name="game_mute"),
    path("in/<str:token>/", channel_views.signin_link, name="signin_link"),
    path("push/subscribe", channel_views.subscribe, name="push_subscribe"),
    path("push/<int:pk>/edit", channel_views.device_edit, name="push_device_edit"),
    path("push/<int:pk>/remove", channel_views.device_remove, name="push_device_remove"),
    path("webhooks/add", channel_views.webhook_add, name="webhook_add"),
    path("webhooks/channel", channel_views.game_channel_add, name="game_channel_add"),
    path("webhooks/<int:pk>/edit", channel_views.webhook_edit, name="webhook_edit"),
    path("webhooks/<int:pk>/remove", channel_views.webhook_remove, name="webhook_remove"),
    path("webhooks/<int:pk>/enable", channel_views.webhook_enable, name="webhook_enable"),
    path("handles", channel_views.handles, name="chat_handles"),
    path("test/<str:channel>", channel_views.send_test, name="send_test"),
    path("test/<str:channel>/<int:pk>", channel_views.send_test, name="send_test_to"),
]
