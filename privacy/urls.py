from django.urls import path

from . import views

urlpatterns = [
    path("privacy/", views.privacy_notice, name="privacy"),
    path("imprint/", views.imprint, name="imprint"),
]
