"""The Sukothai walkthrough of ``king-of-siam-overview.en.txt`` as a scenario."""

from enginekit import render_english
from siam.engine import ENGINE
from tests.siam.helpers import PASS, counts, pass_all, pick, place, play, position, run, take

TRACK = [
    "sukothai",
    "chiang_mai",
    "korat",
    "ubon",
    "bangkok",
    "ratchaburi",
    "nakhon_si_thammarat",
    "pattani",
]


def test_sukothai_walkthrough():
    st = position(
        players=3,
        track=TRACK,
        provinces={
            "sukothai": "bbyr",  # (1) Blue has the majority with 2 followers
            "chiang_mai": "rrby",
            "korat": "yyb",
            "ubon": "bbr",
            "bangkok": "yyrr",
            "ratchaburi": "bbyr",
            "nakhon_si_thammarat": "rrby",
            "pattani": "bbry",
        },
        followers=["yr", "yr", "bbbb"],  # seat 0 holds playing aid 1 (yellow + red)
    )
    v = ENGINE.view(st, 0)
    assert v["current_province"] == "sukothai" and v["track"][0]["current"]

    # (2)-(3) Khon Thai: a yellow follower to Sukothai, the other two elsewhere,
    # then a blue follower is removed from Sukothai.
    st = run(st, play("khon_thai"))
    st = run(st, place("rama", "sukothai"), place("lao", "korat"), place("malai", "ubon"))
    st = run(st, take("sukothai", "malai"))
    # (4) the player now has one follower of each faction; the card stays face up.
    assert st.followers[0] == [1, 1, 1]
    assert ENGINE.view(st, None)["seats"][0]["played"] == ["khon_thai"]

    # (5)-(6) everybody passes in a row: Rama take Sukothai, it is emptied, tile turned.
    st = pass_all(st)
    assert st.controller["sukothai"] == 0
    assert counts(st, "sukothai") == {"rama": 0, "lao": 0, "malai": 0}
    v = ENGINE.view(st, None)
    assert not v["track"][0]["face_up"] and v["current_province"] == "chiang_mai"

    # Seat 2 gathers a fifth Malai follower on the way.
    st = run(st, PASS, play("two_vs_one"))
    st = run(st, pick("pattani", "lao"), pick("pattani", "rama"))
    st = run(st, pick("nakhon_si_thammarat", "malai"), take("pattani", "malai"))
    assert st.followers[2][2] == 5

    # (7)-(8) the remaining power struggles, the last one ends the game.
    while not st.finished:
        st = pass_all(st)
    res = ENGINE.result(st)
    assert res["details"]["ruling"] == "malai"
    assert res["details"]["provinces"]["malai"] == 3
    assert res["winners"] == [2]
    text = render_english(res["reason"]["key"], res["reason"]["args"])
    assert text == "Malai rule Siam with 3 provinces. 2 wins with 5 Malai followers."
