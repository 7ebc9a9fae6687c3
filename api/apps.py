from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "API"

    def ready(self) -> None:
        from games import extend

        from . import botaccounts

        extend.add_guard("join", botaccounts.refuse_join)
        extend.add_name_mark(botaccounts.list_marks, botaccounts.list_mark)
        extend.add_header_mark(botaccounts.header_mark)
        extend.set_challengers(botaccounts.ListedBots())
