"""Puzzles: the Solitaire Mancala levels by variant and difficulty, each with its best result, and random deals.

Levels come from ``levels/solitaire/*.yaml`` (a file that cannot be used is reported at the bottom of the
screen; the others are listed), easiest first within each variant as their measured difficulty orders them,
split into thirds: easy, medium, hard.  Each row shows the best result so far from ``game.records`` (stones
stored against par, or cleared, with the number of rounds).  Below: a random deal of either variant from a
seed, and the engine hints and watching use (chosen in Settings, else the registry's strongest solver).
Continue saved opens the newest puzzle saved from the puzzle screen (Ctrl+S there), where it was left.

The level list is drawn directly (one batch of texts, a highlight under the mouse) rather than as 32 widgets,
which would cost far more to build; a click on a row opens the level.  Keys: Up/Down and Enter pick a level,
Escape goes back to the title screen.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

import arcade
import arcade.gui
import pyglet

from game import theme
from game.context import AppContext
from game.records import RecordsStore, deal_key
from game.puzzle_search import engine_spec, engine_title
from game.puzzle_session import Puzzle
from game.views.base import MenuView
from game.views.widgets import Choice, Stepper
from levels.solitaire import VARIANTS, Level, load_levels
from rules.solitaire import CEILING, Solitaire

ROW_HEIGHT = 25
GROUPS = ("Easy", "Medium", "Hard")
VARIANT_HEADINGS = {
    "dose": ("Source rules (dose)", "No deal can be cleared: store as many as you can; par 46 is perfect."),
    "lewis": ("Lewis's variant", "Setting aside at a row end is a choice: clear the board to win."),
}
MAX_SEED = 999_999


@dataclass(frozen=True)
class LevelRow:
    """A level's row on screen: the level and its rectangle (left, bottom, width, height)."""

    level: Level
    rect: tuple[float, float, float, float]

    def contains(self, x: float, y: float) -> bool:
        left, bottom, width, height = self.rect
        return left <= x <= left + width and bottom <= y <= bottom + height

    @property
    def centre(self) -> tuple[float, float]:
        left, bottom, width, height = self.rect
        return left + width / 2, bottom + height / 2


