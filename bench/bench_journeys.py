"""Long random journeys over every screen, with the journeys' invariants checked after every step (issue 29).

    python bench/bench_journeys.py [--seeds 8] [--evenings 2] [--steps 150] [--first-seed 100] [--record]

Each seed is one random journey (``tests/game/journeys.py``: screens, resizes from 800x500 to 2560x1440, F11
into and out of full screen, the window manager's maximise (with ``jwm`` installed), keys, Ctrl+S, clicks on
widgets, the board and legal places, time passing, quitting and starting again, every game on offer for Resume
resumed after the steps that can change them) on one 1280x720 window under Xvfb; each of ``--evenings`` more
seeds is an evening of games (``evening=True``: mostly moves, with leaving, saving, quitting and resuming).  A violated invariant ends that journey and is reported with its seed and the steps that led to it (the
test ``random_journey(gui, seed, steps)`` replays it); the run goes on with the next seed.  The figure is the
number of steps checked and the number of violations (the target is none).  The test suite walks one seed of 70
steps and one evening of 50 (``tests/game/test_gui_journeys.py``); the long walks are this script's.
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
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "game"))

from bench.record import add_flag, record  # noqa: E402
from xvfb import ensure_display  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8, help="how many journeys (one per seed)")
    parser.add_argument("--evenings", type=int, default=2, help="how many evenings of games (one per seed) after them")
    parser.add_argument("--steps", type=int, default=150, help="steps per journey")
    parser.add_argument("--first-seed", type=int, default=100)
    add_flag(parser)
    options = parser.parse_args(argv)
    if options.seeds < 1 or options.steps < 1 or options.evenings < 0:
        parser.error("--seeds and --steps must be at least 1, --evenings at least 0")
    ensure_display()
    import arcade

    from conftest import Gui
    from game import app, theme
    from journeys import Journey, random_journey

    theme.load_fonts()
    window = arcade.Window(1280, 720, "StoneCave journeys", resizable=True, antialiasing=False, vsync=False)
    window._enable_event_queue = False
    steps = violations = 0
    started = time.perf_counter()
    journeys = options.seeds + options.evenings
    offer_checks = 0
    for seed in range(options.first_seed, options.first_seed + journeys):
        evening = seed >= options.first_seed + options.seeds
        with tempfile.TemporaryDirectory() as folder:
            if window.fullscreen:
                window.set_fullscreen(False)
            window.set_size(1280, 720)
            gui = Gui(window)
            gui.config_dir = Path(folder)  # a journey quits and starts again on the same folder
            gui.context = app.start(window, gui.config_dir)
            gui.context.sounds.enabled = False
            gui.frame(2)
            try:
                walk = random_journey(gui, seed, options.steps, evening=evening)
                steps += walk.checks
                offer_checks += walk.offer_checks
                print(f"seed {seed}{' (evening)' if evening else ''}: {walk.checks} steps, {walk.offer_checks} "
                      f"checks of the games in progress, no violation", flush=True)
            except AssertionError as error:
                violations += 1
                print(f"seed {seed}: VIOLATION {error}", flush=True)
            view = window.current_view
            if hasattr(view, "cancel_search"):
                view.cancel_search()
    seconds = time.perf_counter() - started
    print(f"{steps} steps checked over {journeys} journeys ({offer_checks} checks of the games in progress) in "
          f"{seconds:.0f} s: {violations} violations")
    what = f"random journeys, {options.seeds} seeds + {options.evenings} evenings x {options.steps} steps"
    record(options.record, "journeys", f"{what}, steps checked", steps, "steps", target=f"{journeys * options.steps}")
    record(options.record, "journeys", f"{what}, invariant violations", violations, "", target="0")
    window.close()
    return 1 if violations else 0


if __name__ == "__main__":
    raise SystemExit(main())
