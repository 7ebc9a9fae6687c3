from django.urls import path

from . import views

urlpatterns = [
    path("automatch/", views.page, name="automatch"),
    path("automatch/status", views.status, name="automatch_status"),
    path("automatch/new/<slug:kind>", views.new_ticket, name="automatch_new"),
    path("automatch/<int:ticket_id>/withdraw", views.withdraw, name="automatch_withdraw"),
]
