"""The panels of the game screen, as arcade Sections: the top bar and the right-hand move list.

They only draw; what they show comes from the view each frame through ``update_text`` calls, which re-lay
text out only when it changed (laying out text is the expensive part of drawing it).
"""
from __future__ import annotations

import arcade

from game import theme

TOP_BAR = 64
SIDE_PANEL = 300
BOTTOM_BAR = 78


def _set(text: arcade.Text, value: str) -> None:
    if text.text != value:
        text.text = value


class TopBar(arcade.Section):
    """Game name and variant, whose turn (in the mover's accent), the scores and the last move."""

    def __init__(self, left: int, bottom: int, width: int, height: int) -> None:
        super().__init__(left, bottom, width, height, name="top-bar", accept_keyboard_keys=False,
                         accept_mouse_events=False)
        self.title = arcade.Text("", 0, 0, theme.TEXT, 20, font_name=theme.TITLE_FONT, anchor_y="center")
        self.variant = arcade.Text("", 0, 0, theme.TEXT_DIM, 12, font_name=theme.BODY_FONT, anchor_y="center")
        self.turn = arcade.Text("", 0, 0, theme.ACCENTS[0], 18, font_name=theme.BODY_FONT, anchor_x="center",
                                anchor_y="center", bold=True)
        self.scores = arcade.Text("", 0, 0, theme.TEXT, 16, font_name=theme.BODY_FONT, anchor_x="right",
                                  anchor_y="center")
        self.last = arcade.Text("", 0, 0, theme.TEXT_DIM, 12, font_name=theme.BODY_FONT, anchor_x="center",
                                anchor_y="center")

    def show(self, title: str, variant: str, turn: str, turn_colour: theme.Color, scores: str, last: str) -> None:
        _set(self.title, title)
        _set(self.variant, variant)
        _set(self.turn, turn)
        self.turn.color = turn_colour
        _set(self.scores, scores)
        _set(self.last, last)

    def on_draw(self) -> None:
        arcade.draw_lrbt_rectangle_filled(self.left, self.right, self.bottom, self.top, theme.PANEL)
        arcade.draw_line(self.left, self.bottom, self.right, self.bottom, theme.PANEL_EDGE, 2)
        middle = self.bottom + self.height / 2
        self.title.position = self.left + 20, middle + 8
        self.variant.position = self.left + 20, middle - 16
        self.turn.position = self.left + self.width / 2, middle + 8
        self.last.position = self.left + self.width / 2, middle - 16
        self.scores.position = self.right - 20, middle
        for text in (self.title, self.variant, self.turn, self.last, self.scores):
            text.draw()


class SidePanel(arcade.Section):
    """The move list, the computer's thinking line and the hint's reason."""

    LINES = 22

    def __init__(self, left: int, bottom: int, width: int, height: int) -> None:
        super().__init__(left, bottom, width, height, name="side-panel", accept_keyboard_keys=False,
                         accept_mouse_events=False)
        self.heading = arcade.Text("Moves", 0, 0, theme.ACCENTS[0], 14, font_name=theme.TITLE_FONT)
        self.moves = arcade.Text("", 0, 0, theme.TEXT, 12, font_name=theme.MONO_FONT, multiline=True,
                                 width=SIDE_PANEL - 30, anchor_y="top")
        self.thinking_heading = arcade.Text("Computer", 0, 0, theme.ACCENTS[1], 14, font_name=theme.TITLE_FONT)
        self.thinking = arcade.Text("", 0, 0, theme.TEXT, 12, font_name=theme.BODY_FONT, multiline=True,
                                    width=SIDE_PANEL - 30, anchor_y="top")
        self.hint = arcade.Text("", 0, 0, theme.TEXT_DIM, 12, font_name=theme.BODY_FONT, multiline=True,
                                width=SIDE_PANEL - 30, anchor_y="top")

    def show(self, moves: list[str], thinking: str, hint: str) -> None:
        shown = moves[-self.visible_lines():]
        if len(moves) > len(shown):
            shown = [f"  ... {len(moves) - len(shown)} earlier"] + shown[1:]
        _set(self.moves, "\n".join(shown) or "(no moves yet)")
        _set(self.thinking, thinking or "-")
        _set(self.hint, hint)

    def visible_lines(self) -> int:
        return max(3, int((self.height - 220) / 17))

    def on_draw(self) -> None:
        arcade.draw_lrbt_rectangle_filled(self.left, self.right, self.bottom, self.top, theme.PANEL)
        arcade.draw_line(self.left, self.bottom, self.left, self.top, theme.PANEL_EDGE, 2)
        x = self.left + 15
        self.heading.position = x, self.top - 30
        self.moves.position = x, self.top - 40
        self.thinking_heading.position = x, self.bottom + 150
        self.thinking.position = x, self.bottom + 140
        self.hint.position = x, self.bottom + 70
        for text in (self.heading, self.moves, self.thinking_heading, self.thinking, self.hint):
            text.draw()
