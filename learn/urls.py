from django.urls import path

from . import views

urlpatterns = [
    path("learn/start", views.start, name="learn_start"),
]
