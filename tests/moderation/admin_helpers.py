from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME

from tests.factories import UserFactory


def moderator():
    return UserFactory(is_staff=True, is_superuser=True)


def run_action(client, changelist, action, pks, reason="Breaks the site rules"):
    """Choose an admin action, then confirm it with ``reason`` on the intermediate page.

    Returns (the confirmation page, the response to the confirmation).
    """
    data = {"action": action, "index": 0, ACTION_CHECKBOX_NAME: [str(pk) for pk in pks]}
    page = client.post(changelist, data)
    done = client.post(changelist, {**data, "confirm": "yes", "reason": reason})
    return page, done
