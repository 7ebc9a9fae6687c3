"""Failed sign-ins: an attacker is slowed down, the owner is never locked out.

Addresses come from REMOTE_ADDR (no proxy is trusted in the tests)."""

import pytest
from django.core import mail

from accounts import signin_limits
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RIGHT = "a-long-test-password"
OWNER_ADDRESS = "198.51.100.1"


def attacker(n: int) -> str:
    return f"203.0.113.{n}"


def sign_in(client, login: str, password: str, address: str) -> bool:
    client.logout()
    client.post("/accounts/login/", {"login": login, "password": password}, REMOTE_ADDR=address)
    return "_auth_user_id" in client.session


@pytest.fixture
def owner(django_capture_on_commit_callbacks):
    return UserFactory(username="olga")


def attack(client, login: str, tries: int, addresses: int) -> int:
    """``tries`` wrong passwords spread over ``addresses`` addresses; how many were
    checked (not refused before the check)."""
    checked = 0
    for n in range(tries):
        client.logout()
        response = client.post(
            "/accounts/login/",
            {"login": login, "password": f"guess-{n}"},
            REMOTE_ADDR=attacker(n % addresses),
        )
        checked += "Too many failed" not in response.content.decode()
    return checked


def test_fifty_wrong_passwords_from_elsewhere_do_not_stop_the_owner(client, owner):
    attack(client, "olga", 50, addresses=25)
    assert sign_in(client, "olga", RIGHT, OWNER_ADDRESS)


def test_the_name_and_the_address_of_one_account_count_as_one(
    client, owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        attack(client, "OLGA", 10, addresses=10)
        attack(client, "olga@example.com", 10, addresses=10)
    assert signin_limits.in_burst(signin_limits.account_key("olga", owner))
    assert len([m for m in mail.outbox if "failed sign-ins" in m.subject]) == 1
    assert sign_in(client, "olga@example.com", RIGHT, OWNER_ADDRESS)


def test_an_address_that_failed_five_times_is_refused_even_the_right_password(client, owner):
    attack(client, "olga", 5, addresses=1)
    assert not sign_in(client, "olga", RIGHT, attacker(0))
    assert sign_in(client, "olga", RIGHT, OWNER_ADDRESS)


def test_one_address_may_fail_ten_times_a_minute_whatever_the_accounts(client, owner):
    others = [UserFactory() for _ in range(10)]
    for user in others:
        assert not sign_in(client, user.username, "wrong-password", attacker(0))
    assert not sign_in(client, "olga", RIGHT, attacker(0))  # the eleventh: not even checked
    assert sign_in(client, "olga", RIGHT, OWNER_ADDRESS)


def test_in_a_burst_each_address_gets_two_tries(client, owner, settings):
    settings.SIGNIN_BURST_FAILURES = 20
    checked = attack(client, "olga", 20, addresses=20)  # one from each: the burst begins
    assert checked == 20
    account = signin_limits.account_key("olga", owner)
    assert signin_limits.in_burst(account)
    # Now twenty more addresses try three times each: two tries are checked, the third not.
    checked = sum(attack_from(client, "olga", attacker(100 + n), 3) for n in range(20))
    assert checked == 40
    assert sign_in(client, "olga", RIGHT, OWNER_ADDRESS)


def attack_from(client, login: str, address: str, tries: int) -> int:
    checked = 0
    for n in range(tries):
        client.logout()
        response = client.post(
            "/accounts/login/", {"login": login, "password": f"x-{n}"}, REMOTE_ADDR=address
        )
        checked += "Too many failed" not in response.content.decode()
    return checked


def test_the_owner_gets_exactly_one_mail_for_a_burst(
    client, owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        attack(client, "olga", 50, addresses=25)
    burst = [m for m in mail.outbox if "failed sign-ins" in m.subject]
    assert len(burst) == 1
    assert burst[0].to == ["olga@example.com"]
    assert "at least 20 times within 15 minutes" in burst[0].body
    assert "/accounts/password/change/" in burst[0].body


def test_a_few_typos_send_no_mail(client, owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        attack(client, "olga", 4, addresses=1)
    assert not [m for m in mail.outbox if "failed sign-ins" in m.subject]


def test_the_owner_reads_it_in_their_language(client, django_capture_on_commit_callbacks):
    UserFactory(username="greta", language="de")
    with django_capture_on_commit_callbacks(execute=True):
        attack(client, "greta", 25, addresses=25)
    [burst] = [m for m in mail.outbox if "greta@example.com" in m.to]
    assert "Anmeldeversuche" in burst.subject


def test_an_unknown_name_is_counted_alike_and_mails_no_one(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        attack(client, "nobody-here", 50, addresses=25)
    assert mail.outbox == []
