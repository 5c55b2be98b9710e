"""Frame pacing of the sowing screen: the search yields finer while the board moves, and the board's
offscreen picture draws exactly what its mesh draws.

No timings are asserted (those are in ``bench/bench_gui.py``): these tests check the mechanisms.
"""
from __future__ import annotations

import types

import arcade

import rules
from ai.base import CancelToken
import ai.search
from ai.search import Budget
from game.match import Match
from game.savegame import Seat
from game.scenes import meshes
from game.views.match_view import SEARCH_YIELD_SECONDS
from game.views.sowing_view import SowingView


def test_a_finer_yield_asks_for_polls_more_often(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # A frozen clock: 10,000 nodes in exactly 10 ms, about a million a second, however loaded the machine is.
    monkeypatch.setattr(ai.search, "time", types.SimpleNamespace(perf_counter=lambda: 100.0))
    intervals = {}
    for seconds in (None, 0.0002):
        budget = Budget(None, CancelToken(yield_seconds=seconds), poll=1_000_000)
        budget._last = (0, 100.0 - 0.01)
        intervals[seconds] = budget.poll(10_000)
    assert abs(intervals[None] - 1_000) <= 2  # the default: a poll about every millisecond
    assert abs(intervals[0.0002] - 200) <= 2  # while the board moves: every 0.2 ms


def test_the_search_yields_finer_only_while_the_board_moves(gui):  # type: ignore[no-untyped-def]
    gui.context.show_match(Match.new(rules.get_game("kalah"), (Seat(), Seat("pvs:depth=99,time=3600", 30.0))))
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, SowingView)
    view.MOVE_TIME_LIMIT = None  # the seat's 30 s: the search outlasts the settling stones
    place = view.scene.layout.places[view.spec.move_location(0, 0)]
    gui.click(place.x, place.y)  # South sows pit 0; North, the computer, thinks while the stones fly
    gui.frames_until(lambda: view.worker is not None, limit=400)
    gui.frame()
    assert view.scene.is_moving and view.worker.token.yield_seconds == SEARCH_YIELD_SECONDS
    view.scene.finish()
    gui.frames_until(lambda: not view.scene.is_moving, limit=600)
    gui.frame()
    assert view.worker is not None and view.worker.token.yield_seconds is None
    gui.press("Undo")


def test_the_board_picture_copies_the_mesh_pixel_for_pixel(gui):  # type: ignore[no-untyped-def]
    gui.context.show_match(Match.new(rules.get_game("kalah"), (Seat(), Seat())))
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
