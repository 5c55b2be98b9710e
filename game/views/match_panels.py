"""The widgets of a two-player game screen, built from plain data: the bottom bar of buttons and the
game-over panel.  ``MatchView`` decides what they say and does what they ask."""
from __future__ import annotations

from typing import Callable

import arcade
import arcade.gui

from game import theme
from game.views.panels import TOP_BAR

Action = Callable[[], None]


def button_bar(labels: dict[str, str], actions: dict[str, Action], width: int
               ) -> tuple[arcade.gui.UIAnchorLayout, dict[str, arcade.gui.UIFlatButton]]:
    """A row of buttons along the bottom, one per label in order (a disabled button ignores clicks)."""
    bar = arcade.gui.UIBoxLayout(vertical=False, space_between=10)
    buttons: dict[str, arcade.gui.UIFlatButton] = {}
    button_width = min(150, (width - 40) / len(labels) - 10)
    for name, text in labels.items():
        widget = theme.button(text, width=button_width, height=48, size=theme.BODY)
        widget.event("on_click")(lambda event, action=actions[name], w=widget: None if w.disabled else action())
        buttons[name] = widget
        bar.add(widget)
    anchor = arcade.gui.UIAnchorLayout()
    anchor.add(bar, anchor_x="center", anchor_y="bottom", align_y=14)
    return anchor, buttons


def end_panel(headline: str, colour: tuple[int, int, int, int], detail: str, actions: dict[str, Action],
              align_x: float, at_top: bool) -> arcade.gui.UIAnchorLayout:
    """The game-over panel: a headline, a line of detail and a row of buttons, over the board's middle or
    at its top."""
    box = arcade.gui.UIBoxLayout(space_between=12)
    box.add(theme.label(headline, theme.HEADING, colour))
    box.add(theme.label(detail, theme.BODY, theme.TEXT_DIM))
    row = arcade.gui.UIBoxLayout(vertical=False, space_between=12)
    for text, action in actions.items():
        widget = theme.button(text, width=150, height=48, size=theme.BODY)
        widget.event("on_click")(lambda event, action=action: action())
        row.add(widget)
    box.add(row)
    frame = arcade.gui.UIBoxLayout()
    frame.add(box.with_padding(all=24))
    frame.with_background(color=theme.PANEL).with_border(color=theme.ACCENTS[0], width=2)
    anchor = arcade.gui.UIAnchorLayout()
    if at_top:
        anchor.add(frame, anchor_x="center", anchor_y="top", align_x=align_x, align_y=-(TOP_BAR + 6))
    else:
        anchor.add(frame, anchor_x="center", anchor_y="center", align_x=align_x)
    return anchor
