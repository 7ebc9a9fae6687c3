"""What a restore must keep, as JSON: the rows of every table and a game page as drawn.

Run in a process of its own against the database DATABASE_URL names:
    python -m tests.deploy.snapshot
The restore drill (test_restore_drill.py) compares its output for the database backed
up and the one restored from the backup.
"""

import json
import os
import re

# Tokens that differ with every page drawn, whatever the database holds: CSRF tokens,
# nonces, and the request id each page gives its forms (a post runs once per id).
VOLATILE = [
    (re.compile(r'(name="request_id" value=")[^"]*'), r"\1"),
    (re.compile(r'(data-request-id=")[^"]*'), r"\1"),
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*'), r"\1"),
    (re.compile(r'("X-CSRFToken"\s*:\s*")[^"]*'), r"\1"),
    (re.compile(r'(nonce=")[^"]*'), r"\1"),
]


def without_volatile(html: str) -> str:
    for pattern, replacement in VOLATILE:
        html = pattern.sub(replacement, html)
    return html


def rows() -> dict[str, int]:
    from django.db import connection

    with connection.cursor() as cursor:
        counts = {}
        for table in sorted(connection.introspection.table_names(cursor)):
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def sequences() -> dict[str, int]:
    """PostgreSQL's id counters: a restored site must not hand out an id again."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT sequencename, last_value FROM pg_sequences ORDER BY 1")
        return dict(cursor.fetchall())


def game_page() -> str:
    """The first running game's page as its first seat's player sees it (their hand
    included), drawn afresh."""
    from django.test import Client

    from games.models import Game

    game = Game.objects.filter(status=Game.Status.ACTIVE).order_by("pk").first()
    seat = game.seats.order_by("number").first()
    client = Client()
    client.force_login(seat.user)
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200, response.status_code
    return without_volatile(response.content.decode())


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    # Counted before the page: signing the viewer in writes a session row.
    snapshot = {"rows": rows(), "sequences": sequences()}
    snapshot["page"] = game_page()
    print(json.dumps(snapshot))


if __name__ == "__main__":
    main()
