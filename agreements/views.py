from datetime import date, datetime, time, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from games import play
from games.views import guarded

from . import flows


def _until(value) -> datetime:
    """The end of the day ``value`` (YYYY-MM-DD) in the asker's time zone: a pause "until
    12 March" lasts through that day."""
    try:
        day = date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        day = None
    if day is None or day.year > 9000:
        raise play.PlayError(_("Choose the date the pause ends."))
    return timezone.make_aware(datetime.combine(day + timedelta(days=1), time(0, 0)))


@guarded
def ask(request, game_id, data):
    kind = data.get("kind")
    until = _until(data.get("until")) if kind == "pause" else None
    flows.ask(game_id, request.user, kind, until)


@guarded
def answer(request, game_id, data):
    value = data.get("answer")
    if value not in ("yes", "no"):
        raise play.PlayError(_("Answer yes or no."))
    flows.answer(game_id, request.user, data.get("request"), value == "yes")


@guarded
def withdraw(request, game_id, data):
    flows.withdraw(game_id, request.user)
