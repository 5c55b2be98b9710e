"""Type grows with the window on every screen, within bounds (issue 29, item 6, beyond the game boards).

At 2560x1440 every screen (the menus built from YAML, the puzzle list and the puzzle's panels, the tutorial, the
analysis panel) must read like 1280x720, larger: the typical text (the median font size of what the screen
shows, its widgets' labels and its own texts) is at least 1.5 times its size at 1280x720, and no text stays
at a 1280x720 size below 15 pt.  At 800x500 every text stays at least ``journeys.READABLE``.  At each of the three
sizes the screen holds every invariant of ``tests/game/journeys.py`` (inside the window, no overlaps, nothing cut
off).  The sizes are reached as the window manager resizes, while the screen is shown, and by opening the
screen in a window already that size.
"""
from __future__ import annotations

import statistics
from typing import Any

import pytest

from game.views import tour
from journeys import READABLE, Journey, _font_sizes

SCREENS = ("title", "title-resume", "play", "seats", "settings", "settings-pvs", "statistics", "load", "rules",
           "puzzles", "learn", "learn-kalah", "learn-hus", "puzzle", "kalah-analysis", "magnetic-cave-analysis")
"""Screens whose words must grow (the game boards and top bars are tests/game/test_gui_journeys.py's)."""


def _sizes(view: Any) -> list[float]:
    """The font sizes of what the screen shows apart from the game screens' top bar and board, which grew
    already; on an analysis screen, the analysis panel's own texts."""
    analysis = getattr(view, "analysis", None)
    if analysis is not None and getattr(view, "show_analysis", False):
        return [text.font_size for text in vars(analysis).values() if hasattr(text, "font_size") and text.text]\
            + [text.font_size for texts in (analysis.names, analysis.words, analysis.ticks, analysis.ahead)
               for text in texts if text.text.strip()]
    top_bar = getattr(view, "top_bar", None)
    bar = {text.text[:40] for text in vars(top_bar).values() if hasattr(text, "font_size")} if top_bar else set()
    return [size for name, size, board_or_bar in _font_sizes(view)
            if not name.startswith("board ") and name not in bar]


@pytest.fixture
def journey(gui):  # type: ignore[no-untyped-def]
    walk = Journey(gui)
    yield walk
    walk.leave_full_screen()
    view = gui.window.current_view
    if hasattr(view, "cancel_search"):
        view.cancel_search()


@pytest.mark.parametrize("name", SCREENS)
def test_text_grows_with_the_window_and_stays_readable_small(journey, name: str) -> None:  # type: ignore
    journey.resize(1280, 720)
    journey.open(name)
    design = _sizes(journey.view)
    assert design, f"{name}: no texts found"
    journey.resize(2560, 1440)  # grown while shown
    large = _sizes(journey.view)
    assert statistics.median(large) >= 1.5 * statistics.median(design), (
        f"{name}: the typical text is {statistics.median(large):g} pt at 2560x1440, "
        f"{statistics.median(design):g} pt at 1280x720")
    assert min(large) >= 15, f"{name}: a text stays at {min(large):g} pt at 2560x1440"
    journey.open(name)  # opened in a window already that large
    assert statistics.median(_sizes(journey.view)) >= 1.5 * statistics.median(design)
    journey.resize(800, 500)
    small = _sizes(journey.view)
    assert min(small) >= READABLE, f"{name}: a text at {min(small):g} pt at 800x500"
    journey.resize(1280, 720)
    assert statistics.median(_sizes(journey.view)) == pytest.approx(statistics.median(design), abs=1)


def test_every_screen_named_here_is_a_screen_of_the_tour() -> None:
    assert set(SCREENS) <= set(tour.SCREENS)
