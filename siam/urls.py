from django.urls import path

from . import views

urlpatterns = [
    path("rules/", views.rules, {"map_id": "siam"}, name="siam_rules"),
    path("rules/saba/", views.rules, {"map_id": "saba"}, name="siam_rules_saba"),
]
