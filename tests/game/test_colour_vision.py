"""Colour for everyone: the colours a player must tell apart stay apart under protanopia and deuteranopia.

Each pair below is something the board asks a player to distinguish: South's from North's accent (turn, glows,
brick edges), Black's from White's bricks, the legal-move glow, the hint's glow and the last-move ring from the
wood, the hollows and the cave, and from one another.  Every pair keeps a CIEDE2000 difference of at least
``MINIMUM`` in normal vision and after Machado et al.'s (2009) simulation of protanopia, deuteranopia and
tritanopia (``tools/colour_vision.py``).  Glows and rings are judged as they are drawn: translucent over their
ground.
"""
from __future__ import annotations

import pytest

from game import theme
from tools.colour_vision import MACHADO, VISIONS, ciede2000, over, seen_difference, simulate, simulate_image

MINIMUM = 12.0
"""CIEDE2000: about 2 is just noticeable side by side; 10 and more reads as a different colour at a glance."""
def glow(colour: theme.Color, ground: tuple[int, ...], strength: float = 1.0) -> tuple[float, float, float]:
    """The brightest point of a highlight of ``colour`` over ``ground``, from the glow texture the scenes draw
    (its own colour and opacity there, so a texture that dims or thins the light fails here)."""
    from game.scenes import textures

    image = textures.glow(96, 96, tuple(colour[:3]) + (255,)).image
    peak = max(image.getdata(), key=lambda pixel: pixel[3])
    return over(peak[:3], peak[3] / 255 * strength, ground)


KEYBOARD = theme.CURSOR_ALPHA / 255
"""The keyboard cursor's fainter glow."""
RING = theme.LAST_MOVE[3] / 255
GROUNDS = {"wood": theme.WOOD, "rim": theme.WOOD_RIM, "grain": theme.WOOD_DARK, "hollow": theme.HOLLOW}
SOUTH, NORTH = theme.ACCENTS


def pairs() -> dict[str, tuple[tuple[float, ...], tuple[float, ...]]]:
    """Every pair of colours a player must tell apart, as drawn (composited over its ground)."""
    found = {
        "South's accent / North's accent": (SOUTH, NORTH),
        "Black's brick / White's brick": theme.BRICKS,
        "South's accent (Black's brick edge) / the cave": (SOUTH, theme.CAVE),  # a black brick shows by its edge
        "North's accent (White's brick edge) / the cave": (NORTH, theme.CAVE),
        "White's brick / the cave": (theme.BRICKS[1], theme.CAVE),
        "the hint / the cave": (theme.HINT, theme.CAVE),
        # The analysis panel: a proven value (tag plate, graph diamond) against the panel, its texts, the graph's
        # ordinary points (the text colour) and the sides' colours the graph's areas and the best move are tinted in.
        "a proven value / the panel": (theme.PROVEN, theme.PANEL),
        "a proven value / the text (an ordinary point)": (theme.PROVEN, theme.TEXT),
        "a proven value / the dimmed text": (theme.PROVEN, theme.TEXT_DIM),
        "a proven value / South's accent": (theme.PROVEN, SOUTH),
        "a proven value / North's accent": (theme.PROVEN, NORTH),
        "a proven value / the hint": (theme.PROVEN, theme.HINT),
    }
    for ground_name, ground in GROUNDS.items():
        marks = {"South's glow": glow(SOUTH, ground), "North's glow": glow(NORTH, ground),
                 "the hint's glow": glow(theme.HINT, ground), "the hint's ring": theme.HINT,
                 "the last-move ring": over(theme.LAST_MOVE, RING, ground)}
        for name, colour in marks.items():
            found[f"{name} / the {ground_name}"] = (colour, ground)
        for faint, accent in (("South's", SOUTH), ("North's", NORTH)):
            if ground_name == "rim":
                continue  # the keyboard cursor moves over pits, which sit on the wood, never on the rim
            found[f"{faint} keyboard glow / the {ground_name}"] = (glow(accent, ground, KEYBOARD), ground)
        names = list(marks)
        for i, first in enumerate(names):
            for second in names[i + 1:]:
                if {first, second} == {"the hint's glow", "the hint's ring"}:
                    continue  # one mark: the hint is a glow inside a ring of the same colour
                found[f"{first} / {second} on the {ground_name}"] = (marks[first], marks[second])
    return found


@pytest.mark.parametrize("vision", VISIONS)
def test_every_pair_that_must_differ_stays_apart(vision: str) -> None:
    close = {name: round(seen_difference(first, second, vision), 1) for name, (first, second) in pairs().items()
             if seen_difference(first, second, vision) < MINIMUM}
    assert not close, f"under {vision}, CIEDE2000 below {MINIMUM}: {close}"


def test_the_old_green_hint_would_fail_for_red_green_colour_blindness() -> None:
    """The simulation is what catches the palette's old fault: green hint and gold accent merge for dichromats."""
    old_hint = (140, 230, 140)
    assert seen_difference(old_hint, SOUTH, "normal") > 25
    for vision in ("protanopia", "deuteranopia"):
        assert seen_difference(old_hint, SOUTH, vision) < MINIMUM


@pytest.mark.parametrize("lab_1, lab_2, expected", [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (50.0, 3.2592, 0.3350), 1.0),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
])
def test_ciede2000_matches_sharmas_published_pairs(lab_1, lab_2, expected) -> None:  # type: ignore[no-untyped-def]
    assert ciede2000(lab_1, lab_2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab_2, lab_1) == pytest.approx(expected, abs=1e-4)


def test_machado_simulation_keeps_greys_and_merges_red_with_green() -> None:
    for vision in MACHADO:
        for grey in (0, 90, 200, 255):
            assert simulate((grey, grey, grey), vision) == pytest.approx((grey, grey, grey), abs=1.5)
    red, green = (200, 60, 40), (90, 140, 40)
    assert seen_difference(red, green, "normal") > 30
    assert seen_difference(red, green, "deuteranopia") < seen_difference(red, green, "normal") / 2
    assert seen_difference(red, green, "protanopia") < seen_difference(red, green, "normal") / 2


def test_the_tool_simulates_a_whole_picture_like_single_colours() -> None:
    from PIL import Image

    colours = [SOUTH[:3], NORTH[:3], theme.HINT[:3], theme.WOOD[:3]]
    image = Image.new("RGB", (len(colours), 1))
    for x, colour in enumerate(colours):
        image.putpixel((x, 0), colour)
    for vision in MACHADO:
        seen = simulate_image(image, vision)
        for x, colour in enumerate(colours):
            assert seen.getpixel((x, 0))[:3] == pytest.approx(simulate(colour, vision), abs=1)
