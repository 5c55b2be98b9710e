"""The look of StoneCave in one place: the palette, the fonts and the styles of the menu widgets.

Colours: a warm wooden board on a dark table, glass stones in a few muted tones.
Fonts are loaded once by ``load_fonts`` and named explicitly, so text looks the same on every machine (and
screenshots are comparable across machines): the display face, Quicksand (regular and bold), ships in
``assets/fonts`` (SIL Open Font License, ``assets/fonts/OFL.txt``); body text is arcade's bundled Liberation
Sans.  Arcade's Kenney Future is not used for words: at button size its K and X read as H, R as A, Z as 2 and Q
as O.

Every text picks one step of the type scale (``TITLE``, ``HEADING``, ``LABEL``, ``BODY``, ``SMALL``) through
``text``, ``label`` or ``button``; only the boards' numbers (pit counts, cell coordinates) are sized to the
pits and cells they sit on, in the body face.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any, Iterator

import arcade
import arcade.gui

Color = tuple[int, int, int, int]


def _rgb(hex_code: str, alpha: int = 255) -> Color:
    value = int(hex_code.lstrip("#"), 16)
    return (value >> 16) & 255, (value >> 8) & 255, value & 255, alpha


TABLE = _rgb("#1E1A17")
WOOD = _rgb("#8B5A2B")
WOOD_RIM = _rgb("#A86F3A")
WOOD_DARK = _rgb("#6E4522")
HOLLOW = _rgb("#5C3A1C")
STONE_COLOURS = tuple(_rgb(code) for code in ("#4F9DA6", "#E0A458", "#C75D5D", "#7FB069", "#D9D2C5"))
ACCENTS = (_rgb("#F2C14E"), _rgb("#7EC8E3"))
"""South's (player 0) and North's (player 1) accent colours."""
CAVE = _rgb("#2B2D35")
CAVE_WALL = _rgb("#6C63FF")
BRICKS = (_rgb("#1B1B1F"), _rgb("#F4F4F6"))
"""Black's (player 0) and White's (player 1) bricks; their edges are the players' accents."""
TEXT = _rgb("#F5EFE6")
TEXT_DIM = _rgb("#B8AFA3")
WARNING = _rgb("#E07A5F")
PANEL = _rgb("#2A2420", 235)
PANEL_EDGE = _rgb("#4A3F37")
BUTTON = _rgb("#3A302A")
BUTTON_HOVER = _rgb("#4E4037")
BUTTON_DISABLED = _rgb("#2B2724")
LAST_MOVE = (255, 255, 255, 200)
"""The last move's ring: white at 78% (at 60% it came within CIEDE2000 10.3 of South's glow under tritanopia)."""
CURSOR_ALPHA = 200
"""The keyboard cursor's glow is the mover's accent at this alpha: fainter than the mouse's, still plain on the
wood for every kind of colour vision (at 150 South's fell to CIEDE2000 10.8 under tritanopia; 200 gives 14.5)."""
HINT = _rgb("#8C8CFF")
"""The hint's glow and ring: a light periwinkle blue, light enough to stand 3:1 off its dark halo on the wood. The old soft green read as South's gold to a player with
protanopia or deuteranopia (CIEDE2000 8.5 and 9.6 after Machado's simulation); blue is the hue farthest from the
wood that stays apart from both accents and the last-move ring for every kind of colour vision
(tests/game/test_colour_vision.py)."""
# The sowing board's words and marks (issue #21): numbers carved light into the wood, the count badges' plates,
# the groove between Hus's two sides.
PIT_NUMBER = _rgb("#F6E3C0")
BADGE = (30, 24, 20, 220)
BOARD_DIVIDER = _rgb("#2A1A0E")
# The move preview: tags of seeds received are light plates in the mover's accent with dark text; seeds lost
# to a capture are dark plates edged and written in the capture colour (lightness tells them apart too).
PREVIEW_CAPTURE = _rgb("#E07A5F")
PREVIEW_LOSS = _rgb("#2A1A14", 235)
PREVIEW_TAG_TEXT = _rgb("#1E1A17")
HIGHLIGHT_HALO = _rgb("#232844", 190)
"""The dark halo under every pit highlight (hover, keyboard, hint), so a light colour stays visible on the wood."""
LAP_TAG = _rgb("#2A2420", 240)
"""The plate of the "Lap 2 of 3" tag by the pit a Hus relay or capture empties (edged in the mover's accent)."""

PROVEN = _rgb("#CCECAC")
"""A proven value in the analysis panel: the plate of a move's "proven" tag and the graph's proven points (drawn as
diamonds, not dots, so shape tells them apart too).  A pale green that keeps CIEDE2000 12+ from the text, the
dimmed text, both accents and the hint for every kind of colour vision (tests/game/test_colour_vision.py)."""

DISPLAY_FONT = "Quicksand"
"""The display face (titles, headings, button labels), used in its bold weight."""
BODY_FONT = "Liberation Sans"
MONO_FONT = "Liberation Mono"
DISPLAY_FILES = ("Quicksand-Regular.ttf", "Quicksand-Bold.ttf")
"""The shipped font files in ``assets/fonts`` (package data, so an installed copy finds them too)."""


@dataclass(frozen=True, slots=True)
class TypeStyle:
    """One step of the type scale: a face (with its fallback), a size in points and a weight."""

    font: tuple[str, ...]
    size: int
    bold: bool = False


