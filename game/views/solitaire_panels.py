"""The puzzle screen's widgets: the bar of buttons and the row under the board, the Load panel, the verdict.

Built here, placed and drawn by ``game.views.solitaire_view``; which button is enabled and what the screen
says come from ``game.puzzle_controller``.  Load lists the saves in the saves folder, newest first; a file
that cannot be used is named with the reason the save module gives, and the puzzle on the board stays
exactly as it was.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import arcade
import arcade.gui
from arcade.types import Color

from game import theme
from game.puzzle_session import Verdict
from game.views.load_view import save_files
from game.views.panels import BOTTOM_BAR, SIDE_PANEL
from guarded import files as guarded_files

SHOWN = 8
"""Saves listed in the Load panel (the newest)."""
BAR = ("Hint", "Undo", "Redo", "Save", "Load", "Restart", "Watch", "Rules", "Puzzles")
"""The bottom bar: the two-player screens' (Hint, Undo, Redo, Save, New game, Menu) with the puzzle's own.
Speed is under the board while the computer plays (and on +/- always): ten buttons do not fit 800 pixels."""
Action = Callable[[], object]
KEYS = {"Stop": "Stop (W)", "Set aside": "Set aside (S)", "Keep sowing": "Keep sowing (K)"}
"""Buttons whose label names their key."""
TEXTS = {**KEYS, "Speed": "Speed x16", "Pause": "Resume (P)"}
"""The longest label of each button whose label is not its name (what its size must fit)."""


def button_texts(speed: float, paused: bool) -> dict[str, str]:
    """The labels that are not the button's name: the speed, Pause or Resume, the keys."""
    return {**KEYS, "Speed": f"Speed x{speed:g}", "Pause": "Resume (P)" if paused else "Pause (P)"}


def fitting_size(texts: list[str], width: float, sizes: tuple[int, ...] = (12, 11, 10, 9),
                 font: str | tuple[str, ...] | None = None) -> int:
    """The largest of ``sizes`` at which every one of ``texts`` fits ``width`` (in ``font``, by default the
    buttons' own, whatever theme.button_style names; a button's border and padding are allowed for).  Sizes are
    the design's (1280x720): inside ``theme.scaled_ui`` the width is the window's, measured at the design scale."""
    width = width / theme.ui_scale()
    margin = 12 if font is None else 0
    font = font or theme.button_style()["normal"].font_name
    for size in sizes:
        if all(arcade.Text(text, 0, 0, font_name=font, font_size=size).content_width <= width - margin
               for text in texts):
            return size
    return sizes[-1]


def puzzle_saves(folder: Path) -> list[Path]:
    """The saves the puzzle screen wrote (``solitaire-*.save``) in ``folder``, newest first."""
    return [path for path in save_files(folder) if path.name.startswith("solitaire-")]


def _modified(path: Path) -> float:
    """When ``path`` was saved (0 when it has just gone)."""
    try:
        return guarded_files.modified(path)
    except FileNotFoundError:
        return 0.0


def _frame(box: arcade.gui.UIWidget, colour: theme.Color, padding: int) -> arcade.gui.UIBoxLayout:
    frame = arcade.gui.UIBoxLayout()
    frame.add(box.with_padding(all=round(theme.px(padding))))
    frame.with_background(color=Color.from_iterable(theme.PANEL)).with_border(color=Color.from_iterable(colour), width=2)
    return frame


def load_panel(folder: Path, pick: Callable[[Path], object], cancel: Action,
               width: float = 560) -> arcade.gui.UIWidget | None:
    """The newest saves in ``folder`` as buttons ``width`` wide, and Cancel; None when there is no save at all."""
    files = save_files(folder)
    if not files:
        return None
    px = theme.px  # built inside ``theme.scaled_ui`` by the puzzle screen: design lengths in its pixels
    box = arcade.gui.UIBoxLayout(space_between=px(8))
    box.add(theme.label("Load a saved puzzle", theme.sized(theme.HEADING, 22), theme.ACCENTS[0]))
    names = {path: f"{path.stem}   ({time.strftime('%d %b %H:%M', time.localtime(_modified(path)))})"
             for path in files[:SHOWN]}
    size = fitting_size(list(names.values()), width, (12, 11, 10))
    if fitting_size(list(names.values()), width, (size, 1)) == 1:  # too narrow for the times: the names alone
        names = {path: path.stem for path in names}
        size = fitting_size(list(names.values()), width, (12, 11, 10, 9, 8))
    for path, name in names.items():
        widget = theme.button(name, width=width, height=px(40), size=theme.sized(theme.LABEL, size))
        widget.event("on_click")(lambda event, path=path: pick(path))
        box.add(widget)
    if len(files) > SHOWN:
        box.add(theme.label(f"... and {len(files) - SHOWN} older saves in {folder}", theme.SMALL, theme.TEXT_DIM,
                            width=width, multiline=True))
    widget = theme.button("Cancel", width=px(200), height=px(40), size=theme.sized(theme.LABEL, 12))
    widget.event("on_click")(lambda event: cancel())
    box.add(widget)
    return _frame(box, theme.ACCENTS[0], 18)


