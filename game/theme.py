"""The look of StoneCave in one place: the palette, the fonts and the styles of the menu widgets.

Colours follow ``shared/UI-DESIGN.md``: a warm wooden board on a dark table, glass stones in a few muted tones.
Fonts are arcade's bundled ones, loaded by ``load_fonts`` and named explicitly, so text looks the same on every
machine (and screenshots are comparable across machines).
"""
from __future__ import annotations

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
LAST_MOVE = (255, 255, 255, 153)

TITLE_FONT = "Kenney Future"
BODY_FONT = "Liberation Sans"
MONO_FONT = "Liberation Mono"

_fonts_loaded = False


def load_fonts() -> None:
    """Load arcade's bundled fonts once (needed on machines without system fonts, such as CI)."""
    global _fonts_loaded
    if not _fonts_loaded:
        arcade.resources.load_liberation_fonts()
        arcade.resources.load_kenney_fonts()
        _fonts_loaded = True


def button_style(font_size: int = 16, accent: Color = ACCENTS[0]) -> dict[str, arcade.gui.UIFlatButton.UIStyle]:
    """The flat button look: dark wood-brown, a warm border on hover, the accent colour when pressed."""
    style = arcade.gui.UIFlatButton.UIStyle
    font = (TITLE_FONT, BODY_FONT)
    return {
        "normal": style(font_size=font_size, font_name=font, font_color=TEXT, bg=BUTTON, border=PANEL_EDGE,
                        border_width=2),
        "hover": style(font_size=font_size, font_name=font, font_color=TEXT, bg=BUTTON_HOVER, border=accent,
                       border_width=2),
        "press": style(font_size=font_size, font_name=font, font_color=TABLE, bg=accent, border=accent,
                       border_width=2),
        "disabled": style(font_size=font_size, font_name=font, font_color=TEXT_DIM[:3] + (120,),
                          bg=BUTTON_DISABLED, border=BUTTON_DISABLED, border_width=2),
    }


def label(text: str, size: float = 14, colour: Color = TEXT, *, title: bool = False, width: float | None = None,
          multiline: bool = False, align: str = "left") -> arcade.gui.UILabel:
    """A UILabel in the house fonts."""
    return arcade.gui.UILabel(
        text=text, font_name=(TITLE_FONT if title else BODY_FONT,), font_size=size, text_color=colour,
        width=width, multiline=multiline, align=align,
    )


def button(text: str, width: float = 260, height: float = 48, font_size: int = 16,
           enabled: bool = True) -> arcade.gui.UIFlatButton:
    """A house-style flat button; ``enabled=False`` greys it out and makes it ignore clicks."""
    widget = arcade.gui.UIFlatButton(text=text, width=width, height=height, style=button_style(font_size))
    widget.disabled = not enabled
    return widget
