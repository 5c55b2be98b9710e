"""Play: choose a game.  A game whose rules failed to load is greyed out, with the reason beside it."""
from __future__ import annotations

from functools import partial

import arcade.gui

from game import catalogue, theme
from game.views.base import MenuView


class PlayMenuView(MenuView):
    """One large button per game, with a line about it, sized to the window."""

    heading = "Choose a game"

    def build(self) -> None:
        # In design lengths (pixels at 1280x720), which ``theme.px`` turns into this window's (``MenuView``).
        px = theme.px
        _, _, room_width, room_height = self.content_box()
        design_width, design_height = room_width / theme.ui_scale(), room_height / theme.ui_scale()
        entries = catalogue.games()
        gap = 10 if design_height >= 500 else 6
        back_height = 44 if design_height >= 500 else 38
        large = design_height >= 760 and design_width >= 1400  # a big window: larger rows and words
        row_height = min(72 if large else 56,
                         max(40, (design_height - back_height - gap * len(entries)) / max(1, len(entries))))
        button_width = min(460 if large else 380, 0.42 * design_width)
        blurb_width = min(640 if large else 520, design_width - button_width - 16)
        rows = arcade.gui.UIBoxLayout(space_between=px(gap), align="left")
        for entry in entries:
            row = arcade.gui.UIBoxLayout(vertical=False, space_between=px(16))
            widget = theme.button(entry.title, width=px(button_width), height=px(row_height),
                                  size=theme.sized(theme.LABEL, 20 if large else 16), enabled=entry.available)
            self.on_click(widget, partial(self.context.show_seats, entry.name))
            row.add(widget)
            line, colour = (entry.blurb, theme.TEXT) if entry.available else (entry.why_not, theme.WARNING)
            row.add(theme.label(line, theme.sized(theme.BODY, 16 if large else 13 if design_width >= 1000 else 12),
                                colour, width=px(blurb_width), multiline=True))
            rows.add(row)
        box = arcade.gui.UIBoxLayout(space_between=px(gap))
        box.add(rows)
        bottom_row = arcade.gui.UIBoxLayout(vertical=False, space_between=px(16))
        bottom_row.add(self.on_click(theme.button("Learn to play", width=px(240), height=px(back_height)),
                                     self.context.show_learn))
        bottom_row.add(self.on_click(theme.button("Back", width=px(200), height=px(back_height)), self.back))
        box.add(bottom_row)
        left, bottom, _, _ = self.content_box()
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box, anchor_x="center", anchor_y="center", align_y=bottom + room_height / 2 - self.window.height / 2)
        self.ui.add(anchor)

    def default_action(self) -> None:
        """Enter with nothing focused: the first game that can be played."""
        first = next((entry for entry in catalogue.games() if entry.available), None)
        if first is not None:
            self.context.show_seats(first.name)
