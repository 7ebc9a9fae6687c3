from django.urls import path

from . import views

urlpatterns = [
    path("g/<int:game_id>/agree/ask", views.ask, name="agreement_ask"),
    path("g/<int:game_id>/agree/answer", views.answer, name="agreement_answer"),
    path("g/<int:game_id>/agree/withdraw", views.withdraw, name="agreement_withdraw"),
]
