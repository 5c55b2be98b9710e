"""On the real board, the hint's marks and the mover's hover glow stand out from the wood for every kind of
colour vision: two screenshots of a Kalah position, with and without the mark, seen through Machado's
simulations (``tools/colour_vision.py``); where the mark is drawn, the colour difference must be plain."""
from __future__ import annotations

import numpy

import rules
from game.savegame import Seat
from game.session import Session
from tools.colour_vision import VISIONS, delta_e, simulate_image

PLAIN = 12.0
"""CIEDE2000 the mark's strongest pixels must keep, on average, from the board beneath them."""


def strongest_difference(with_mark, without_mark, vision: str, count: int = 300) -> float:  # type: ignore[no-untyped-def]
    """The mean CIEDE2000 of the ``count`` pixels the mark changes most, as ``vision`` sees both pictures."""
    if vision != "normal":
        with_mark, without_mark = simulate_image(with_mark, vision), simulate_image(without_mark, vision)
    first = numpy.asarray(with_mark.convert("RGB")).reshape(-1, 3).astype(float)
    second = numpy.asarray(without_mark.convert("RGB")).reshape(-1, 3).astype(float)
    changed = numpy.abs(first - second).sum(axis=1)
    picked = numpy.argsort(changed)[-count:]
    assert changed[picked].min() > 0, "the mark changed too few pixels"
    return float(numpy.mean([delta_e(first[i], second[i]) for i in picked]))


def test_hint_and_hover_marks_stay_plain_on_the_wood_for_everyone(gui):  # type: ignore[no-untyped-def]
    game = rules.get_game("kalah")
    gui.context.show_match(Session.new(game, (Seat(), Seat())))
    view = gui.window.current_view
    view.controller.hint_state = view.match.state
    plain = gui.screenshot()
    view.controller.hint_move = view.match.legal_moves[2]
    hinted = gui.screenshot()
    view.controller.hint_move = None
    location = view.move_location(view.match.state, view.match.legal_moves[4])
    place = view.scene.layout.places[location]
    gui.move(place.x, place.y)
    hovered = gui.screenshot()
    for vision in VISIONS:
        assert strongest_difference(hinted, plain, vision) >= PLAIN, f"the hint fades into the wood ({vision})"
        assert strongest_difference(hovered, plain, vision) >= PLAIN, f"the hover glow fades ({vision})"
