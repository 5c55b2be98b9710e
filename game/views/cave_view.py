"""The Magnetic Cave game screen: the shared match screen with the cave scene.

Everything but the board (seats and the computer in its worker thread, hint, undo and redo, save and load,
replay, the panels, pause and speed when computers play each other) is ``game.views.match_view.MatchView``.
This module says what a move is in the cave: the cell it fills.  A brick may go only on the leftmost or
rightmost empty cell of a row (``rules.magnetic_cave``); a click anywhere else is refused with the reason and
the cells that row allows.  Before a brick is placed, the cell under the mouse (or picked by the keys) shows the
brick's ghost, marks the cells it names and says under the cave what it would do: win, block the opponent's
five, threaten five, or leave or open a five for the opponent (``game.scenes.cave_board.preview_cell``, by the
rules' own win test).  The computer keeps to the game's 3-second limit per move.  Keys: Left/Right pick among
the legal cells, Enter plays, and the shared keys (H hint, U undo, ...) as on every game screen.
"""
from __future__ import annotations

from game.scenes.cave_board import CellPreview, preview_cell
from game.scenes.cave_scene import CaveScene
from game.views.match_view import MatchView
from rules import Move, State
from rules.magnetic_cave import SIZE, cell_name, legal_mask, mask_cells

Cell = int


class CaveView(MatchView):
    """Play one match of Magnetic Cave."""

    scene: CaveScene

    GAME_OVER_DELAY = 1.5  # the winning five pulse a moment before the panel comes
    GAME_OVER_AT_TOP = True

    _described: tuple | None = None
    _preview: CellPreview | None = None

    def make_scene(self) -> CaveScene:
        return CaveScene(self.match.game)  # type: ignore[arg-type]

    def show_state(self, state: State) -> None:
        self.scene.show(state)  # type: ignore[arg-type]

    def animate_move(self, before: State, move: Move, after: State) -> None:
        labels = []
        if after.winner is not None:  # type: ignore[attr-defined]
            labels.append(f"{self.match.game.player_names[after.winner]}: five in a row")  # type: ignore[attr-defined]
        elif self.match.game.is_terminal(after):
            labels.append("The cave is full: a tie")
        if self.context.settings.get("skip_animations"):
            self.scene.show(after)  # type: ignore[arg-type]
            for label in labels:
                self.toast(label)
        else:
            self.scene.place(before, move, after, labels)  # type: ignore[arg-type]

    def move_location(self, before: State, move: Move) -> Cell:
        return int(move)  # type: ignore[call-overload]

    def refuse(self, location: Cell) -> None:
        state = self.match.state
        name = cell_name(location)
        if state.at(location):
            owner = self.match.game.player_names[state.at(location) - 1]
            self.say(f"{name} already holds a {owner} brick.", warning=True)
            return
        row = location // SIZE
        legal = mask_cells(legal_mask(state.occupied))
        in_row = [cell for cell in legal if cell // SIZE == row]
        allowed = " or ".join(cell_name(cell) for cell in in_row)
        self.say(f"{name} touches neither wall nor a brick beside it: in row {row + 1} a brick can go on {allowed}.",
                 warning=True)

    def preview_cell(self) -> Cell | None:
        """The legal cell a human is looking at: under the mouse, else the keyboard's selection."""
        if not self.match.is_human_turn or self._overlay is not None or self.scene.is_animating:
            return None
        legal = self.legal_locations()
        hovered = self.scene.location_at(*self.mouse)
        return hovered if hovered in legal else self._cursor_location()

    def on_update(self, delta_time: float) -> None:
        super().on_update(delta_time)
        cell = self.preview_cell()
        if cell is None:
            self.scene.set_preview(None)
            return
        key = (self.match.state, cell)
        if key != self._described:  # computed once per position and cell
            self._described = key
            self._preview = preview_cell(self.match.game, self.match.state, cell)  # type: ignore[arg-type]
        self.scene.set_preview(self._preview)
