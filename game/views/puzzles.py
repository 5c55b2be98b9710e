"""Puzzles: the Solitaire Mancala levels set by set and by difficulty, each with its best result, and random deals.

Levels come from ``levels/solitaire/*.yaml`` (a file that cannot be used is reported at the bottom of the
screen; the others are listed) in the sets ``levels.solitaire.SETS`` names for players: the winnable deals
("Clear the board") on the left, the long ones that cannot be cleared ("Store the most") on the right,
easy and short first, split into thirds (easy, medium, hard, each with its number of rounds).  Each row shows
the best result so far from ``game.records``.  Below: a random deal of either set from a seed, and the engine
hints and watching use (chosen in Settings, else the registry's strongest solver).  Continue saved opens the
newest puzzle saved from the puzzle screen (Ctrl+S there), where it was left.

The list is drawn directly (one batch of texts, a highlight under the mouse) rather than as 32 widgets,
which would cost far more to build; a click on a row opens the level.  When the window is too low for all of
it, the list scrolls (the mouse wheel, Page Up/Down, or Up/Down, which keep the chosen row in view) between
the heading and the random-deal controls, which move to two rows in a narrow window.  Keys: Up/Down and
Enter pick a level, Escape goes back to the title screen.
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
from game.puzzle_search import engine_spec
from game.puzzle_session import Puzzle
from game.views.base import MenuView
from game.views.widgets import Choice, Stepper
from levels.solitaire import SETS, Level, load_levels
from rules.solitaire import CEILING, Solitaire

ROW_HEIGHT = 25
GROUPS = ("Easy", "Medium", "Hard")
MAX_SEED = 999_999
WIDE = 1180
"""From this window width the random-deal controls fit on one row."""
SCROLL_STEP = 3 * ROW_HEIGHT


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

    heading = "Solitaire puzzles"

    def __init__(self, context: AppContext, records: RecordsStore | None = None) -> None:
        self.levels, level_problems = _load_levels()
        problems = list(level_problems)
        if records is None:
            records = RecordsStore(context.store.directory)
            problems += records.load()
        self.records = records
        self.rows: list[LevelRow] = []
        self.cursor = -1
        self.scroll_offset = 0.0
        """How far the list is scrolled down, in pixels (0: its top is shown)."""
        self.list_area = (0.0, 0.0)
        """(bottom, top) of the part of the window the list is shown in."""
        self.content_height = 0.0
        self.mouse = (0.0, 0.0)
        self.deal_variant = SETS[0].variant  # the winnable deals first
        self.seed = random.Random().randrange(1, MAX_SEED)
        self._batch = pyglet.graphics.Batch()
        self._texts: list[arcade.Text] = []
        self._group_lines: list[tuple[float, float, float]] = []
        self.engine = engine_spec(context.settings, Solitaire(), "hint")
        self._engine_text = theme.text("", theme.BODY, theme.TEXT_DIM, anchor_x="center")
        self._deal_best = theme.text("", theme.BODY, theme.TEXT_DIM, anchor_x="left",
                                      anchor_y="center")
        super().__init__(context)
        notices = problems + context.notices
        context.notices.clear()
        if notices:
            self.message("\n".join(notices), warning=True)

    # -- building ---------------------------------------------------------------------------------------------
    def build(self) -> None:
        px = theme.px  # design lengths (pixels at 1280x720) in this window's pixels (``MenuView``)
        width, height = self.window.width, self.window.height
        wide = width >= px(WIDE)
        for text in (self._engine_text, self._deal_best):
            text.font_size = theme.pt(theme.BODY.size)
        self.variant_choice = Choice([(item.variant, item.name) for item in SETS], self.deal_variant,
                                     self._set_variant, width=px(230), name="variant")
        self.seed_stepper = Stepper(self.seed, 1, MAX_SEED, 1, self._set_seed, whole=True, width=px(290),
                                    name="seed")
        first = arcade.gui.UIBoxLayout(vertical=False, space_between=px(12))
        first.add(theme.label("Random deal", theme.sized(theme.LABEL, 16), theme.ACCENTS[0]))
        first.add(self.variant_choice)
        first.add(self.seed_stepper)
        second = first if wide else arcade.gui.UIBoxLayout(vertical=False, space_between=px(12))
        label = theme.sized(theme.LABEL, 14)
        second.add(self.on_click(theme.button("Deal", width=px(110), height=px(40), size=label), self.play_deal))
        resume = theme.button("Continue saved", width=px(210), height=px(40), size=label)
        second.add(self.on_click(resume, self.continue_saved))
        second.add(self.on_click(theme.button("Back", width=px(110), height=px(40), size=label), self.back))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(first, anchor_x="center", anchor_y="bottom", align_y=px(92 if wide else 112))
        if not wide:
            anchor.add(second, anchor_x="center", anchor_y="bottom", align_y=px(52))
        self.ui.add(anchor)
        self._deal_best_y = px(78 if wide else 100)
        self._engine_y = px(150 if wide else 166)
        self.list_area = (self._engine_y + px(24), height - px(84))
        self._layout_rows(width, height)
        self._show_deal_best()

    def _layout_rows(self, width: float, height: float) -> None:
        """Place every level's row, scrolled: one column per set, each difficulty group under its heading."""
        with theme.scaled_ui(self.scale):  # also when a scroll, not a build, places them
            self._place_rows(width, height)

    def _place_rows(self, width: float, height: float) -> None:
        px, row_height = theme.px, theme.px(ROW_HEIGHT)
        self.rows = []
        self._texts = []
        self._group_lines = []
        self._batch = pyglet.graphics.Batch()
        column_width = min(px(580.0), (width - px(90)) / 2)
        gap = width - 2 * column_width
        bottom, top = self.list_area
        lowest = top
        for column, item in enumerate(SETS):
            left = gap / 3 + column * (column_width + gap / 3)
            y = top + self.scroll_offset - px(20)
            self._text(item.name, left, y, theme.sized(theme.LABEL, 17), theme.ACCENTS[column])
            goal = self._text(f"{item.goal} {item.credit}", left, y - px(8), theme.SMALL, theme.TEXT_DIM,
                              width=column_width)
            y -= px(18) + goal.content_height
            levels = [level for level in self.levels if level.variant == item.variant]
            if not levels:
                self._text("No levels could be loaded.", left, y - px(20), theme.BODY, theme.WARNING)
            number = 0
            for group, members in difficulty_groups(levels):
                lengths = sorted(level.length for level in members)
                y -= px(22)
                self._text(f"{group}: {lengths[0]} to {lengths[-1]} rounds", left, y + px(5),
                           theme.sized(theme.LABEL, 12),
                           theme.ACCENTS[0])
                group_top = y
                for level in members:
                    number += 1
                    y -= row_height
                    rect = (left + px(12), y, column_width - px(12), row_height - px(2))
                    self.rows.append(LevelRow(level, rect))
                    self._text(str(number), rect[0] + px(28), y + px(7), theme.BODY, theme.TEXT, anchor_x="right")
                    self._text(level.name, rect[0] + px(38), y + px(7), theme.BODY, theme.TEXT)
                    if column_width >= px(480):
                        self._text(f"{level.length} rounds", rect[0] + rect[2] * 0.5, y + px(7), theme.SMALL,
                                   theme.TEXT_DIM)
                    best = self.records.best(level.id)
                    par = min(level.best, CEILING[item.variant])
                    text = best.describe(par) if best else "not played yet"
                    colour = theme.ACCENTS[0] if best and (best.cleared or best.stored >= par) else (
                        theme.TEXT if best else theme.TEXT_DIM)
                    self._text(text, rect[0] + rect[2] - px(10), y + px(7), theme.SMALL, colour, anchor_x="right")
                self._group_lines.append((left, y, group_top - y))
                y -= px(6)
            lowest = min(lowest, y)
        self.content_height = top + self.scroll_offset - lowest + px(8)
        if self.scroll_offset > self.max_scroll:  # a taller window (or fewer levels) shows more: scroll back
            self.scroll_offset = self.max_scroll
            self._place_rows(width, height)
            return
        self._engine_text.text = "Hint shows the computer's next round and why; Watch lets it play on."

    @property
    def max_scroll(self) -> float:
        bottom, top = self.list_area
        return max(0.0, self.content_height - (top - bottom))

    def scroll_to(self, scroll: float) -> None:
        """Scroll the list (clamped to its length) and place the rows again."""
        scroll = max(0.0, min(scroll, self.max_scroll))
        if scroll != self.scroll_offset:
            self.scroll_offset = scroll
            self._layout_rows(self.window.width, self.window.height)

    def scrolled_out(self, text: arcade.Text) -> bool:
        """True for a text of the level list not wholly inside the list's area: drawing clips it there."""
        bottom, top = self.list_area
        return text in self._texts and (text.bottom < bottom - 1 or text.top > top + 1)

    def is_shown(self, row: LevelRow) -> bool:
        """True when the whole row is inside the list's area (not scrolled out of it)."""
        bottom, top = self.list_area
        return row.rect[1] >= bottom - 1 and row.rect[1] + row.rect[3] <= top + 1

    def _text(self, text: str, x: float, y: float, style: theme.TypeStyle, colour: theme.Color,
              anchor_x: str = "left", width: float | None = None) -> arcade.Text:
        label = theme.text(text, style, colour, x, y, anchor_x=anchor_x, batch=self._batch,
                           multiline=width is not None, width=int(width) if width else None,
                           anchor_y="top" if width else "baseline")
        self._texts.append(label)
        return label

    # -- actions ----------------------------------------------------------------------------------------------
    def _set_variant(self, variant: str) -> None:
        self.deal_variant = variant
        self._show_deal_best()

    def _set_seed(self, seed: float | None) -> None:
        if seed is None:  # only an optional Stepper offers "not used", and the seed's is not optional
            raise ValueError("a deal needs a seed")
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
        """The row under the point, if it is shown (a row scrolled out of the list's area is not)."""
        bottom, top = self.list_area
        if not bottom <= y <= top:
            return None
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

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        bottom, top = self.list_area
        if bottom <= y <= top:
            self.scroll_to(self.scroll_offset - scroll_y * SCROLL_STEP)
            return True
        return super().on_mouse_scroll(x, y, scroll_x, scroll_y)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        key = arcade.key
        if symbol in (key.UP, key.DOWN) and self.rows:
            step = 1 if symbol == key.DOWN else -1
            self.cursor = (self.cursor + step) % len(self.rows) if self.cursor >= 0 else 0
            self.scroll_into_view(self.rows[self.cursor])
            return True
        if symbol in (key.PAGEUP, key.PAGEDOWN):
            bottom, top = self.list_area
            self.scroll_to(self.scroll_offset + (top - bottom - ROW_HEIGHT) * (1 if symbol == key.PAGEDOWN else -1))
            return True
        if symbol in (key.ENTER, key.RETURN) and 0 <= self.cursor < len(self.rows):
            self.play_level(self.rows[self.cursor].level)
            return True
        return super().on_key_press(symbol, modifiers)

    def scroll_into_view(self, row: LevelRow) -> None:
        bottom, top = self.list_area
        low, high = row.rect[1], row.rect[1] + row.rect[3]
        if high > top:
            self.scroll_to(self.scroll_offset - (high - top) - ROW_HEIGHT * 2)  # and its group's heading
        elif low < bottom:
            self.scroll_to(self.scroll_offset + (bottom - low) + 4)

    def on_draw_before_ui(self) -> None:
        super().on_draw_before_ui()
        bottom, top = self.list_area
        width = self.window.width
        ctx = self.window.ctx
        ctx.scissor = (0, int(bottom), int(width), int(top - bottom))  # rows scrolled out are not drawn
        for left, line_bottom, height in self._group_lines:
            arcade.draw_lbwh_rectangle_filled(left + 2, line_bottom, 3, height, theme.PANEL_EDGE)
        hovered = self.row_at(*self.mouse)
        for index, row in enumerate(self.rows):
            colour = theme.BUTTON
            if row is hovered:
                colour = theme.BUTTON_HOVER
            elif index == self.cursor:
                colour = theme.BUTTON_HOVER[:3] + (180,)
            arcade.draw_lbwh_rectangle_filled(*row.rect, colour)
        self._batch.draw()
        ctx.scissor = None
        if self.max_scroll > 0:  # a scroll bar: where the shown part is in the whole list
            shown = (top - bottom) / self.content_height
            bar = max(24.0, (top - bottom) * shown)
            y = top - bar - (top - bottom - bar) * (self.scroll_offset / self.max_scroll)
            scale = self.scale
            arcade.draw_lbwh_rectangle_filled(width - 10 * scale, bottom, 4 * scale, top - bottom, theme.PANEL)
            arcade.draw_lbwh_rectangle_filled(width - 10 * scale, y, 4 * scale, bar, theme.PANEL_EDGE)
        self._engine_text.position = width / 2, self._engine_y
        self._engine_text.draw()
        if self._deal_best.text:
            self._deal_best.position = self.seed_stepper.left, self._deal_best_y
            self._deal_best.draw()
