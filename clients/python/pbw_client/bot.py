"""A player that takes its turns in every game of its token's account."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .client import ApiError, Client

# (the game as the API shows it to this account, ``Client.game``: its ``view`` is the
# engine's view for the bot's seat, whose ``actions`` are the actions offered, each
# {"action", "label"}; a salt that names the position) -> one of the offered actions
Strategy = Callable[[dict[str, Any], str], dict[str, Any]]


class Bot:
    """``accepts(challenge)``: whether to take up a challenge (an invitation: its game's
    ``kind`` and ``players``, who sent it ``by``); the others are declined."""

    def __init__(
        self,
        client: Client,
        choose: Strategy,
        accepts: Callable[[dict[str, Any]], bool] = lambda challenge: True,
    ) -> None:
        self.client, self.choose, self.accepts = client, choose, accepts

    def answer_challenges(self) -> None:
        for challenge in self.client.challenges():
            try:
                if self.accepts(challenge):
                    self.client.accept(challenge["id"])
                else:
                    self.client.decline(challenge["id"])
            except ApiError:
                pass  # the game started or went meanwhile: nothing to answer

    def take_turns(self) -> int:
        """Act in every game that waits for this account until none does; the actions made."""
        made = 0
        while True:
            waiting = [g for g in self.client.my_games() if g["my_turn"]]
            if not waiting:
                return made
            for game in waiting:
                made += self.play_turn(game["id"])

    def play_turn(self, game_id: int) -> int:
        made = 0
        while True:
            game = self.client.game(game_id)
            if not (game["view"] or {}).get("actions"):
                return made
            action = self.choose(game, f"{game_id}:{game['token']}")
            try:
                self.client.act(game_id, action, game["token"])
            except ApiError as error:
                if error.code != "stale_version":  # the position moved on: look again
                    raise
            made += 1

    def run(self, until: Callable[[], bool] = lambda: False) -> None:
        """Play now, then on every event that may be a turn or a challenge, until ``until()``."""
        self.answer_challenges()
        self.take_turns()
        for event in self.client.events():
            if until():
                return
            if event.event == "invitation":
                self.answer_challenges()
            if event.event in ("my_turn", "game", "invitation"):
                self.take_turns()
