"""The game screen for the sowing games (Kalah, Oware, Hus): the shared match screen with a sowing board.

Everything but the board (the computer in its worker thread, undo and redo, save, hint, replay, the panels,
the bottom bar) is ``game.views.match_view.MatchView``; this module says what a move is on a board of pits:
move ``m`` of player ``p`` is the pit ``p * per_player + m``, a move animates as laps of sowing and captures
(``plan_move``).

The board says whose side is whose ("South (you)", "North (computer)") and, while a human looks at one of
their legal pits (mouse or Left/Right, which step through the pits as they stand on the screen), what it would
do: ``game.scenes.sowing_board.preview_move`` on the rules, drawn by the scene, captioned under the board.

Keys added: a pit's number, as drawn on the board (1.. from the mover's own left), plays it.  Where a side has
more than nine pits (Hus: 32) a first digit that can begin a longer number waits ``KEY_WAIT`` seconds for a
second one (or Enter), and the line under the board says so.
"""
from __future__ import annotations

import arcade

from game.scenes.sowing_board import (BoardSpec, Location, Preview, pit_location, pit_number, plan_move,
                                      preview_move)
from game.scenes.sowing_scene import SowingScene
from game.views.match_view import SPEEDS, MatchView
from rules import Move, State

__all__ = ["SowingView", "SPEEDS", "KEY_WAIT"]

KEY_WAIT = 0.9
"""Seconds a first digit waits for a second one when the pit number could go on (Hus: 1 may become 17)."""
DIGITS = {**{getattr(arcade.key, f"KEY_{d}"): d for d in range(10)},
          **{getattr(arcade.key, f"NUM_{d}"): d for d in range(10)}}


class SowingView(MatchView):
    """Play one match of a sowing game."""

    scene: SowingScene

    typed = ""
    """Digits typed towards a pit number, waiting for another digit (Hus)."""
    typed_at = 0.0
    typed_in: State | None = None
    """The position the digits were typed in: they lapse if it changes (a click, undo, the computer's move)."""
    _preview: Preview | None = None
    _preview_for: tuple | None = None

    @property
    def wide_board(self) -> bool:
        return self.spec.columns > 8

    def make_scene(self) -> SowingScene:
        self.spec = BoardSpec.of(self.match.game, self.match.state)
        return SowingScene(self.spec, words=True)

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
            # The numbers drawn on the board, which the keys type too (a legal location is a pit, never a store).
            numbers = sorted(number for legal in self.legal_locations()
                             if (number := pit_number(self.spec, legal)) is not None)
            self.say(f"Pit {pit_number(self.spec, location)} cannot be played now; you can play pit"
                     f"{'s' if len(numbers) != 1 else ''} {', '.join(map(str, numbers))}.", warning=True)

    # -- words on the board ------------------------------------------------------------------------------------
    def side_labels(self) -> tuple[tuple[str, str], tuple[str, str]]:
        """Each side's name with who plays it ("you" against the computer), and the bare names for the stores."""
        names = tuple(self.match.game.player_names)
        humans = sum(seat.is_human for seat in self.match.seats)

        def who(player: int) -> str:
            if not self.match.seat(player).is_human:
                return f"{names[player]} (computer)"
            return f"{names[player]} (you)" if humans == 1 else names[player]

        return (who(0), who(1)), (names[0], names[1])

    def key_help(self) -> str:
        """How to choose a pit from the keyboard, for the line under the board."""
        per = self.spec.per_player
        if self.typed:
            return f"Pit {self.typed}...: type a second digit, or Enter to play pit {self.typed}"
        if per > 9:
            return f"Keys: type a pit's number (1-{per}; two digits quickly for 10-{per}), or Left/Right then Enter"
        return f"Keys: 1-{per} play that pit, or Left/Right then Enter"

    def on_update(self, delta_time: float) -> None:
        super().on_update(delta_time)
        if self.typed and self.typed_in is not self.match.state:
            self.typed = ""
        if self.typed and self.clock - self.typed_at >= KEY_WAIT:
            self._play_typed()
        labels, names = self.side_labels()
        mover = self.match.to_move if self.match.is_human_turn and not self.match.is_over else None
        self.scene.set_sides(labels, names, mover)
        preview = self.preview()
        self.scene.set_preview(preview)
        caption = preview.caption if preview is not None and not self.typed else self.key_help()
        replaying = self.controller.replay_index is not None
        self.scene.set_caption(caption if mover is not None and not self.watching and not replaying else "")

    def preview_location(self) -> Location | None:
        """The legal pit a human is looking at: under the mouse, else the keyboard's selection."""
        if not self.match.is_human_turn or self._overlay is not None or self.scene.is_animating:
            return None
        legal = self.legal_locations()
        hovered = self.scene.location_at(*self.mouse)
        return hovered if hovered in legal else self._cursor_location()

    def preview(self) -> Preview | None:
        """What the pit looked at would do (computed once per position and pit)."""
        location = self.preview_location()
        if location is None:
            return None
        key = (self.match.state, location)
        if key != self._preview_for:
            move = self.legal_locations()[location]
            self._preview_for = key
            self._preview = preview_move(self.match.game, self.match.state, move, self.spec)
        return self._preview

    # -- keys -------------------------------------------------------------------------------------------------
    def extra_key(self, symbol: int, modifiers: int) -> bool:
        digit = DIGITS.get(symbol)
        if digit is None:
            return False
        if self.match.is_over:
            return True
        per = self.spec.per_player
        typed = self.typed + str(digit)
        if typed == "0":
            self.say(f"Pits are numbered 1-{per} from your left.")
            return True
        self.typed, self.typed_at, self.typed_in = typed, self.clock, self.match.state
        if len(typed) >= len(str(per)) or int(typed) * 10 > per:
            self._play_typed()  # no longer pit number begins with these digits
        else:
            self._select_typed()
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if self.typed and symbol in (arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER):
            self._play_typed()
            return True
        if self.typed and symbol not in DIGITS:
            self.typed = ""
        return super().on_key_press(symbol, modifiers)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        self.typed = ""  # a click chooses instead
        return super().on_mouse_press(x, y, button, modifiers)

    def _typed_location(self, typed: str) -> Location | None:
        return pit_location(self.spec, self.match.to_move, int(typed))

    def _cursor_order(self) -> list[Location]:
        """The legal pits in the order Left/Right step through them: as they stand on the screen, each row left to
        right from the bottom row up (so Right always moves right, whichever side is to move)."""
        places = self.scene.layout.places if self.scene.layout is not None else {}
        return sorted(self.legal_locations(),
                      key=lambda location: (round(places[location].y), places[location].x) if places else location)

    def _cursor_location(self) -> Location | None:
        legal = self._cursor_order()
        if not legal or self.cursor < 0:
            return None
        return legal[self.cursor % len(legal)]

    def _select_typed(self) -> None:
        """Show the pit typed so far as the keyboard's selection (its preview), while a second digit may come."""
        location = self._typed_location(self.typed)
        legal = self._cursor_order()
        if location in legal:
            self.cursor = legal.index(location)

    def _play_typed(self) -> None:
        typed, self.typed = self.typed, ""
        location = self._typed_location(typed) if typed else None
        if location is None:
            if typed:
                self.say(f"There is no pit {typed}: your pits are 1-{self.spec.per_player}, from your left.",
                         warning=True)
            return
        self.click_location(location)
