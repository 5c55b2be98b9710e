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
from game.statistics import KIND_TITLES, KINDS, Tally
from game.views.base import MenuView

COLUMNS = (("Game", 0), ("Opponent", 190), ("Played", 560), ("Won", 660), ("Lost", 740), ("Drawn", 820))
"""Column headings and their x offsets from the table's left edge."""
TABLE_WIDTH = 900
ROW_HEIGHT = 26


def _game_title(name: str) -> str:
    try:
        return rules.game_class(name).title
    except rules.ParameterError:
        return name


class StatisticsView(MenuView):
    """The table of results and the Reset / Back buttons."""

    heading = "Statistics"

    def __init__(self, context) -> None:  # type: ignore[no-untyped-def]
        self.confirming = False
        self._lines: list[arcade.Text] = []
        super().__init__(context)
        problems = context.statistics.ensure_loaded()
        if problems:
            self.message(" ".join(problems), warning=True)
        self.rebuild()

    # -- the table --------------------------------------------------------------------------------------------
    def rows(self) -> list[tuple[str, list[str]]]:
        """The table as (style, cells) rows: ``heading`` rows name a kind of game, ``row`` rows hold counts."""
        tallies = self.context.statistics.tallies()
        table: list[tuple[str, list[str]]] = []
        for kind in KINDS:
            entries = sorted((key, tally) for key, tally in tallies.items() if key[1] == kind)
            if not entries:
                continue
            side = "" if kind == "computer" else "  (won and lost from the first player's side)"
            table.append(("heading", [KIND_TITLES[kind] + side]))
            for (game, _kind, opponent), tally in entries:
                table.append(("row", self._cells(_game_title(game), opponent, tally)))
        return table

    @staticmethod
    def _cells(game: str, opponent: str, tally: Tally) -> list[str]:
        if len(opponent) > 40:
            opponent = opponent[:38] + "..."
        return [game, opponent, str(tally.played), str(tally.won), str(tally.lost), str(tally.drawn)]

    def _build_lines(self) -> None:
        width, height = self.window.width, self.window.height
        left = max(20, (width - TABLE_WIDTH) / 2)
        y = height - 110
        self._lines = []
        rows = self.rows()
        if not rows:
            self._lines.append(theme.text("No finished games yet: play one from Play, and it is counted here.",
                                          theme.BODY, theme.TEXT_DIM, width / 2, y - 40, anchor_x="center"))
            return
        for text, offset in COLUMNS:
            self._lines.append(theme.text(text, theme.LABEL, theme.ACCENTS[0], left + offset, y))
        y -= ROW_HEIGHT + 6
        bottom = 150
        for index, (style, cells) in enumerate(rows):
            if y < bottom:
                rest = sum(1 for s, _ in rows[index:] if s == "row")
                self._lines.append(theme.text(f"... and {rest} more rows (a larger window shows them)", theme.BODY,
                                              theme.TEXT_DIM, left, y))
                break
            if style == "heading":
                y -= 6
                self._lines.append(theme.text(cells[0], theme.LABEL, theme.ACCENTS[1], left, y))
            else:
                for (_, offset), cell in zip(COLUMNS, cells):
                    self._lines.append(theme.text(cell, theme.BODY, theme.TEXT, left + offset, y))
            y -= ROW_HEIGHT

    # -- widgets ----------------------------------------------------------------------------------------------
    def build(self) -> None:
        if self.window is None:
            return
        self._build_lines()
        row = arcade.gui.UIBoxLayout(vertical=False, space_between=16)
        if self.confirming:
            row.add(theme.label("Forget every game counted here?", theme.LABEL, theme.WARNING))
            row.add(self.on_click(theme.button("Yes, reset", width=200, height=48), self.reset))
            row.add(self.on_click(theme.button("No, keep them", width=220, height=48), self.cancel_reset))
        else:
            has_games = bool(self.context.statistics.records)
            row.add(self.on_click(theme.button("Reset", width=200, height=48, enabled=has_games), self.ask_reset))
            row.add(self.on_click(theme.button("Back", width=200, height=48), self.back))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(row, anchor_x="center", anchor_y="bottom", align_y=80)
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
            self.context.statistics.reset()
            self.message("Statistics reset.")
        except OSError as error:
            self.message(f"Could not reset the statistics file {self.context.statistics.path}: "
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
