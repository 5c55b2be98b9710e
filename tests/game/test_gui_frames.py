"""The window helpers' frames (``tests/conftest.py``): ``update`` and ``updates_until`` advance the view without
drawing it, and ``updates_until`` draws one whole frame once its condition holds, or fails after its limit.  The
waits that use them (a store's stones settling, a move landing, a game-over panel) check the same end state as
drawn frames would, for a tenth of the time; a helper that drew nothing at the end, or never gave up, would hide
that."""
from __future__ import annotations

import arcade
import pytest


class Counting(arcade.View):
    """A view that counts its updates and draws."""

    def __init__(self) -> None:
        super().__init__()
        self.updates = 0
        self.draws = 0

    def on_update(self, delta_time: float) -> None:
        self.updates += 1

    def on_draw(self) -> None:
        self.clear()
        self.draws += 1


def test_updates_until_updates_without_drawing_then_draws_one_frame(gui):  # type: ignore[no-untyped-def]
    view = Counting()
    gui.window.show_view(view)
    assert gui.updates_until(lambda: view.updates >= 30, limit=100) == 30
    assert view.updates == 31 and view.draws == 1  # the last frame: its update and its draw
    gui.update()
    assert view.updates == 32 and view.draws == 1


def test_updates_until_fails_when_its_condition_never_holds(gui):  # type: ignore[no-untyped-def]
    view = Counting()
    gui.window.show_view(view)
    with pytest.raises(AssertionError, match="condition not met after 5 updates"):
        gui.updates_until(lambda: False, limit=5)
    assert view.updates == 5 and view.draws == 0
