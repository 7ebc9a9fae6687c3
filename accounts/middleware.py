import zoneinfo

from django.utils import timezone, translation

from . import presence


class UserPreferencesMiddleware:
    """Activate the signed-in user's chosen language and time zone, and record that
    they are here (``accounts.presence``, at most once a minute).

    Runs after LocaleMiddleware, so an explicit profile choice beats the
    browser's Accept-Language, which still applies when the user chose none.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            if user.language:
                translation.activate(user.language)
                request.LANGUAGE_CODE = user.language
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
            presence.record(user)
        response = self.get_response(request)
        timezone.deactivate()
        return response
