"""Play: choose a game.  A game whose rules failed to load is greyed out, with the reason beside it."""
from __future__ import annotations

import arcade.gui

from game import catalogue, theme
from game.views.base import MenuView


class PlayMenuView(MenuView):
    """One large button per game, with a line about it."""

    heading = "Choose a game"

    def build(self) -> None:
        box = arcade.gui.UIBoxLayout(space_between=10)
        for entry in catalogue.games():
            row = arcade.gui.UIBoxLayout(vertical=False, space_between=16)
            widget = theme.button(entry.title, width=380, height=56, font_size=16, enabled=entry.available)
            self.on_click(widget, lambda name=entry.name: self.context.show_seats(name))
            row.add(widget)
            line, colour = (entry.blurb, theme.TEXT) if entry.available else (entry.why_not, theme.WARNING)
            row.add(theme.label(line, 13, colour, width=520, multiline=True))
            box.add(row)
        box.add(self.on_click(theme.button("Back", width=200, height=44), self.back))
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box, anchor_x="center", anchor_y="center", align_y=-10)
        self.ui.add(anchor)
