from django.http import HttpResponseBadRequest


class RejectUnstorableInput:
    """Answer 400 to a NUL character in the path or query string.

    No page of this site takes one, and PostgreSQL refuses to store or even
    compare text containing NUL, so a lookup like ``/u/%00/`` would be a 500.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in values)
            for key, values in request.GET.lists()
        ):
            return HttpResponseBadRequest("Bad request: NUL character.")
        return self.get_response(request)
