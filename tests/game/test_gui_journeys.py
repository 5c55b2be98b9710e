"""Journeys a player takes over an evening, checked after every step (issue 29; ``tests/game/journeys.py``).

The scripted journeys are the ones that broke: a game grown from 1024x600 to 1280x720 lost its top bar and kept
its panel at the old width (item 1); F11 in a game drew the board at the old size in the lower-left corner of the
full screen (item 2); at 2560x1440 the board's counts and numbers kept their 1280x720 size, and at 800x500 Hus's
numbers were about 8 px (item 6).  The random journeys walk seeded paths over every screen with the same checks.
"""
from __future__ import annotations

import arcade
import pytest

from journeys import Journey, random_journey


@pytest.fixture
def journey(gui):  # type: ignore[no-untyped-def]
    walk = Journey(gui)
    yield walk
    walk.leave_full_screen()
    view = gui.window.current_view
    if hasattr(view, "cancel_search"):
        view.cancel_search()


def test_growing_the_window_during_a_game_keeps_the_top_bar_and_the_panel(journey) -> None:  # type: ignore
    journey.resize(1024, 600)
    journey.open("kalah")
    journey.key(arcade.key.KEY_3)  # a move, mid-animation when the window grows
    journey.resize(1280, 720)
    journey.wait(1.0)
    journey.resize(1600, 900)
    journey.key(arcade.key.A)  # the analysis panel open while the window grows and shrinks
    journey.resize(1920, 1080)
    journey.resize(1024, 600)
    journey.key(arcade.key.TAB)
    journey.resize(1366, 768)
    assert journey.checks >= 9


def test_f11_during_a_game_fills_the_screen_and_back(journey) -> None:  # type: ignore[no-untyped-def]
    journey.open("kalah")
    journey.f11()
    assert journey.window.fullscreen and journey.window.width > 1280
    journey.key(arcade.key.KEY_4)
    journey.f11()
    assert not journey.window.fullscreen and journey.window.width == 1280
    journey.open("magnetic-cave-analysis")  # with the analysis panel open and the computer's search running
    journey.f11()
    journey.key(arcade.key.H)
    journey.open("puzzle")  # another game screen while full screen
    journey.f11()
    journey.open("title")
    journey.f11()
    journey.open("hus")
    journey.f11()


@pytest.mark.parametrize("name", ["kalah", "hus", "oware"])
def test_the_board_words_grow_with_a_huge_window_and_stay_readable_in_a_small_one(  # type: ignore
        journey, name: str) -> None:
    journey.resize(2560, 1440)
    journey.open(name)
    scene = journey.view.scene
    assert min(text.font_size for text in scene.texts()) >= 18  # 1280x720's sizes, doubled where they were capped
    journey.resize(800, 500)
    assert min(text.font_size for text in scene.texts()) >= 9
    journey.resize(1280, 720)


@pytest.mark.parametrize("seed", [29, 30])
def test_a_seeded_random_journey_over_every_screen_holds_every_invariant(journey, seed: int) -> None:  # type: ignore
    walk = random_journey(journey.gui, seed=seed, steps=80)
    assert walk.checks >= 80
    assert any(step.startswith("resize") for step in walk.steps) and "F11" in walk.steps
    assert len({step for step in walk.steps if step.startswith("open")}) >= 4
