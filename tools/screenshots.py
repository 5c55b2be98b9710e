"""Write the screenshots: ``python tools/screenshots.py [SCREEN ...]`` -> docs/screenshots/SCREEN-WxH.png.

Drives the real application on a hidden window (Xvfb when no display is set) and photographs every screen of
``game.views.tour`` at 800x500, 1280x720 and 1920x1080 (``--size 1280x720`` for one size), so the pictures
follow the code; each picture's layout problems (a text or button outside the window or over another, as the
layout tests check them) are printed beside its name.  More pictures show a moment: a legal cell glowing
under the mouse in Magnetic Cave, a puzzle being watched as A* searches, and a Kalah position replayed from a
click on the analysis panel's evaluation graph.  The analysis screens are photographed after ``ANALYSIS_WAIT``
seconds of real time, so the panel shows a search some plies deep and the graph its values.  ``--journeys``
(also part of a full run) photographs a game mid-journey: Kalah opened at 1024x600 and grown to 1280x720 and
to 2560x1440 as a window manager resizes (``kalah-grown-*``), after F11 (``kalah-fullscreen-*``), and maximised by
a window manager (``kalah-maximised-*``: jwm, run for the moment as the journeys run it).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from xvfb import ensure_display  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SIZES = ((800, 500), (1280, 720), (1920, 1080))
CAVE_HOVER = "D4"
ANALYSIS_WAIT = 5.0
"""Seconds an analysis screen searches (and fills its graph) before its picture."""
GRAPH_CLICK = 6
"""The position of the Kalah analysis screen's graph clicked for the replay picture."""


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.partition("x")
    return int(width), int(height)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("screens", nargs="*", help="screens to photograph (default: all)")
    parser.add_argument("--size", type=_size, action="append", help="WIDTHxHEIGHT (default: the three sizes)")
    parser.add_argument("--journeys", action="store_true", help="only the pictures of a game grown and after F11")
    options = parser.parse_args(argv)
    ensure_display()
    import arcade

    from game import app
    from game.views import layout, tour

    names = options.screens or list(tour.SCREENS)
    unknown = [name for name in names if name not in tour.SCREENS]
    if unknown:
        parser.error(f"unknown screens {unknown}; known: {', '.join(tour.SCREENS)}")
    window = arcade.Window(1280, 720, "StoneCave", resizable=True, antialiasing=False, vsync=False)
    window._enable_event_queue = False

    def frames(count: int, dt: float = 1 / 60) -> None:
        for _ in range(count):
            window.dispatch_events()
            window._dispatch_updates(dt)
            window.dispatch_event("on_draw")
            window.flip()

    def shoot(name: str) -> None:
        window.dispatch_event("on_draw")
        image = arcade.get_image(0, 0, window.width, window.height)
        window.flip()
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / f"{name}-{window.width}x{window.height}.png"
        image.convert("RGB").save(path, optimize=True)
        wrong = layout.problems(layout.boxes(window.current_view), window.width, window.height)
        print(path.relative_to(ROOT), "ok" if not wrong else "\n    " + "\n    ".join(wrong))

    for width, height in () if options.journeys else options.size or SIZES:
        window.set_size(width, height)
        window.dispatch_event("on_resize", width, height)
        for name in names:
            context = app.start(window, Path(tempfile.mkdtemp()))  # a fresh player: no saves, no settings
            context.sounds.enabled = False
            context.apply_settings = lambda: None  # type: ignore[method-assign]
            tour.open_screen(context, name)
            frames(90 if name == "title" else 60, 1 / 30)
            view = window.current_view
            if name.endswith("-analysis"):
                began = time.perf_counter()
                while time.perf_counter() - began < ANALYSIS_WAIT:
                    frames(1)
                    time.sleep(0.01)
            shoot(name)
            if name == "kalah-analysis" and (width, height) == (1280, 720):
                panel = view.analysis
                _, bottom, _, plot_height = panel.plot
                x, y = panel.point_x(GRAPH_CLICK), bottom + plot_height / 2
                window.dispatch_event("on_mouse_motion", int(x), int(y), 0, 0)
                window.dispatch_event("on_mouse_press", int(x), int(y), 1, 0)  # that position, replayed
                window.dispatch_event("on_mouse_release", int(x), int(y), 1, 0)
                began = time.perf_counter()
                while time.perf_counter() - began < ANALYSIS_WAIT:
                    frames(1)
                    time.sleep(0.01)
                shoot("kalah-analysis-replay")
            if name == "magnetic-cave" and (width, height) == (1280, 720):
                game = view.match.game
                x, y = view.scene.centre(game.parse_move(view.match.state, CAVE_HOVER))
                window.dispatch_event("on_mouse_motion", int(x), int(y), 0, 0)  # a legal cell glows
                frames(30, 1 / 30)
                shoot("magnetic-cave-hover")
            if name == "puzzle" and (width, height) == (1280, 720):
                view.hint()
                view.controller.searches.hint_worker.wait(10)
                frames(60, 1 / 30)
                shoot("puzzle-hint")
                view.controller.watch.spec = "astar:time=30"  # A* in its own process, its progress in the panel
                view.controller.toggle_watch()
                began = time.perf_counter()
                while time.perf_counter() - began < 2.5:
                    frames(1)
                view.controller.watch.toggle_pause()
                frames(30, 1 / 30)
                shoot("puzzle-watch")
                view.controller.watch.stop()
            if hasattr(view, "cancel_search"):
                view.cancel_search()
    if options.journeys or not (options.screens or options.size):
        _journey_pictures(window, frames, shoot)
    window.close()
    return 0


def _journey_pictures(window, frames, shoot) -> None:  # type: ignore[no-untyped-def]
    """Kalah opened at 1024x600, a move played, then the window grown as a window manager does it (no hand-made
    resize event), then F11: the moments issue 29 found broken (the top bar gone, the board in a corner)."""
    import arcade

    from game import app
    from game.views import tour

    window.set_size(1024, 600)
    frames(3)
    context = app.start(window, Path(tempfile.mkdtemp()))
    context.sounds.enabled = False
    tour.open_screen(context, "kalah")
    frames(30, 1 / 30)
    window.dispatch_event("on_key_press", arcade.key.KEY_4, 0)
    for width, height in ((1280, 720), (2560, 1440)):
        window.set_size(width, height)
        frames(45, 1 / 30)
        shoot("kalah-grown")
    window.set_size(1280, 720)
    frames(5)
    window.dispatch_event("on_key_press", arcade.key.F11, 0)  # the real switch: the settings apply it
    frames(45, 1 / 30)
    shoot("kalah-fullscreen")
    window.dispatch_event("on_key_press", arcade.key.F11, 0)
    frames(5)
    # The window manager's maximise (Xvfb has none: jwm for the moment, as the journeys run it).
    sys.path.insert(0, str(ROOT / "tests" / "game"))
    from window_manager import WindowManager, has_window_manager

    if not has_window_manager():
        print("kalah-maximised: no window manager (apt-get install jwm), not photographed")
        return
    manager = WindowManager(window)
    try:
        if manager.maximise():
            frames(45, 1 / 30)
            shoot("kalah-maximised")
        manager.restore()
    finally:
        manager.stop()
    frames(5)


if __name__ == "__main__":
    sys.exit(main())
