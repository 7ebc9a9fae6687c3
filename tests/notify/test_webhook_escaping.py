"""What players write (names, game titles, chat, tournament names) reaches a chat
service as text: no channel ping, no hidden link, no markup, no HTML. The only mention
a post makes is the one the site means: the configured handle of the player to move."""

import pytest

from notify import webhooks
from notify.models import Handle

from .conftest import add_hook, drain, turn

pytestmark = pytest.mark.django_db

SLACK_NAME = "<!channel> <https://ev.il|Your turn>"
DISCORD_NAME = "@everyone [Your turn](https://ev.il) **<@&42>**"
MATRIX_NAME = "@room <a href='https://ev.il'>Your turn</a>"
J = "\u2060"  # the word joiner that breaks a mention after "@"


def ping(name: str, title: str = "Game", handle: str = "") -> webhooks.Ping:
    return webhooks.Ping(
        event="turn",
        title=f"To move in “{title}”:",
        lines=[f"{name} moved."],
        url="https://pbw.example/g/7/?t=a_b-c&x=1",
        to_move=[webhooks.Person(name, handle)],
    )


def test_slack_shows_the_channel_ping_and_the_hidden_link_as_text():
    body = webhooks.body(ping(SLACK_NAME), "slack", "1")
    assert body == {
        "text": "To move in “Game”:\n"
        "&lt;!channel&gt; &lt;https://ev.il|Your turn&gt;\n"
        "&lt;!channel&gt; &lt;https://ev.il|Your turn&gt; moved.\n"
        "https://pbw.example/g/7/?t=a_b-c&amp;x=1"
    }


def test_slack_still_mentions_the_player_by_their_member_id():
    body = webhooks.body(ping(SLACK_NAME, handle="U024BE7LH"), "slack", "1")
    assert body["text"].split("\n")[1] == "<@U024BE7LH>"


def test_discord_escapes_markdown_and_masked_links_and_pings_no_one_but_the_player():
    body = webhooks.body(ping(DISCORD_NAME, title="*big* `x` ~y~ |z| # - > _"), "discord", "1")
    name = rf"@{J}everyone \[Your turn\]\(https://ev.il\) \*\*\<@{J}&42\>\*\*"
    assert body == {
        "content": rf"To move in “\*big\* \`x\` \~y\~ \|z\| \# \- \> \_”:"
        f"\n{name}\n{name} moved.\nhttps://pbw.example/g/7/?t=a_b-c&x=1",
        "allowed_mentions": {"parse": [], "users": []},
    }


def test_discord_here_and_a_users_mention_in_a_name_are_broken():
    body = webhooks.body(ping("@here <@123456789012>"), "discord", "1")
    assert body["content"].split("\n")[1] == rf"@{J}here \<@{J}123456789012\>"


def test_discord_keeps_the_mention_the_site_means():
    body = webhooks.body(ping(DISCORD_NAME, handle="123456789012"), "discord", "1")
    assert body["content"].split("\n")[1] == "<@123456789012>"
    assert body["allowed_mentions"] == {"parse": [], "users": ["123456789012"]}


def test_matrix_escapes_the_html_body_and_breaks_room_mentions():
    body = webhooks.body(ping(MATRIX_NAME, title="<b>Bold</b> & co"), "matrix", "1")
    plain_name = f"@{J}room <a href='https://ev.il'>Your turn</a>"
    html_name = f"@{J}room &lt;a href=&#x27;https://ev.il&#x27;&gt;Your turn&lt;/a&gt;"
    url = "https://pbw.example/g/7/?t=a_b-c&x=1"
    assert body == {
        "text": f"To move in “<b>Bold</b> & co”:\n{plain_name}\n{plain_name} moved.\n{url}",
        "html": "To move in “&lt;b&gt;Bold&lt;/b&gt; &amp; co”:"
        f"<br>{html_name}<br>{html_name} moved."
        '<br><a href="https://pbw.example/g/7/?t=a_b-c&amp;x=1">'
        "https://pbw.example/g/7/?t=a_b-c&amp;x=1</a>",
        "username": "Play by Web",
        "m.mentions": {},
    }


def test_matrix_mentions_only_the_players_own_user_id():
    body = webhooks.body(ping(MATRIX_NAME, handle="@bert:matrix.org"), "matrix", "1")
    assert body["text"].split("\n")[1] == "@bert:matrix.org"
    assert body["html"].split("<br>")[1] == "@bert:matrix.org"
    assert body["m.mentions"] == {"user_ids": ["@bert:matrix.org"]}


def test_the_signed_json_carries_the_text_as_it_was_written():
    body = webhooks.body(ping(SLACK_NAME), "json", "1")
    assert body["to_move"] == [{"name": SLACK_NAME, "handle": ""}]
    assert body["lines"] == [f"{SLACK_NAME} moved."]
    assert body["text"].split("\n")[1] == SLACK_NAME


def test_a_hostile_name_and_title_reach_each_service_inert(
    count_kind, anna, bert, hooks, local_targets, clock
):
    """End to end: a game channel's posts name the players and the game's title."""
    from games import play

    bert.display_name = SLACK_NAME
    bert.save()
    game = play.create_game(
        anna, count_kind, title="<!here>", players=2, options={}, time_limit_days=3, private=False
    )
    slack, discord, matrix = hooks(), hooks(), hooks()
    add_hook(anna, slack.url, service="slack", game=game, events=["turn", "game"])
    add_hook(bert, discord.url, service="discord")
    add_hook(bert, matrix.url, service="matrix")
    Handle.objects.create(user=bert, service="discord", handle="123456789012")
    play.join(game.pk, bert)
    game.refresh_from_db()
    first = game.seats.get(to_move=True).user
    drain()
    if first == bert:
        turn(game, bert)
        drain()
    turn(game, anna)
    drain()
    texts = "\n".join(b["text"] for b in slack.bodies())
    assert "&lt;!channel&gt; &lt;https://ev.il|Your turn&gt;" in texts
    assert "“&lt;!here&gt;”" in texts
    assert "<!" not in texts and "|Your turn>" not in texts
    contents = [b["content"] for b in discord.bodies()]
    assert contents and all(c.split("\n")[1] == "<@123456789012>" for c in contents)
    assert all(
        b["allowed_mentions"] == {"parse": [], "users": ["123456789012"]} for b in discord.bodies()
    )
    for body in matrix.bodies():
        assert "<" not in body["html"].replace("<br>", "").replace("<a href=", "").replace(
            "</a>", ""
        )
        assert body["m.mentions"] == {}
