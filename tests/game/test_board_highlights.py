"""Highlights stay visible on the wood: the ring round a highlighted pit carries its own contrast (a bright core
against a dark edge, at least 3:1, the WCAG figure for graphics) on the wood outside the pit, for each player's
accent and for the hint's colour; a light colour alone on the light wood stays under 3:1."""
from __future__ import annotations

import math

import pytest

import rules
from game import theme
from game.savegame import Seat
from game.session import Session


def luminance(pixel) -> float:  # type: ignore[no-untyped-def]
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = pixel[:3]
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a, b) -> float:  # type: ignore[no-untyped-def]
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("kind, colour", [("glow", theme.ACCENTS[0]), ("glow", theme.ACCENTS[1]),
                                          ("glow and ring", theme.HINT),  # the hint is drawn both ways (match_panels.board_marks)
                                          ("outline", theme.LAST_MOVE)])
def test_a_highlighted_pit_stands_out_from_the_wood(gui, kind, colour):  # type: ignore[no-untyped-def]
    gui.context.show_match(Session.new(rules.get_game("kalah"), (Seat(), Seat())))
    gui.frame(2)
    view = gui.window.current_view
    scene = view.scene
    pit = view.spec.move_location(0, 2)
    place = scene.layout.places[pit]
    gui.move(0, 0)

    def ring_pixels(marks):  # type: ignore[no-untyped-def]
        gui.window.dispatch_events()
        gui.window.clear()
        scene.draw(marks if "glow" in kind else {}, marks if kind != "glow" else {})
        import arcade

        image = arcade.get_image(0, 0, gui.window.width, gui.window.height).convert("RGB")
        gui.window.flip()
        points = []
        for step in range(24):
            angle = math.tau * step / 24 + 0.1
            for reach in (1.0, 1.04, 1.08, 1.12, 1.16, 1.2, 1.24):
                x = place.x + place.half_width * reach * math.cos(angle)
                y = place.y + place.half_height * reach * math.sin(angle)
                points.append(image.getpixel((int(x), gui.window.height - 1 - int(y))))
        return points

    plain = ring_pixels({})
    lit = ring_pixels({pit: colour})
    assert lit != plain
    rays = [lit[i:i + 7] for i in range(0, len(lit), 7)]
    edges = [max(contrast(a, b) for a in ray for b in ray) for ray in rays]
    # (the count's badge sits over one stretch of the ring: it may hide a ray or two)
    # 3:1 in lightness for the players' glows and the last-move ring; the hint is told from the wood by its hue
    # as well (CIEDE2000 >= 12 under every simulated colour vision: test_colour_vision.py), and a hint light
    # enough for 3:1 would come within reach of North's light blue under protanopia, so it needs 2:1 here.
    needed = 2.0 if colour == theme.HINT else 3.0
    assert sum(edge >= needed for edge in edges) >= 0.85 * len(edges), sorted(edges)
