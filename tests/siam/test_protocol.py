"""The enginekit protocol: apply, IllegalAction, undo, view, log."""

import json
import pickle

import pytest

from enginekit import IllegalAction, render_english
from siam.engine import ENGINE
from tests.siam.helpers import PASS, legal, pass_all, pick, place, play, position, run, take

SEED = 2024


def test_apply_returns_a_new_state_and_leaves_the_input_alone():
    st = ENGINE.setup(3, {}, SEED)
    before = pickle.dumps(st)
    (seat,) = ENGINE.active_seats(st)
    new = ENGINE.apply(st, seat, play("khon_thai"))
    assert new is not st and pickle.dumps(st) == before
    assert new.pending is not None


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (None, "This move is not understood."),
        ({"card": "rama"}, "This move is not understood."),
        ({"type": "fly"}, "Play a card or pass."),
        ({"type": "play", "card": "joker"}, "There is no such card."),
        ({"type": "take", "province": "korat", "faction": "lao"}, "Play a card or pass."),
        ({"type": "pass", "extra": 1}, "This move is not possible now."),
    ],
)
def test_malformed_and_illegal_actions_are_refused(action, message):
    st = ENGINE.setup(3, {}, SEED)
    before = pickle.dumps(st)
    (seat,) = ENGINE.active_seats(st)
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(st, seat, action)
    assert str(err.value) == message
    assert pickle.dumps(st) == before


def test_out_of_turn_is_refused():
    st = ENGINE.setup(3, {}, SEED)
    (seat,) = ENGINE.active_seats(st)
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(st, (seat + 1) % 3, PASS)
    assert ENGINE.legal_actions(st, (seat + 1) % 3) == []


def test_card_not_in_hand_and_passing_mid_card_are_refused():
    st = position(hands=[["rama"], ["lao"], ["malai"]], provinces={"sukothai": "y"})
    with pytest.raises(IllegalAction, match="no Lao card left"):
        run(st, play("lao"))
    st = run(st, play("rama"))
    with pytest.raises(IllegalAction, match="Finish the card"):
        run(st, PASS)
    with pytest.raises(IllegalAction, match="cannot be placed"):
        run(st, place("rama", "pattani"))


def test_finished_game_refuses_everything():
    st = position(controllers={"chiang_mai": "british", "sukothai": "british", "korat": "british"})
    st = pass_all(st)
    assert st.finished
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(st, 0, PASS)
    assert all(ENGINE.legal_actions(st, s) == [] for s in range(3))


def test_can_undo_within_a_card_but_not_after_the_turn_is_handed_over():
    st = position(provinces={"chiang_mai": "rr", "pattani": "b"})
    assert not ENGINE.can_undo(st, 0)
    st = run(st, play("one_vs_one"))
    assert ENGINE.can_undo(st, 0) and not ENGINE.can_undo(st, 1)
    st = run(st, pick("chiang_mai", "lao"))
    assert ENGINE.can_undo(st, 0)
    st = run(st, pick("pattani", "malai"), take("pattani", "lao"))
    assert not ENGINE.can_undo(st, 0)
    st = run(st, PASS)
    assert not ENGINE.can_undo(st, 1)


def test_card_whose_steps_are_all_skipped_hands_over_at_once():
    st = position(supply="")
    st = run(st, play("khon_thai"))
    assert ENGINE.active_seats(st) == {1} and not ENGINE.can_undo(st, 0)


