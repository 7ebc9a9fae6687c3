"""What botplay adds to the frame (``games.extend``): the computer players the frame
seats (a seat the creator gave to a computer, the stand-in for a player who ran out of
time), and the "Suggest a move" button of a practice game."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games import extend

from . import accounts, hints


class ComputerPlayers:
    # What the create form offers, weakest first: (strength, name, what it is like).
    strengths = [
        (
            "random",
            _("a computer player: easy"),
            _("Easy: plays any legal move, at random. For learning the rules."),
        ),
        (
            "greedy",
            _("a computer player: medium"),
            _("Medium: takes the move that looks best right now, without planning ahead."),
        ),
        (
            "strong",
            _("a computer player: hard"),
            _("Hard: looks ahead by trying out many continuations of the game."),
        ),
    ]
    stand_in_strength = accounts.STAND_IN_STRENGTH

    def account(self, strength: str, taken_user_ids: list[int]):
        return accounts.free_bot_user(strength, taken_user_ids)


def register() -> None:
    extend.set_computer_players(ComputerPlayers())
    extend.add_part("game-header", "botplay/_hint.html", hints.hint_part)
