"""The widgets of a two-player game screen, built from plain data: the bottom bar of buttons and the
game-over panel; and ``show_controller``, which puts the controller's texts in the bars each frame.
``MatchView`` does what they ask."""
from __future__ import annotations

from typing import Callable, Mapping

import arcade
import arcade.gui

from game import theme
from game.controller import MatchController
from game.scenes.contract import Location
from game.views.panels import TOP_BAR, SidePanel, TopBar
from game.views.widgets import fit_font

Action = Callable[[], object]
Colour = tuple[int, int, int, int]


def button_bar(labels: dict[str, str], actions: Mapping[str, Action], width: int
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


def end_panel(headline: str, colour: tuple[int, int, int, int], detail: str, actions: Mapping[str, Action],
              align_x: float, at_top: bool, room: float) -> arcade.gui.UIAnchorLayout:
    """The game-over panel: a headline, the reason (wrapped) and a row of buttons, over the board's middle or
    at its top, fitting in ``room`` pixels of width.  Built inside ``theme.scaled_ui`` (the window's type scale):
    its words and lengths grow with the window."""
    px, scale = theme.px, theme.ui_scale()
    inner = min(px(640.0), room - px(80))
    box = arcade.gui.UIBoxLayout(space_between=px(12))
    box.add(theme.label(headline, theme.HEADING if room >= px(640) else theme.LABEL, colour))
    box.add(theme.label(detail, theme.BODY, theme.TEXT_DIM, width=inner, multiline=True, align="center"))
    row = arcade.gui.UIBoxLayout(vertical=False, space_between=px(12))
    for text, action in actions.items():
        width = min(px(150), inner / len(actions) - px(12))
        widget = theme.button(text, width=width, height=px(48), size=theme.BODY if width >= px(130) else theme.SMALL)
        fit_font(widget)  # five buttons in a narrow window: smaller words rather than cut-off ones
        widget.event("on_click")(lambda event, action=action: action())
        row.add(widget)
    box.add(row)
    frame = arcade.gui.UIBoxLayout()
    frame.add(box.with_padding(all=round(px(24))))
    frame.with_background(color=arcade.types.Color(*theme.PANEL))
    frame.with_border(color=arcade.types.Color(*theme.ACCENTS[0]), width=2)
    anchor = arcade.gui.UIAnchorLayout()
    if at_top:
        anchor.add(frame, anchor_x="center", anchor_y="top", align_x=align_x, align_y=-(TOP_BAR + 6) * scale)
    else:
        anchor.add(frame, anchor_x="center", anchor_y="center", align_x=align_x)
    return anchor


def show_controller(controller: MatchController, top_bar: TopBar, side_panel: SidePanel | None,
                    buttons: dict[str, arcade.gui.UIFlatButton]) -> None:
    """Put what the controller says in the top bar, the side panel (None: hidden) and the buttons."""
    turn, player = controller.turn()
    colour = theme.TEXT if player is None else theme.ACCENTS[player]
    top_bar.show(controller.session.game.title, controller.rules_text(), turn, colour, controller.scores_text(),
                 controller.last_text())
    if side_panel is not None:
        computer = any(not seat.is_human for seat in controller.session.seats)  # hot-seat: no Computer lines
        side_panel.show(controller.move_list(), controller.computer_text if computer else "", controller.hint_text)
    for name, widget in buttons.items():  # setting a property re-renders the button: only when it changes
        enabled, text = controller.is_button_enabled(name), controller.button_text(name)
        if widget.disabled == enabled:
            widget.disabled = not enabled
        if widget.text != text:
            widget.text = text


def board_marks(legal: Mapping[Location, object], hovered: Location | None, cursor: Location | None,
                hint: Location | None, last: Location | None, mover: int
                ) -> tuple[dict[Location, Colour], dict[Location, Colour]]:
    """What glows on the board (the hovered legal place, the keyboard's choice dimmer, the hint blue, ringed) and what
    is outlined (the last move), for ``MatchScene.draw``.  ``legal`` is empty when the player cannot choose."""
    highlights: dict[Location, Colour] = {}
    accent = theme.ACCENTS[mover]
    if cursor is not None and cursor in legal:
        highlights[cursor] = accent[:3] + (theme.CURSOR_ALPHA,)
    if hovered is not None and hovered in legal:
        highlights[hovered] = accent
    outlines: dict[Location, Colour] = {} if last is None else {last: theme.LAST_MOVE}
    if hint is not None:
        highlights[hint] = theme.HINT
        outlines[hint] = theme.HINT  # a ring as well as a glow: the hint differs from hover by shape too
    return highlights, outlines