def test_view_is_json_and_has_the_board():
    st = ENGINE.setup(4, {"map": "siam"}, SEED)
    (seat,) = ENGINE.active_seats(st)
    v = ENGINE.view(st, seat)
    json.dumps(v)
    assert v["map"] == "siam" and v["map_name"] == "King of Siam"
    assert [f["id"] for f in v["factions"]] == ["rama", "lao", "malai"]
    assert v["invader"] == {"id": "british", "name": "British"}
    assert len(v["provinces"]) == 8 and len(v["track"]) == 8
    assert v["track"][0]["current"] and v["current_province"] == v["track"][0]["province"]
    assert v["adjacency"]["ubon"] == ["korat"]
    assert v["teams"] == [[0, 2], [1, 3]] and v["seats"][1]["partner"] == 3
    assert sum(v["supply"].values()) == 54 - 32 - 8
    assert v["active_seats"] == [seat] and v["prompt"]["key"] == "Play an action card or pass."
    assert [a["action"] for a in v["actions"]] == ENGINE.legal_actions(st, seat)
    label = v["actions"][0]["label"]
    assert render_english(label["key"], label["args"]) == "Play Maharacha"
    other = ENGINE.view(st, (seat + 1) % 4)
    assert other["prompt"] is None and other["actions"] == []
    spectator = ENGINE.view(st, None)
    assert spectator["actions"] == [] and not spectator["finished"]
    assert "seed" not in json.dumps(v) and str(SEED) not in json.dumps(v)


def test_saba_view_uses_its_own_names():
    st = ENGINE.setup(3, {"map": "saba"}, SEED)
    v = ENGINE.view(st, None)
    assert [f["name"] for f in v["factions"]] == ["Amhara", "Tigray", "Shewa"]
    assert [f["colour"] for f in v["factions"]] == ["yellow", "red", "green"]
    assert v["invader"]["name"] == "Italians"
    assert {c["name"] for c in v["cards"]} == {
        "Saba",
        "Ityoppaya",
        "1 vs 1",
        "2 vs 1",
        "Amhara",
        "Tigray",
        "Shewa",
    }
    assert {p["id"]: p["home_of"] for p in v["provinces"]}["begemder"] == "amhara"


def test_view_shows_played_cards_passes_and_the_card_in_progress():
    st = position(provinces={"chiang_mai": "rr", "pattani": "b"})
    st = run(st, play("one_vs_one"), pick("chiang_mai", "lao"))
    v = ENGINE.view(st, 0)
    assert v["pending"]["card"] == "one_vs_one" and v["pending"]["stage"] == "swap"
    assert v["pending"]["picks"] == [{"province": "chiang_mai", "faction": "lao"}]
    assert v["seats"][0]["played"] == ["one_vs_one"] and v["seats"][0]["cards_left_count"] == 7
    st = run(st, pick("pattani", "malai"), take("pattani", "lao"), PASS)
    v = ENGINE.view(st, None)
    assert v["seats"][1]["passed"] and v["passes"] == 1
    assert v["no_undo"]["card"] == "one_vs_one"


def test_log_records_every_action_with_its_move_number():
    st = position(provinces={"chiang_mai": "rr", "pattani": "b"})
    st = run(st, play("one_vs_one"), pick("chiang_mai", "lao"), pick("pattani", "malai"))
    st = run(st, take("pattani", "lao"))
    texts = [(e["move"], render_english(e["key"], e["args"])) for e in st.log]
    assert texts == [
        (1, "0 plays 1 vs 1."),
        (2, "0 chooses one Lao follower in Chiang Mai."),
        (3, "0 chooses one Malai follower in Pattani."),
        (3, "0 swaps Lao from Chiang Mai ⇄ Malai from Pattani."),
        (4, "0 takes one Lao follower from Pattani."),
    ]
    assert all(isinstance(e["args"]["player"], int) for e in st.log)


def test_setup_log_entries_have_move_zero():
    st = ENGINE.setup(2, {}, SEED)
    assert st.log and all(e["move"] == 0 for e in st.log)


def test_illegal_action_message_for_an_undo_swap_names_the_card():
    st = position(provinces={"chiang_mai": "r", "pattani": "b", "korat": "yy"})
    st = run(st, play("one_vs_one"), pick("chiang_mai", "lao"), pick("pattani", "malai"))
    st = run(st, take("korat", "rama"), play("one_vs_one"), pick("chiang_mai", "malai"))
    with pytest.raises(IllegalAction) as err:
        run(st, pick("pattani", "lao"))
    assert err.value.message["args"] == {"card": "1 vs 1"}
    assert legal(st)
