from django.urls import path

from . import views

urlpatterns = [
    path("watch/", views.games_to_watch, name="watch"),
    path("friends/", views.friends, name="friends"),
    path("friends/follow", views.follow, name="follow"),
    path("friends/unfollow", views.unfollow, name="unfollow"),
    path("friends/block", views.block, name="block"),
    path("friends/unblock", views.unblock, name="unblock"),
]
