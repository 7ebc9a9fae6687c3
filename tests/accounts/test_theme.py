"""The colours a player chose (settings: as the device says, light or dark) on every page."""

import pytest

from accounts.models import User
from tests.factories import UserFactory, running_game

pytestmark = pytest.mark.django_db

SETTINGS = {"language": "", "time_zone": "UTC", "notify_reminder_hours": "24"}


def html_tag(client, path="/"):
    page = client.get(path).content.decode()
    return page[page.index("<html") : page.index(">", page.index("<html")) + 1]


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_a_chosen_theme_overrides_the_devices_on_every_page(client, choice):
    user = UserFactory()
    client.force_login(user)
    assert client.post("/settings/", {**SETTINGS, "theme": choice}).status_code == 302
    user.refresh_from_db()
    assert user.theme == choice
    game = running_game("siam", [user, UserFactory()])
    for path in ("/", "/settings/", user.get_absolute_url(), game.get_absolute_url()):
        assert f'data-theme="{choice}"' in html_tag(client, path)


def test_as_my_device_says_leaves_the_choice_to_the_browser(client):
    user = UserFactory(theme=User.Theme.DARK)
    client.force_login(user)
    assert client.post("/settings/", {**SETTINGS, "theme": "system"}).status_code == 302
    user.refresh_from_db()
    assert user.theme == "system"
    assert "data-theme" not in html_tag(client)


def test_a_settings_form_without_the_choice_keeps_the_devices_colours(client):
    user = UserFactory()
    client.force_login(user)
    assert client.post("/settings/", SETTINGS).status_code == 302
    user.refresh_from_db()
    assert user.theme == "system"


def test_an_unknown_theme_is_refused_and_changes_nothing(client):
    user = UserFactory(theme=User.Theme.LIGHT)
    client.force_login(user)
    response = client.post("/settings/", {**SETTINGS, "theme": "neon"})
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    user.refresh_from_db()
    assert user.theme == "light"


def test_visitors_get_the_devices_colours(client):
    assert "data-theme" not in html_tag(client)
