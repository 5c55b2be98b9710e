"""Frame pacing of the sowing screen: the computer's search runs beside the window (on the compiled core,
without the GIL), and the board's offscreen picture draws exactly what its mesh draws.

No timings are asserted (those are in ``bench/bench_gui.py``): these tests check the mechanisms.
"""
from __future__ import annotations

import arcade

import rules
import ai.core
from game.session import Session
from game.savegame import Seat
from game.scenes import meshes
from game.views.sowing_view import SowingView


def test_the_computer_thinks_on_the_compiled_core_while_the_window_draws(gui):  # type: ignore[no-untyped-def]
    """No throttling: the search runs in C without the GIL, so frames and search progress go on together."""
    gui.context.show_match(Session.new(rules.get_game("kalah"), (Seat(), Seat("pvs:depth=99,time=3600", 30.0))))
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, SowingView)
    view.controller.move_time_limit = None  # the seat's 30 s: the search outlasts the frames below
    place = view.scene.layout.places[view.spec.move_location(0, 0)]
    gui.click(place.x, place.y)  # South sows pit 0; North, the computer, thinks while the stones fly
    gui.frames_until(lambda: view.controller.worker is not None, limit=400)
    worker = view.controller.worker
    assert getattr(worker.engine.kernel, "compiled", False) == (ai.core.module() is not None)
    gui.frames_until(lambda: worker.result is not None and worker.result.depth >= 8, limit=2000)
    assert worker.result.info["core"] == ("compiled" if ai.core.module() is not None else "python")
    gui.press("Undo")


def test_the_board_picture_copies_the_mesh_pixel_for_pixel(gui):  # type: ignore[no-untyped-def]
    gui.context.show_match(Session.new(rules.get_game("kalah"), (Seat(), Seat())))
    gui.frame(2)
    scene = gui.window.current_view.scene
    window = gui.window
    x, y, w, h = (int(v) for v in scene._board_bounds)

    def board_pixels(draw) -> bytes:  # type: ignore[no-untyped-def]
        window.clear(color=(30, 26, 23, 255))
        draw()
        return window.ctx.screen.read(viewport=(x, y, w, h), components=3)

    picture = meshes.Picture(window, scene._board_bounds, (30, 26, 23), scene._board_shapes.draw)
    copied = board_pixels(lambda: picture.draw(window.ctx))
    with window.ctx.enabled(window.ctx.BLEND):
        drawn = board_pixels(scene._board_shapes.draw)
    differing = sum(1 for a, b in zip(copied, drawn) if abs(a - b) > 2)
    assert len(copied) == 3 * w * h and copied != bytes(len(copied))
    assert differing < len(copied) // 1000
    arcade.get_window().clear()
