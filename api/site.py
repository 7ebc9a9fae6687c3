"""The API's one ``NinjaAPI``: version 1 under ``/api/v1/``, bearer tokens, and every
refusal as ``{"code", "message"}``.

django-ninja rather than DRF with drf-spectacular: the operations are a few dozen plain
functions over ``games.play`` and friends, no model CRUD, so DRF's serializers and
viewsets would be weight without use; ninja gives typed inputs (pydantic), their
refusal before the function runs, and the OpenAPI 3 schema from the same signatures.
"""

from __future__ import annotations

from django.http import Http404
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from . import bot_routes, events, game_routes, lobby_routes
from .auth import TokenAuth
from .errors import ApiError, body


class Api(NinjaAPI):
    def get_openapi_operation_id(self, operation) -> str:
        return operation.view_func.__name__  # "act", not "api_game_routes_act"


api = Api(
    title="Play-by-web API",
    version="1",
    urls_namespace="api-v1",
    auth=TokenAuth(),
    docs_url=None,  # the docs page is the site's own (api.views.docs), served from static/
    description=(
        "A personal access token (Settings → API tokens) goes in "
        "`Authorization: Bearer <token>`. Scopes: read, play, chat. "
        "Every refusal is JSON `{code, message}` and changes nothing."
    ),
)
api.add_router("", lobby_routes.router)
api.add_router("", game_routes.router)
api.add_router("", bot_routes.router)
api.add_router("", events.router)


def _answer(request, status: int, code: str, message: str):
    return api.create_response(request, body(code, message), status=status)


@api.exception_handler(ApiError)
def _refused(request, error: ApiError):
    return _answer(request, error.status, error.code, error.message)


@api.exception_handler(AuthenticationError)
def _unauthorized(request, error):
    return _answer(
        request, 401, "unauthorized", "Send a live token: Authorization: Bearer <token>."
    )


@api.exception_handler(ValidationError)
def _invalid(request, error: ValidationError):
    where = "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}" for e in error.errors
    )
    return _answer(request, 400, "invalid_input", where[:500] or "The request is not valid.")


@api.exception_handler(HttpError)
def _http_error(request, error: HttpError):
    code = "invalid_input" if error.status_code == 400 else "refused"
    return _answer(request, error.status_code, code, str(error.message))


@api.exception_handler(Http404)
def _not_found(request, error):
    return _answer(request, 404, "not_found", "Not found.")
