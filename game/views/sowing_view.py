"""The game screen for the sowing games (Kalah, Oware, Hus): the shared match screen with a sowing board.

Everything but the board (the computer in its worker thread, undo and redo, save, hint, replay, the panels,
the bottom bar) is ``game.views.match_view.MatchView``; this module says what a move is on a board of pits:
move ``m`` of player ``p`` is the pit ``p * per_player + m``, a move animates as laps of sowing and captures
(``plan_move``).

Keys added: the digits 1-9 play that pit of the side to move (two-row boards).
"""
from __future__ import annotations

import arcade

from game.explain import move_name
from game.scenes.sowing_board import BoardSpec, Location, plan_move
from game.scenes.sowing_scene import SowingScene
from game.views.match_view import SPEEDS, MatchView
from rules import Move, State

__all__ = ["SowingView", "SPEEDS"]


class SowingView(MatchView):
    """Play one match of a sowing game."""

    scene: SowingScene

    def make_scene(self) -> SowingScene:
        self.spec = BoardSpec.of(self.match.game, self.match.state)
        return SowingScene(self.spec)

    def show_state(self, state: State) -> None:
        self.scene.show(self.spec.counts(state))

    def animate_move(self, before: State, move: Move, after: State) -> None:
        plan = plan_move(self.match.game, before, move, after, self.spec)
        if self.context.settings.get("skip_animations"):
            self.scene.show(self.spec.counts(after))
            for label in plan.labels:
                self.toast(label)
        else:
            self.scene.animate(plan)

    def move_location(self, before: State, move: Move) -> Location:
        return self.spec.move_location(self.match.game.to_move(before), move)

    def refuse(self, location: Location) -> None:
        names = self.match.game.player_names
        if self.spec.is_store(location):
            self.say("Stores cannot be sown: click one of your own pits.")
        elif self.spec.owner(location) != self.match.to_move:
            self.say(f"That pit is {names[1 - self.match.to_move]}'s: click one of yours.")
        else:
            game, state = self.match.game, self.match.state
            pits = ", ".join(move_name(game, state, move) for move in self.match.legal_moves)
            self.say(f"That pit is empty or cannot be played now (legal: {pits}).", warning=True)

    def extra_key(self, symbol: int, modifiers: int) -> bool:
        if arcade.key.KEY_1 <= symbol <= arcade.key.KEY_9 and self.spec.rows == 2:
            pit = symbol - arcade.key.KEY_1
            if pit < self.spec.per_player and not self.match.is_over:
                self.click_location(self.spec.move_location(self.match.to_move, pit))
            return True
        return False
