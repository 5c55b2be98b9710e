"""Screenshots of each scene, checked by their pixels: not blank, the right number of pits, every stone drawn.

The pictures are saved under the test's temporary folder (and by ``tools/screenshots.py`` into
``docs/screenshots`` for the README).  Pits are counted as connected regions of the hollows' colour; every
stone the scene holds must be drawn (its centre pixel is no hollow or wood colour), and an empty pit shows its
bare hollow at its centre.
"""
from __future__ import annotations

from collections import deque

import numpy
import pytest

import rules
from game.session import Session
from game.savegame import Seat
from game.views.sowing_view import SowingView


def hollow_mask(image) -> numpy.ndarray:  # type: ignore[no-untyped-def]
    """Pixels of a pit's hollow: dark warm brown, darker than the board's wood."""
    pixels = numpy.asarray(image.convert("RGB")).astype(int)
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    return (r >= 50) & (r <= 105) & (g >= 28) & (g <= 70) & (b >= 8) & (b <= 40) & (r > g) & (g > b) & (r - b > 35)


def regions(mask: numpy.ndarray, minimum: int) -> int:
    """Connected regions (4-neighbour) of at least ``minimum`` pixels."""
    seen = numpy.zeros_like(mask, dtype=bool)
    height, width = mask.shape
    count = 0
    for y, x in zip(*numpy.nonzero(mask)):
        if seen[y, x]:
            continue
        size = 0
        queue = deque([(y, x)])
        seen[y, x] = True
        while queue:
            cy, cx = queue.popleft()
            size += 1
            for ny, nx in ((cy + 1, cx), (cy - 1, cx), (cy, cx + 1), (cy, cx - 1)):
                if 0 <= ny < height and 0 <= nx < width and mask[ny, nx] and not seen[ny, nx]:
                    seen[ny, nx] = True
                    queue.append((ny, nx))
        count += size >= minimum
    return count


def is_board_colour(pixel) -> bool:  # type: ignore[no-untyped-def]
    r, g, b = pixel[:3]
    hollow = 50 <= r <= 105 and 28 <= g <= 70 and 8 <= b <= 40 and r > g > b
    wood = 120 <= r <= 190 and 75 <= g <= 125 and 30 <= b <= 75 and r - b > 70
    return hollow or wood


@pytest.mark.parametrize("game_name, pits", [("kalah", 14), ("oware", 14), ("hus", 64)])
def test_each_board_screenshot_shows_its_pits_and_stones(gui, tmp_path, game_name, pits):  # type: ignore[no-untyped-def]
    game = rules.get_game(game_name)
    gui.context.show_match(Session.new(game, (Seat(), Seat())))
    view = gui.window.current_view
    assert isinstance(view, SowingView)
    # A couple of moves so that some pits are empty and the stones have moved.
    for move in game.legal_moves(view.match.state)[:1] + game.legal_moves(game.apply(view.match.state, game.legal_moves(view.match.state)[0]))[-1:]:
        view.play(move)
        view.scene.finish()
    gui.frame(30, dt=0.05)  # let the stones settle
    image = gui.screenshot(tmp_path / f"{game_name}.png")
    width, height = image.size
    assert (width, height) == (1280, 720)
    assert len(image.convert("RGB").getcolors(1 << 20) or ()) > 500, "the picture is nearly blank"
    # Pits and stores: regions of hollow colour (stones sit inside them but never cut a hollow in two).
    assert regions(hollow_mask(image)[::2, ::2], minimum=40) == pits
    # Every stone is drawn where the physics holds it; an empty pit shows its bare hollow.
    rgb = image.convert("RGB")
    stones = view.scene.field.stones
    assert len(stones) == game.material(view.match.state)
    hidden = [s for s in stones if is_board_colour(rgb.getpixel((int(s.x), height - 1 - int(s.y))))]
    assert len(hidden) <= len(stones) // 20, f"{len(hidden)} of {len(stones)} stones not visible"
    for location, count in view.spec.counts(view.match.state).items():
        if count == 0:
            place = view.scene.layout.places[location]
            assert is_board_colour(rgb.getpixel((int(place.x), height - 1 - int(place.y))))


def test_menu_screenshots_are_not_blank(gui, tmp_path):  # type: ignore[no-untyped-def]
    for name, show in (("title", gui.context.show_title), ("play", gui.context.show_play),
                       ("settings", gui.context.show_settings), ("seats", lambda: gui.context.show_seats("kalah")),
                       ("load", gui.context.show_load)):
        show()
        gui.frame(3)
        image = gui.screenshot(tmp_path / f"{name}.png")
        colours = image.convert("RGB").getcolors(1 << 20) or ()
        assert len(colours) > 30, f"{name} looks blank"
        # Text is drawn: some pixels are near the light text colour.
        light = sum(count for count, (r, g, b) in colours if r > 200 and g > 190 and b > 170)
        assert light > 200, f"{name} shows no text"
