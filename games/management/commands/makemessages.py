"""makemessages that also collects the engines' message keys, marked with N_(), the
sentences of the Tal valley drawing (tal/valley.py: _t() and _plain()) and the strings
of the Jinja2 board templates (``*/jinja2/*.html``, see ``games.jinja``)."""

from pathlib import Path

from django.core.management.commands.makemessages import BuildFile
from django.core.management.commands.makemessages import Command as BaseCommand

from games.jinja import template_messages


class JinjaAwareFile(BuildFile):
    """A template under a ``jinja2`` folder is read by Jinja2's own extraction (Django's
    would not understand its syntax); every other file as before."""

    def preprocess(self):
        if not (self.is_templatized and "jinja2" in Path(self.path).parts):
            return super().preprocess()
        with open(self.path, encoding="utf-8") as source:
            content = template_messages(source.read())
        with open(self.work_path, "w", encoding="utf-8") as out:
            out.write(content)


class Command(BaseCommand):
    build_file_class = JinjaAwareFile
    xgettext_options = [
        *BaseCommand.xgettext_options,
        "--keyword=N_",
        "--keyword=_t",
        "--keyword=_plain",
    ]
