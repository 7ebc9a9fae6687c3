"""A player makes an API token on the settings page of a phone, in English and German,
reads it once, and the API's docs page draws the schema under the site's CSP."""

import pytest

from api.models import Token
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    "language, make, revoke",
    [("en", "Make a token", "Revoke"), ("de", "Schlüssel erstellen", "Widerrufen")],
)
def test_a_token_made_on_a_phone_is_shown_once_and_the_docs_draw(
    login, live_server, artifacts, language, make, revoke
):
    user = UserFactory(language=language)
    page = login(user, width=390, height=844)
    page.goto(f"{live_server.url}/settings/#api-tokens")
    page.fill("#id_name", "Discord")
    page.check("input[name=scopes][value=chat]")
    page.get_by_role("button", name=make).click()
    secret = page.locator("[data-new-token] input").input_value()
    assert secret.startswith("pbw_") and Token.objects.get(user=user).name == "Discord"
    page.locator("[data-new-token]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"api-token-made-{language}.png"), full_page=False)
    page.goto(f"{live_server.url}/settings/#api-tokens")
    assert secret not in page.content()
    page.locator("#api-tokens").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"api-tokens-{language}.png"), full_page=False)
    page.get_by_role("button", name=revoke).click()
    assert Token.objects.get(user=user).revoked_at is not None
    if language == "en":
        page.goto(f"{live_server.url}/api/docs/")
        page.get_by_text("/api/v1/games/{game_id}/act").first.wait_for()