def difficulty_groups(levels: list[Level]) -> list[tuple[str, list[Level]]]:
    """One variant's levels (easiest first) split into thirds: Easy, Medium, Hard (empty groups left out)."""
    groups: list[tuple[str, list[Level]]] = [(name, []) for name in GROUPS]
    for index, level in enumerate(levels):
        groups[index * len(GROUPS) // max(1, len(levels))][1].append(level)
    return [(name, members) for name, members in groups if members]


@lru_cache(maxsize=1)
def _load_levels() -> tuple[list[Level], list[str]]:
    """The level files, read once a session (they ship with the game; reading all takes a noticeable moment)."""
    return load_levels()


class PuzzlesView(MenuView):
    """The list of Solitaire Mancala puzzles and the random-deal controls."""

    heading = "Puzzles: Solitaire Mancala"

    def __init__(self, context: AppContext, records: RecordsStore | None = None) -> None:
        self.levels, level_problems = _load_levels()
        problems = list(level_problems)
        if records is None:
            records = RecordsStore(context.store.directory)
            problems += records.load()
        self.records = records
        self.rows: list[LevelRow] = []
        self.cursor = -1
        self.mouse = (0.0, 0.0)
        self.deal_variant = "dose"
        self.seed = random.Random().randrange(1, MAX_SEED)
        self._batch = pyglet.graphics.Batch()
        self._texts: list[arcade.Text] = []
        self._group_lines: list[tuple[float, float, float]] = []
        self.engine = engine_spec(context.settings, Solitaire(), "hint")
        self._engine_text = arcade.Text("", 0, 0, theme.TEXT_DIM, 12, font_name=theme.BODY_FONT, anchor_x="center")
        self._deal_best = arcade.Text("", 0, 0, theme.TEXT_DIM, 12, font_name=theme.BODY_FONT, anchor_x="left",
                                      anchor_y="center")
        super().__init__(context)
        notices = problems + context.notices
        context.notices.clear()
        if notices:
            self.message("\n".join(notices), warning=True)

    # -- building ---------------------------------------------------------------------------------------------
    def build(self) -> None:
        width, height = self.window.width, self.window.height
        self._layout_rows(width, height)
        row = arcade.gui.UIBoxLayout(vertical=False, space_between=12)
        row.add(theme.label("Random deal", 16, theme.ACCENTS[0], title=True))
        self.variant_choice = Choice([(v, VARIANT_HEADINGS[v][0]) for v in VARIANTS], self.deal_variant,
                                     self._set_variant, width=230, name="variant")
        self.seed_stepper = Stepper(self.seed, 1, MAX_SEED, 1, self._set_seed, whole=True, width=290, name="seed")
        row.add(self.variant_choice)
        row.add(self.seed_stepper)
        row.add(self.on_click(theme.button("Deal", width=110, height=40, font_size=14), self.play_deal))
        resume = theme.button("Continue saved", width=210, height=40, font_size=14)
        row.add(self.on_click(resume, self.continue_saved))
        row.add(self.on_click(theme.button("Back", width=110, height=40, font_size=14), self.back))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(row, anchor_x="center", anchor_y="bottom", align_y=92)
        self.ui.add(anchor)
        self._show_deal_best()

    def _layout_rows(self, width: float, height: float) -> None:
        """Place every level's row: one column per variant, a gutter naming each difficulty group."""
        self.rows = []
        self._texts = []
        self._group_lines = []
        self._batch = pyglet.graphics.Batch()
        column_width = min(580.0, (width - 90) / 2)
        gap = width - 2 * column_width
        top = height - 92
        for column, variant in enumerate(VARIANTS):
            left = gap / 3 + column * (column_width + gap / 3)
            title, line = VARIANT_HEADINGS[variant]
            self._text(title, left, top, 17, theme.ACCENTS[column], title=True)
            self._text(line, left, top - 24, 12, theme.TEXT_DIM)
            y = top - 40
            levels = [level for level in self.levels if level.variant == variant]
            if not levels:
                self._text("No levels could be loaded.", left, y - 20, 13, theme.WARNING)
            for group, members in difficulty_groups(levels):
                group_top = y
                self._text(group, left, y - ROW_HEIGHT / 2 - 5, 12, theme.ACCENTS[0], title=True)
                for level in members:
                    y -= ROW_HEIGHT
                    rect = (left + 84, y, column_width - 84, ROW_HEIGHT - 2)
                    self.rows.append(LevelRow(level, rect))
                    self._text(f"{level.id[-2:]}  {level.name}", rect[0] + 10, y + 7, 13, theme.TEXT)
                    best = self.records.best(level.id)
                    par = min(level.best, CEILING[variant])
                    text = best.describe(par) if best else "not played yet"
                    colour = theme.ACCENTS[0] if best and (best.cleared or best.stored >= par) else (
                        theme.TEXT if best else theme.TEXT_DIM)
                    self._text(text, rect[0] + rect[2] - 10, y + 7, 12, colour, anchor_x="right")
                self._group_lines.append((left, y, group_top - y))
                y -= 6
        self._engine_text.text = (f"Hints and Watch use {engine_title(self.engine)}; choose another engine in "
                                  "Settings.")

    def _text(self, text: str, x: float, y: float, size: int, colour: theme.Color, title: bool = False,
              anchor_x: str = "left") -> None:
        self._texts.append(arcade.Text(text, x, y, colour, size, font_name=theme.TITLE_FONT if title else theme.BODY_FONT,
                                       anchor_x=anchor_x, batch=self._batch))

    # -- actions ----------------------------------------------------------------------------------------------
    def _set_variant(self, variant: str) -> None:
        self.deal_variant = variant
        self._show_deal_best()

    def _set_seed(self, seed: float) -> None:
        self.seed = int(seed)
        self._show_deal_best()

    def _show_deal_best(self) -> None:
        best = self.records.best(deal_key(self.deal_variant, self.seed))
        par = CEILING[self.deal_variant]
        self._deal_best.text = f"Deal {self.seed}: best {best.describe(par)}" if best else ""

    def play_level(self, level: Level) -> None:
        self.open(Puzzle.from_level(level))

    def play_deal(self) -> None:
        self.open(Puzzle.from_seed(self.deal_variant, self.seed))

    def continue_saved(self) -> None:
        """Open the newest puzzle saved from the puzzle screen, where it was left (or say why not)."""
        from game.puzzle_session import describe_error, read_puzzle
        from game.views.solitaire_panels import puzzle_saves
        from game.views.solitaire_view import SolitaireView

        folder = self.context.save_dir
        assert folder is not None
        saves = puzzle_saves(folder)
        if not saves:
            self.message(f"No saved puzzle yet in {folder}: Save (Ctrl+S) on the puzzle screen keeps one.",
                         warning=True)
            return
        try:
            session = read_puzzle(saves[0])
        except (OSError, ValueError) as error:  # SaveError and RulesError are ValueErrors
            self.message(f"Cannot continue {saves[0].name}: {describe_error(error)}", warning=True)
            return
        self.context.show(SolitaireView(self.context, session.puzzle, self.records, session=session,
                                        save_path=saves[0]))

    def open(self, puzzle: Puzzle) -> None:
        from game.views.solitaire_view import SolitaireView

        self.context.show(SolitaireView(self.context, puzzle, self.records))

    # -- events -----------------------------------------------------------------------------------------------
    def row_at(self, x: float, y: float) -> LevelRow | None:
        for row in self.rows:
            if row.contains(x, y):
                return row
        return None

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.mouse = (x, y)
        super().on_mouse_motion(x, y, dx, dy)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        row = self.row_at(x, y)
        if row is not None:
            self.play_level(row.level)
            return True
        return super().on_mouse_press(x, y, button, modifiers)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol in (arcade.key.UP, arcade.key.DOWN) and self.rows:
            step = 1 if symbol == arcade.key.DOWN else -1
            self.cursor = (self.cursor + step) % len(self.rows) if self.cursor >= 0 else 0
            return True
        if symbol in (arcade.key.ENTER, arcade.key.RETURN) and 0 <= self.cursor < len(self.rows):
            self.play_level(self.rows[self.cursor].level)
            return True
        return super().on_key_press(symbol, modifiers)

    def on_draw_before_ui(self) -> None:
        super().on_draw_before_ui()
        for left, bottom, height in self._group_lines:
            arcade.draw_lbwh_rectangle_filled(left + 74, bottom, 3, height, theme.PANEL_EDGE)
        hovered = self.row_at(*self.mouse)
        for index, row in enumerate(self.rows):
            colour = theme.BUTTON
            if row is hovered:
                colour = theme.BUTTON_HOVER
            elif index == self.cursor:
                colour = theme.BUTTON_HOVER[:3] + (180,)
            arcade.draw_lbwh_rectangle_filled(*row.rect, colour)
        self._batch.draw()
        width = self.window.width
        self._engine_text.position = width / 2, 150
        self._engine_text.draw()
        if self._deal_best.text:
            self._deal_best.position = self.seed_stepper.left, 68
            self._deal_best.draw()
