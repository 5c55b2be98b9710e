"""The Magnetic Cave game screen: the shared match screen with the cave scene.

Everything but the board (seats and the computer in its worker thread, hint, undo and redo, save and load,
replay, the panels, pause and speed when computers play each other) is ``game.views.match_view.MatchView``.
This module says what a move is in the cave: the cell it fills.  A brick may go only on the leftmost or
rightmost empty cell of a row (``rules.magnetic_cave``); a click anywhere else is refused with the reason and
the cells that row allows.  Before a brick is placed, the cell under the mouse (or under the keyboard's cursor)
shows the brick's ghost, marks the cells it names and says under the cave what it would do: win, block the
opponent's five, threaten five, or leave or open a five for the opponent (``game.scenes.cave_board.preview_cell``,
by the rules' own win test).  The computer keeps to the game's 3-second limit per move.

Keys (``KEY_HELP``, the line under the cave): the arrows move a cell cursor over the whole cave (a frame of
corners, never mistaken for a brick; the legal cells get a dot while it is shown; the mouse hides it), Enter or
Space places a brick on its cell (or says why not).  A cell can be typed: C, then its column letter and row
number ("C A4"), or its row number first ("4A").  The letters are taken only after C or a digit, so A (analysis)
and H (hint) keep their meaning; Backspace takes back a character, Escape ends the typing (and otherwise leaves,
as on every game screen).  The shared keys (H hint, U undo, A analysis, M move list, Tab focus, ...) work as
everywhere.
"""
from __future__ import annotations

import arcade

from game.scenes.cave_board import CellPreview, preview_cell
from game.scenes.cave_scene import CaveScene
from game.views.match_view import MatchView
from rules import Move, State
from rules.magnetic_cave import COLUMN_LETTERS, SIZE, cell_name, legal_mask, mask_cells

Cell = int
_K = arcade.key
KEY_HELP = "Keys: arrows move the cursor, Enter places a brick; or C and a cell (C A4)"
"""The line under the cave while a human chooses (``README.md`` says the same)."""
TYPE_HELP = "a column A-H and a row 1-8 (Escape: stop)"
ARROWS = {_K.LEFT: (-1, 0), _K.RIGHT: (1, 0), _K.UP: (0, 1), _K.DOWN: (0, -1)}
LETTERS = {getattr(_K, letter): column for column, letter in enumerate(COLUMN_LETTERS)}
DIGITS = {**{getattr(_K, f"KEY_{n}"): n for n in range(1, SIZE + 1)},
          **{getattr(_K, f"NUM_{n}"): n for n in range(1, SIZE + 1)}}
ENTER = (_K.ENTER, _K.RETURN, _K.NUM_ENTER)


