"""Play: choose a game.  Games whose rules or board are not ready yet are shown greyed out as coming."""
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
            text = entry.title if entry.available else f"{entry.title} ({entry.why_not})"
            widget = theme.button(text, width=380, height=56, enabled=entry.available)
            self.on_click(widget, lambda name=entry.name: self.context.show_seats(name))
            row.add(widget)
            row.add(theme.label(entry.blurb, theme.BODY, theme.TEXT if entry.available else theme.TEXT_DIM, width=520,
                                multiline=True))
            box.add(row)
        bottom = arcade.gui.UIBoxLayout(vertical=False, space_between=16)
        bottom.add(self.on_click(theme.button("Learn to play", width=240, height=44), self.context.show_learn))
        bottom.add(self.on_click(theme.button("Back", width=200, height=44), self.back))
        box.add(bottom)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box, anchor_x="center", anchor_y="center", align_y=-10)
        self.ui.add(anchor)
