"""Statistics: games played, won, lost and drawn, per game and opponent, with a reset that asks first.

The rows come from ``game.statistics`` (the file is read when the screen opens; a bad one is set aside and the
message shown here).  Games against the computer come first, one row per engine or preset; hot-seat games and
computer-against-computer games follow under their own headings, counted from the first player's side.
"""
from __future__ import annotations

import arcade
import arcade.gui

import rules
from game import theme
from game.settings import describe_engine
from game.statistics import KIND_TITLES, KINDS, StatisticsStore, Tally
from game.context import AppContext
from game.views.base import MESSAGE_BAND, MenuView, heading_band

COLUMNS = (("Game", 0.0), ("Opponent", 0.2), ("Played", 0.64), ("Won", 0.75), ("Lost", 0.84), ("Drawn", 0.93))
"""Column headings and where each starts, as a fraction of the table's width."""
TABLE_WIDTH = 900
ROW_HEIGHT = 26
BUTTONS_Y = MESSAGE_BAND + 8
"""Where the Reset / Back row sits above the window's bottom; the table ends above it."""


def _game_title(name: str) -> str:
    try:
        return rules.game_class(name).title
    except rules.ParameterError:
        return name


class StatisticsView(MenuView):
    """The table of results and the Reset / Back buttons."""

    heading = "Statistics"

    def __init__(self, context: AppContext) -> None:
        self.confirming = False
        self.first_row = 0
        self._hidden_below = 0
        self._lines: list[arcade.Text] = []
        super().__init__(context)
        problems = self.statistics.ensure_loaded()
        if problems:
            self.message(" ".join(problems), warning=True)
        self.rebuild()

    @property
    def statistics(self) -> StatisticsStore:
        """The context's store of finished games (``AppContext`` makes one when it starts)."""
        store = self.context.statistics
        if store is None:
            raise RuntimeError("the application context has no statistics store")
        return store

    # -- the table --------------------------------------------------------------------------------------------
    def rows(self) -> list[tuple[str, list[str]]]:
        """The table as (style, cells) rows: ``heading`` rows name a kind of game, ``row`` rows hold counts."""
        tallies = self.statistics.tallies()
        table: list[tuple[str, list[str]]] = []
        for kind in KINDS:
            entries = sorted((key, tally) for key, tally in tallies.items() if key[1] == kind)
            if not entries:
                continue
            side = "" if kind == "computer" else "  (won and lost from the first player's side)"
            table.append(("heading", [KIND_TITLES[kind] + side]))
            for (game, _kind, opponent), tally in entries:
                table.append(("row", self._cells(game, opponent, tally)))
        return table

    @staticmethod
    def _cells(game: str, opponent: str, tally: Tally) -> list[str]:
        """A row's cells, the opponent in words ("Computer (Hard)", "PVS, 2 s per move")."""
        try:
            rules_game = rules.get_game(game)
        except rules.ParameterError:
            rules_game = None
        words = describe_engine(opponent, rules_game)
        return [_game_title(game), words, str(tally.played), str(tally.won), str(tally.lost), str(tally.drawn)]

    def scroll(self, steps: int, x: float, y: float) -> bool:
        first = self.first_row + min(steps, self._hidden_below) if steps > 0 else max(0, self.first_row + steps)
        if first == self.first_row:
            return False
        self.first_row = first
        self.rebuild()
        return True

    def _build_lines(self) -> None:
        # Laid out in design lengths (pixels at 1280x720: the window's size over its type scale), placed and sized
        # in the window's pixels with ``theme.px`` and ``theme.pt`` (built inside ``theme.scaled_ui``, ``MenuView``).
        px, pt, scale = theme.px, theme.pt, theme.ui_scale()
        width, height = self.window.width / scale, self.window.height / scale
        table_width = min(TABLE_WIDTH, width - 40)
        left = (width - table_width) / 2
        y = height - heading_band(self.window.height, scale) / scale - 24
        self._lines = []
        rows = self.rows()
        if not rows:
            self._lines.append(arcade.Text("No finished games yet: play one from Play, and it is counted here.",
                                           px(width / 2), px(y - 40), theme.TEXT_DIM, pt(16), font_name=theme.BODY_FONT,
                                           anchor_x="center", multiline=True, width=int(px(table_width)),
                                           align="center"))
            return
        size = 14 if table_width >= 700 else 12
        for title, offset in COLUMNS:
            self._lines.append(arcade.Text(title, px(left + offset * table_width), px(y), theme.ACCENTS[0], pt(size),
                                           font_name=theme.BODY_FONT, bold=True))
        y -= ROW_HEIGHT + 6
        bottom = BUTTONS_Y + 48 + 16
        fits = max(1, int((y - bottom) // ROW_HEIGHT) + 1)
        self.first_row = min(self.first_row, max(0, len(rows) - fits))
        shown = rows[self.first_row:]
        if self.first_row:
            fits -= 1
            self._lines.append(arcade.Text(f"{self.first_row} rows above (wheel or Page Up)", px(left), px(y),
                                           theme.TEXT_DIM, pt(12), font_name=theme.BODY_FONT))
            y -= ROW_HEIGHT
        self._hidden_below = max(0, len(shown) - fits)
        if self._hidden_below:
            shown = shown[:fits - 1]
            self._hidden_below = len(rows) - self.first_row - len(shown)
        opponent_width = (COLUMNS[2][1] - COLUMNS[1][1]) * table_width - 12
        for style, cells in shown:
            if style == "heading":
                self._lines.append(arcade.Text(cells[0], px(left), px(y), theme.ACCENTS[1], pt(size + 1),
                                               font_name=theme.BODY_FONT, bold=True))
            else:
                for (_, offset), cell in zip(COLUMNS, cells):
                    text = arcade.Text(cell, px(left + offset * table_width), px(y), theme.TEXT, pt(size),
                                       font_name=theme.BODY_FONT)
                    while text.content_width > px(opponent_width) and len(text.text) > 4:
                        text.text = text.text[:-4] + "..."  # a long name gives way rather than run on
                    self._lines.append(text)
            y -= ROW_HEIGHT
        if self._hidden_below:
            self._lines.append(arcade.Text(f"{self._hidden_below} more rows below (wheel or Page Down)",
                                           px(left), px(y),
                                           theme.TEXT_DIM, pt(12), font_name=theme.BODY_FONT))

    # -- widgets ----------------------------------------------------------------------------------------------
    def build(self) -> None:
        if self.window is None:
            return
        self._build_lines()
        px = theme.px
        row = arcade.gui.UIBoxLayout(vertical=False, space_between=px(16))
        if self.confirming:
            row.add(theme.label("Forget every game counted here?", theme.LABEL, theme.WARNING))
            row.add(self.on_click(theme.button("Yes, reset", width=px(200), height=px(48)), self.reset))
            row.add(self.on_click(theme.button("No, keep them", width=px(220), height=px(48)), self.cancel_reset))
        else:
            has_games = bool(self.statistics.records)
            row.add(self.on_click(theme.button("Reset", width=px(200), height=px(48), enabled=has_games),
                                  self.ask_reset))
            row.add(self.on_click(theme.button("Back", width=px(200), height=px(48)), self.back))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(row, anchor_x="center", anchor_y="bottom", align_y=px(BUTTONS_Y))
        self.ui.add(anchor)

    def ask_reset(self) -> None:
        self.confirming = True
        self.rebuild()

    def cancel_reset(self) -> None:
        self.confirming = False
        self.rebuild()

    def reset(self) -> None:
        self.confirming = False
        try:
            self.statistics.reset()
            self.message("Statistics reset.")
        except OSError as error:
            self.message(f"Could not reset the statistics file {self.statistics.path}: "
                         f"{error.strerror or error}", warning=True)
        self.rebuild()

    def back(self) -> None:
        if self.confirming:
            self.cancel_reset()
        else:
            self.context.show_title()

    def on_draw_before_ui(self) -> None:
        super().on_draw_before_ui()
        for line in self._lines:
            line.draw()