class CaveView(MatchView):
    """Play one match of Magnetic Cave."""

    scene: CaveScene

    GAME_OVER_DELAY = 1.5  # the winning five pulse a moment before the panel comes
    GAME_OVER_AT_TOP = True

    _described: tuple | None = None
    _preview: CellPreview | None = None
    cell_cursor: Cell | None = None
    """The keyboard's cell (any cell of the cave), None while hidden (before the arrows, after the mouse moves)."""
    typing: bool = False
    """Whether a typed cell is being read (after C or a row digit): the letters A-H are then columns."""
    typed_column: int | None = None
    typed_row: int | None = None

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
        self.say(self.why_not(location), warning=True)

    def why_not(self, location: Cell) -> str:
        """Why no brick can go on ``location`` now (it holds one, or it is not at its row's open end)."""
        state = self.match.state
        name = cell_name(location)
        if state.at(location):
            owner = self.match.game.player_names[state.at(location) - 1]
            return f"{name} already holds a {owner} brick."
        row = location // SIZE
        legal = mask_cells(legal_mask(state.occupied))
        in_row = [cell for cell in legal if cell // SIZE == row]
        allowed = " or ".join(cell_name(cell) for cell in in_row)
        return f"{name} touches neither wall nor a brick beside it: in row {row + 1} a brick can go on {allowed}."

    # -- what is looked at ------------------------------------------------------------------------------------
    @property
    def human_to_choose(self) -> bool:
        """A human chooses the next cell (their turn, no result panel, no replay)."""
        return (self.match.is_human_turn and self._overlay is None and self.controller.replay_index is None
                and not self.match.is_over)

    @property
    def choosing(self) -> bool:
        """A human may look at a cell now: their turn, and no brick sliding."""
        return self.human_to_choose and not self.scene.is_animating

    def _cursor_location(self) -> Cell | None:
        """The keyboard's cell when a brick can go there (glowed as the keyboard's choice)."""
        cell = self.cell_cursor
        return cell if cell is not None and cell in self.legal_locations() else None

    def preview_cell(self) -> Cell | None:
        """The legal cell a human is looking at: the keyboard's cursor while shown, else the cell under the mouse."""
        if not self.choosing:
            return None
        if self.cell_cursor is not None:
            return self._cursor_location()
        hovered = self.scene.location_at(*self.mouse)
        return hovered if hovered in self.legal_locations() else None

    def caption(self, preview: CellPreview | None) -> str:
        """The line under the cave: the typing prompt, the preview, why the cursor's cell is closed, or the keys."""
        if not self.human_to_choose:
            return ""
        if self.typing:
            column = "" if self.typed_column is None else COLUMN_LETTERS[self.typed_column]
            row = "" if self.typed_row is None else str(self.typed_row + 1)
            return f"Type a cell, {TYPE_HELP}: {column or '_'}{row or '_'}"
        if preview is not None:
            return preview.caption
        if self.cell_cursor is not None:
            return self.why_not(self.cell_cursor)
        return "" if self.watching else KEY_HELP

    def on_update(self, delta_time: float) -> None:
        super().on_update(delta_time)
        cell = self.preview_cell()
        if cell is None:
            self._preview = None
        else:
            key = (self.match.state, cell)
            if key != self._described:  # computed once per position and cell
                self._described = key
                self._preview = preview_cell(self.match.game, self.match.state, cell)  # type: ignore[arg-type]
        shown = self.human_to_choose and self.cell_cursor is not None
        self.scene.set_preview(self._preview if cell is not None else None, self.caption(self._preview))
        self.scene.set_cursor(self.cell_cursor if shown else None, self.legal_locations() if shown else (),
                              self.match.to_move)

    # -- input ------------------------------------------------------------------------------------------------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        super().on_mouse_motion(x, y, dx, dy)
        self.cell_cursor = None  # the mouse chooses now: the keyboard's frame goes

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        self.cell_cursor = None
        self._stop_typing()
        return super().on_mouse_press(x, y, button, modifiers)

    def _start_cell(self) -> Cell:
        """Where the cursor appears: on the cell under the mouse, else on the legal cell nearest the cave's
        middle."""
        hovered = self.scene.location_at(*self.mouse)
        if hovered is not None:
            return hovered
        legal = sorted(self.legal_locations()) or [SIZE * SIZE // 2]
        middle = (SIZE - 1) / 2
        return min(legal, key=lambda c: (abs(c // SIZE - middle) + abs(c % SIZE - middle), c))

    def _stop_typing(self) -> None:
        self.typing, self.typed_column, self.typed_row = False, None, None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol == _K.TAB or (self.focus_on_control and (symbol in ARROWS or symbol in ENTER or symbol == _K.SPACE)):
            # Tab focus, and the keys of a focused button: every game screen's (``game.views.focus``)
            self._stop_typing()
            return super().on_key_press(symbol, modifiers)
        if self._overlay is not None:  # the result panel: its keys are every game screen's
            self._stop_typing()
            return super().on_key_press(symbol, modifiers)
        if symbol != _K.ESCAPE and self.scene.is_animating:  # as every key on a game screen: the slide ends first
            self.scene.finish()
            if symbol == _K.SPACE:
                return True
        if self.typing and self._typing_key(symbol):
            return True
        shift = modifiers & _K.MOD_SHIFT
        if symbol in ARROWS and not (shift and self.show_analysis):
            if self.cell_cursor is None:
                self.cell_cursor = self._start_cell()
            else:
                dx, dy = ARROWS[symbol]
                row, column = divmod(self.cell_cursor, SIZE)
                row, column = min(SIZE - 1, max(0, row + dy)), min(SIZE - 1, max(0, column + dx))
                self.cell_cursor = row * SIZE + column
            return True
        if symbol in ENTER or symbol == _K.SPACE:
            if self.cell_cursor is None:
                self.cell_cursor = self._start_cell()  # the first Enter shows where the next one places
            else:
                self.click_location(self.cell_cursor)
            return True
        if symbol == _K.C and not modifiers & (_K.MOD_CTRL | _K.MOD_COMMAND):
            self.typing, self.typed_column, self.typed_row = True, None, None
            return True
        if symbol in DIGITS and not modifiers & (_K.MOD_CTRL | _K.MOD_COMMAND):
            self.typing, self.typed_column, self.typed_row = True, None, DIGITS[symbol] - 1  # "4A" is A4
            self._row_last = True
            return True
        return super().on_key_press(symbol, modifiers)

    def _typing_key(self, symbol: int) -> bool:
        """A key while a cell is typed: True when it was part of the typing (other keys end it, then act)."""
        if symbol == _K.ESCAPE:
            self._stop_typing()
        elif symbol == _K.BACKSPACE:
            if self.typed_row is not None and (self.typed_column is None or self._row_last):
                self.typed_row = None
            elif self.typed_column is not None:
                self.typed_column = None
            else:
                self._stop_typing()
        elif symbol in LETTERS:  # C among them: "C C4" is C4
            self.typed_column, self._row_last = LETTERS[symbol], False
        elif symbol in DIGITS:
            self.typed_row, self._row_last = DIGITS[symbol] - 1, True
        elif symbol in (_K.LSHIFT, _K.RSHIFT, _K.CAPSLOCK):
            pass
        elif symbol in ENTER:
            self.say(f"To place a brick, type {TYPE_HELP}.", warning=True)
        else:
            self._stop_typing()
            return False
        if self.typing and self.typed_column is not None and self.typed_row is not None:
            cell = self.typed_row * SIZE + self.typed_column
            self._stop_typing()
            self.cell_cursor = cell  # the typed cell is where the keyboard is now
            self.click_location(cell)
        return True

    _row_last = False
