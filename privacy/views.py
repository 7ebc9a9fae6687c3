"""The imprint and the privacy notice: public pages drawn from settings."""

from django.conf import settings
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from . import operator


def _context() -> dict:
    return {"operator": operator.operator(), "periods": operator.periods()}


@require_safe
def imprint(request):
    return render(request, "privacy/imprint.html", _context())


@require_safe
def privacy_notice(request):
    # The legal prose is written per language (templates/privacy/_notice_<code>.html);
    # a language without its own text reads the site's default language's.
    language = get_language() or settings.LANGUAGE_CODE
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    context = {**_context(), "notice": f"privacy/_notice_{language}.html"}
    return render(request, "privacy/privacy.html", context)
