"""Vacation days: the yearly allowance and the record that keeps it honest.

A day counts as used once the player has been on vacation at any moment of
it. Saving a ``vacation_until`` books the days from today up to it; clearing
or shortening it gives back only days that have not begun. So setting and
clearing the date again and again cannot win extra days.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from ..models import VacationDay


def _days(first: date, last: date) -> list[date]:
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def allowance() -> int:
    return settings.VACATION_DAYS_PER_YEAR


def days_left(user, today: date | None = None) -> int:
    """This year's days not yet used or booked."""
    today = today or timezone.localdate()
    used = VacationDay.objects.filter(user=user, day__year=today.year).count()
    return max(allowance() - used, 0)


def overdrawn_years(user, until: date | None, today: date | None = None) -> list[int]:
    """The years in which a vacation until ``until`` would exceed the allowance."""
    today = today or timezone.localdate()
    if until is None or until < today:
        return []
    # Days already begun stay used; the wanted range replaces future bookings.
    spent = set(VacationDay.objects.filter(user=user, day__lt=today).values_list("day", flat=True))
    wanted = spent | set(_days(today, until))
    years = sorted({day.year for day in wanted if day >= today})
    return [y for y in years if sum(1 for day in wanted if day.year == y) > allowance()]


def book(user, today: date | None = None) -> None:
    """Bring the user's booked days in line with their ``vacation_until``."""
    today = today or timezone.localdate()
    until = user.vacation_until
    if until is not None and until >= today:
        VacationDay.objects.bulk_create(
            [VacationDay(user=user, day=day) for day in _days(today, until)],
            ignore_conflicts=True,
        )
        VacationDay.objects.filter(user=user, day__gt=until).delete()
    else:
        VacationDay.objects.filter(user=user, day__gt=today).delete()


def record_today(today: date | None = None) -> int:
    """Count today for everyone on vacation, however the date was set (admin, shell)."""
    User = get_user_model()
    today = today or timezone.localdate()
    away = User.objects.filter(vacation_until__gte=today).values_list("pk", flat=True)
    created = VacationDay.objects.bulk_create(
        [VacationDay(user_id=pk, day=today) for pk in away], ignore_conflicts=True
    )
    return len(created)