def verdict_panel(verdict: Verdict, record_line: str, actions: dict[str, Action],
                  width: float = 620) -> arcade.gui.UIWidget:
    """The end of the game: the verdict, the record, and a button for each of ``actions``, ``width`` wide."""
    colour = theme.ACCENTS[0] if verdict.perfect else (theme.WARNING if verdict.won is False else theme.TEXT)
    px = theme.px  # built inside ``theme.scaled_ui`` by the puzzle screen: design lengths in its pixels
    box = arcade.gui.UIBoxLayout(space_between=px(10))
    headline_size = fitting_size([verdict.headline], width, (28, 24, 20, 18, 16), font=theme.HEADING.font)
    box.add(theme.label(verdict.headline, theme.sized(theme.HEADING, headline_size), colour))
    box.add(theme.label(verdict.detail, theme.BODY, theme.TEXT_DIM, width=width, multiline=True, align="center"))
    if record_line:
        box.add(theme.label(record_line, theme.sized(theme.BODY, 14), theme.TEXT, width=width, multiline=True, align="center"))
    row = arcade.gui.UIBoxLayout(vertical=False, space_between=px(12))
    button_width = min(px(150.0), (width - px(12) * len(actions)) / max(1, len(actions)))
    for text, action in actions.items():
        size = fitting_size(list(actions), button_width, (14, 12, 11, 10))
        widget = theme.button(text, width=button_width, height=px(46), size=theme.sized(theme.LABEL, size))
        widget.event("on_click")(lambda event, action=action: action())
        row.add(widget)
    box.add(row)
    return _frame(box, colour, 22)


class PuzzleButtons:
    """The bottom bar and, under the board, one row at a time: the directions; while the lewis question is
    asked, Set aside / Keep sowing; while the computer plays, Pause and Stop.

    The bar's labels never change (Stop and Pause are under the board while the computer plays): a new label
    lays the bar out and paints it again, tens of milliseconds of one frame on a software renderer.  Rows are
    swapped, not hidden: a hidden widget would ask to be rendered again every frame.
    """

    def __init__(self, ui: arcade.gui.UIManager, width: float, board_width: float, lewis: bool,
                 actions: dict[str, Action]) -> None:
        """``width``: the window's, which the bar spans; ``board_width``: the board's, which the rows fit in."""
        # Built inside ``theme.scaled_ui``: lengths in design pixels through ``theme.px``, sizes through the theme.
        px, scale = theme.px, theme.ui_scale()
        self.scale = scale
        self.buttons: dict[str, arcade.gui.UIFlatButton] = {}
        bar = arcade.gui.UIBoxLayout(vertical=False, space_between=px(8))
        button_width = min(px(140), (width - px(40)) / len(BAR) - px(8))
        size = fitting_size(list(BAR), button_width)
        for name in BAR:
            bar.add(self._button(name, actions[name], button_width, px(46), size))
        rows = {
            "directions": ["Anti-clockwise", "Clockwise"] + ([] if lewis else ["End here"]),
            "asking": ["Set aside", "Keep sowing"] if lewis else [],
            "watching": ["Pause", "Stop", "Speed"],
        }
        self.rows: dict[str, arcade.gui.UIBoxLayout] = {}
        for row, names in rows.items():
            box = arcade.gui.UIBoxLayout(vertical=False, space_between=px(14))
            share = (board_width / scale - 40 - 14 * max(0, len(names) - 1)) / max(1, len(names) + 0.5)
            widths = {name: min(270.0, share * 1.25) if name in ("Anti-clockwise", "Clockwise", "Set aside",
                                                                 "Keep sowing") else min(170.0, share)
                      for name in names}
            size = min((fitting_size([TEXTS.get(name, name)], px(wide)) for name, wide in widths.items()),
                       default=12)
            for name in names:
                box.add(self._button(name, actions[name], px(widths[name]), px(44), size))
            self.rows[row] = box
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(bar, anchor_x="center", anchor_y="bottom", align_y=px(14))
        ui.add(anchor)
        self.controls = arcade.gui.UIAnchorLayout()
        self.row: str | None = None
        ui.add(self.controls)

    def _button(self, name: str, action: Action, width: float, height: float, size: int) -> arcade.gui.UIFlatButton:
        widget = theme.button(name, width=width, height=height, size=theme.sized(theme.LABEL, size))
        widget.event("on_click")(lambda event, w=widget: None if w.disabled else action())
        self.buttons[name] = widget
        return widget

    def refresh(self, enabled: dict[str, bool], texts: dict[str, str], row: str) -> None:
        """Enable, label and show what the position asks for (only what changed is touched)."""
        for name, widget in self.buttons.items():
            text = texts.get(name, name)
            if widget.text != text:
                widget.text = text
            if widget.disabled == enabled.get(name, True):
                widget.disabled = not enabled.get(name, True)
        if self.row != row:
            self.row = row
            self.controls.clear()
            self.controls.add(self.rows[row], anchor_x="center", anchor_y="bottom",
                              align_y=(BOTTOM_BAR + 8) * self.scale, align_x=-(SIDE_PANEL * self.scale / 2))
