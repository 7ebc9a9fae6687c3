"""Personal access tokens: made on the settings page and shown once, stored hashed,
revoked at once, their last use shown, their requests limited."""

import hashlib
import re

import pytest

from api.models import Token
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def make_on_the_page(client, name="my bot", scopes=("read", "play")):
    response = client.post("/settings/tokens/", {"name": name, "scopes": list(scopes)})
    assert response.status_code == 200
    return re.search(r'value="(pbw_[^"]+)"', response.content.decode()).group(1)


def test_a_token_is_shown_once_and_stored_hashed(client):
    user = UserFactory()
    client.force_login(user)
    secret = make_on_the_page(client)
    token = Token.objects.get(user=user)
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(Token.objects.values().get())
    settings_page = client.get("/settings/").content.decode()
    assert "my bot" in settings_page and secret not in settings_page
    assert "never used" in settings_page
    me = client.get("/api/v1/me", headers={"Authorization": f"Bearer {secret}"}).json()
    assert me["username"] == user.username and me["token"]["scopes"] == ["play", "read"]
    assert "never used" not in client.get("/settings/").content.decode()


def test_a_revoked_token_is_refused_at_once(client):
    user = UserFactory()
    client.force_login(user)
    secret = make_on_the_page(client)
    headers = {"Authorization": f"Bearer {secret}"}
    assert client.get("/api/v1/me", headers=headers).status_code == 200
    token = Token.objects.get(user=user)
    client.force_login(UserFactory())  # another person cannot revoke it
    client.post(f"/settings/tokens/{token.pk}/revoke")
    assert client.get("/api/v1/me", headers=headers).status_code == 200
    client.force_login(user)
    client.post(f"/settings/tokens/{token.pk}/revoke")
    refused = client.get("/api/v1/me", headers=headers)
    assert refused.status_code == 401 and refused.json()["code"] == "unauthorized"


def test_a_session_is_no_token(client):
    client.force_login(UserFactory())
    assert client.get("/api/v1/me").status_code == 401
    assert (
        client.get("/api/v1/me", headers={"Authorization": "Bearer pbw_guess"}).status_code == 401
    )


def test_a_token_needs_a_name_and_a_scope(client):
    client.force_login(UserFactory())
    response = client.post("/settings/tokens/", {"name": "", "scopes": ["fly"]})
    assert response.status_code == 400 and not Token.objects.exists()


def test_requests_per_token_are_limited(client, settings, token_of):
    settings.API_RATE_LIMIT = "3/m"
    user = UserFactory()
    headers, other = token_of(user), token_of(user)
    answers = [client.get("/api/v1/me", headers=headers).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert client.get("/api/v1/me", headers=headers).json()["code"] == "rate_limited"
    assert client.get("/api/v1/me", headers=other).status_code == 200  # per token


def test_the_token_settings_are_in_german(client):
    user = UserFactory(language="de")
    client.force_login(user)
    client.post("/settings/tokens/", {"name": "Bot", "scopes": ["read"]}, HTTP_ACCEPT_LANGUAGE="de")
    page = client.get("/settings/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "API-Schlüssel" in page and "Widerrufen" in page
