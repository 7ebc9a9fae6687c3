"""makemessages that also collects the engines' message keys, marked with N_()."""

from django.core.management.commands.makemessages import Command as BaseCommand


class Command(BaseCommand):
    xgettext_options = [*BaseCommand.xgettext_options, "--keyword=N_"]
