"""makemessages that also collects the engines' message keys, marked with N_(), and the
sentences of the Tal valley drawing (tal/valley.py: _t() and _plain())."""

from django.core.management.commands.makemessages import Command as BaseCommand


class Command(BaseCommand):
    xgettext_options = [
        *BaseCommand.xgettext_options,
        "--keyword=N_",
        "--keyword=_t",
        "--keyword=_plain",
    ]