TITLE = TypeStyle((DISPLAY_FONT, BODY_FONT), 64, bold=True)
"""The StoneCave name on the title screen."""
HEADING = TypeStyle((DISPLAY_FONT, BODY_FONT), 28, bold=True)
"""A screen's heading, a verdict, an event toast ("Extra turn")."""
LABEL = TypeStyle((DISPLAY_FONT, BODY_FONT), 18, bold=True)
"""Menu buttons, card headings, the top bar's game name, a panel's heading."""
BODY = TypeStyle((BODY_FONT,), 13)
"""Descriptions, help, the move list, the thinking line; compact buttons use its size in the display face."""
SMALL = TypeStyle((BODY_FONT,), 11)
"""Secondary details: a save's folder, board coordinates, a diagram's notes."""
MONO = TypeStyle((MONO_FONT, BODY_FONT), 12)
"""Columns that must line up (the move list)."""

DESIGN_SIZE = (1280, 720)
"""The window size the type scale's sizes are drawn for; a larger window draws them larger (``type_scale``)."""
MAX_TYPE_SCALE = 2.0


def type_scale(width: float, height: float) -> float:
    """How much larger than its design size type is drawn in a window this big: 1 up to 1280x720, then growing
    with the window (the smaller of the two ratios, so it always fits), at most 2 (2560x1440 reads like 1280x720,
    larger).  A smaller window keeps the design sizes: its screens choose smaller steps where they must."""
    return max(1.0, min(MAX_TYPE_SCALE, width / DESIGN_SIZE[0], height / DESIGN_SIZE[1]))


_ui_scale = 1.0


@contextmanager
def scaled_ui(scale: float) -> Iterator[float]:
    """Build widgets for a window whose type scale is ``scale`` (``type_scale``): inside, ``label``, ``button``,
    ``text`` and the menus' controls (``game.views.widgets``) draw their words ``scale`` times larger, and
    ``px`` gives a design length in this window's pixels.  A menu screen builds inside it, so its words and
    rows grow with the window as the game screens' do."""
    global _ui_scale
    before, _ui_scale = _ui_scale, max(1.0, float(scale))
    try:
        yield _ui_scale
    finally:
        _ui_scale = before


def ui_scale() -> float:
    """The scale widgets are being built at (1 outside ``scaled_ui``)."""
    return _ui_scale


def px(length: float) -> float:
    """A design length (pixels at 1280x720) in the pixels of the window being built for (``scaled_ui``)."""
    return length * _ui_scale


def pt(size: float) -> int:
    """A design font size (points at 1280x720) at the scale being built for (``scaled_ui``)."""
    return round(size * _ui_scale)


def sized(style: TypeStyle, size: int) -> TypeStyle:
    """``style``'s face and weight at another size: for screens that grow or shrink a step with the window."""
    return replace(style, size=size)


_fonts_loaded = False


def font_files() -> list[str]:
    """Paths of the shipped display-face files, read from the installed ``assets`` package."""
    folder = resources.files("assets") / "fonts"
    return [str(folder / name) for name in DISPLAY_FILES]


def load_fonts() -> None:
    """Load the shipped display face and arcade's bundled fonts once (machines without system fonts need them)."""
    global _fonts_loaded
    if not _fonts_loaded:
        arcade.resources.load_liberation_fonts()
        for path in font_files():
            arcade.load_font(path)
        _fonts_loaded = True


def text(content: str, style: TypeStyle, colour: Color = TEXT, x: float = 0, y: float = 0,
         **options: Any) -> arcade.Text:
    """An ``arcade.Text`` in one step of the type scale (other ``arcade.Text`` options pass through)."""
    return arcade.Text(content, x, y, colour, pt(style.size), font_name=style.font, bold=style.bold,
                       **options)


def button_style(style: TypeStyle = LABEL, accent: Color = ACCENTS[0],
                 ) -> dict[str, arcade.gui.UIFlatButton.UIStyle]:
    """The flat button look: dark wood-brown, a warm border on hover, the accent colour when pressed."""
    ui_style = arcade.gui.UIFlatButton.UIStyle
    size, font = pt(style.size), style.font
    return {
        "normal": ui_style(font_size=size, font_name=font, font_color=TEXT, bg=BUTTON, border=PANEL_EDGE,
                           border_width=2),
        "hover": ui_style(font_size=size, font_name=font, font_color=TEXT, bg=BUTTON_HOVER, border=accent,
                          border_width=2),
        "press": ui_style(font_size=size, font_name=font, font_color=TABLE, bg=accent, border=accent,
                          border_width=2),
        "disabled": ui_style(font_size=size, font_name=font, font_color=TEXT_DIM[:3] + (120,),
                             bg=BUTTON_DISABLED, border=BUTTON_DISABLED, border_width=2),
    }


def label(content: str, style: TypeStyle = BODY, colour: Color = TEXT, *, width: float | None = None,
          multiline: bool = False, align: str = "left") -> arcade.gui.UILabel:
    """A UILabel in one step of the type scale."""
    return arcade.gui.UILabel(
        text=content, font_name=style.font, font_size=pt(style.size), text_color=colour, bold=style.bold,
        width=width, multiline=multiline, align=align,
    )


def button(content: str, width: float = 260, height: float = 48, size: TypeStyle = LABEL,
           enabled: bool = True) -> arcade.gui.UIFlatButton:
    """A house-style flat button; its label is always the display face, at ``size``'s size (``LABEL``, or
    ``BODY`` in a compact bar); ``enabled=False`` greys it out and makes it ignore clicks."""
    face = replace(LABEL, size=size.size)
    widget = arcade.gui.UIFlatButton(text=content, width=width, height=height, style=button_style(face))
    widget.ui_label.update_font(bold=face.bold)  # a button's style has no weight: the label keeps this one
    widget.disabled = not enabled
    return widget
