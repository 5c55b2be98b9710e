"""Window figures under Xvfb: start-up to the main menu, frame times while 48 stones fly (and, on the Magnetic
Cave screen, while bricks slide home) and the computer searches, and how fast undo stops a running search.

    python bench/bench_gui.py [--frames 600] [--undo-trials 20]

Frame time is the wall time of one whole frame as the event loop runs it (events, update with the real
elapsed time, draw, flip; no vsync) at 1280x720 on a Kalah board whose 48 stones are kept flying from pit to
pit, while an alpha-beta search (no depth or time limit) runs in the background worker thread.  Undo latency is
from the call of the view's ``undo`` to the moment the worker thread posts its last message.

Wall times on a shared machine follow its load, so the same scene is also measured as *work*: the CPU time of
one frame in a child process where Mesa's llvmpipe rasterises on the calling thread (``LP_NUM_THREADS=0``) and
nothing else runs, which the load hardly changes (``--cpu-frames``).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench.record import add_flag, record  # noqa: E402
from xvfb import ensure_display  # noqa: E402

STARTUP_CHILD = """
import time
started = time.perf_counter()
import arcade
from game import app
window = arcade.Window(1280, 720, "StoneCave", resizable=True, antialiasing=False, vsync=False)
app.start(window)
window.dispatch_events()
window.dispatch_event("on_draw")
window.flip()
print(time.perf_counter() - started)
"""


def startup_seconds(runs: int) -> list[float]:
    """Fresh processes: from the first line of the program (before importing arcade) to the first menu frame."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            env = {**os.environ, "STONECAVE_CONFIG_DIR": folder}
            output = subprocess.run([sys.executable, "-c", STARTUP_CHILD], env=env, capture_output=True, text=True,
                                    check=True, cwd=Path(__file__).resolve().parent.parent)
            times.append(float(output.stdout.strip().splitlines()[-1]))
    return times


CPU_CHILD = """
import os, statistics, sys, tempfile, time
from pathlib import Path
import arcade
import rules
from game import app
from game.session import Session
from game.savegame import Seat
window = arcade.Window(1280, 720, "StoneCave", antialiasing=False, vsync=False)
window._enable_event_queue = False
context = app.start(window, Path(tempfile.mkdtemp()))
context.sounds.enabled = False
match = Session.new(rules.get_game("kalah"), (Seat(), Seat()))
context.show_match(match)
view = window.current_view
locations = sorted(view.spec.locations)
def frame():
    started = time.thread_time()
    window.dispatch_events(); window._dispatch_updates(1 / 60); window.dispatch_event("on_draw"); window.flip()
    return (time.thread_time() - started) * 1000
for _ in range(20):
    frame()
times = []
for index in range(int(sys.argv[1])):
    if index % 60 == 0:
        for stone in view.scene.field.stones:
            following = locations[(locations.index(stone.location) + 1) % len(locations)]
            view.scene.field.fly(stone, following, 0.6, height=2.0)
    times.append(frame())
class Blank(arcade.View):
    def on_draw(self):
        self.clear()
window.show_view(Blank())
blank = [frame() for _ in range(60)]
print(statistics.median(times), sorted(times)[int(0.95 * (len(times) - 1))], statistics.median(blank))
"""


def cpu_per_frame(frames: int) -> tuple[float, float, float]:
    """(median, p95, blank median) CPU milliseconds per frame, rasterising on the main thread, no search."""
    env = {**os.environ, "LP_NUM_THREADS": "0"}
    output = subprocess.run([sys.executable, "-c", CPU_CHILD, str(frames)], env=env, capture_output=True,
                            text=True, check=True, cwd=Path(__file__).resolve().parent.parent)
    median, p95, blank = (float(value) for value in output.stdout.split()[-3:])
    return median, p95, blank


SEARCH_ENGINE = os.environ.get("STONECAVE_BENCH_ENGINE", "pvs:time=none,depth=60")
"""The engine searching during the frame measurements (``--engine``): by default the engine the presets use, on
the compiled core where it is built (``alphabeta:depth=30`` is the pure-Python reference, holding the GIL)."""

CAVE_OPENING = ["A4", "H4", "B4", "H5", "A5", "G4", "A3", "H3", "C4", "A6", "B5", "H6", "B3", "G5", "C3", "G3"]


def cave_frames(window, context, frames: int, frame):  # type: ignore[no-untyped-def]
    """Frame times on the Magnetic Cave screen while the computer (Black) searches and bricks slide.

    Every 30 frames six bricks already on the board are launched again from out in their rows, so bricks are
    always being pulled home; a search that ends at the game's 3-second limit is started again at once.
    Returns the frame times (ms), the bricks sliding in each frame and the fraction of frames with a search.
    """
    import rules
    from game.session import Session
    from game.savegame import Seat

    game = rules.get_game("magnetic-cave")
    match = Session.new(game, (Seat(SEARCH_ENGINE, 3600.0), Seat()))
    for text in CAVE_OPENING:
        match.play(game.parse_move(match.state, text))
    context.show_match(match)
    view = window.current_view
    scene = view.scene
    for _ in range(10):
        frame(1 / 60)
    movers = [cell for cell in sorted(scene.bricks) if cell % 8 in (1, 2, 6)][:6]
    times, sliding, searching = [], [], 0
    last = time.perf_counter()
    for index in range(frames):
        if index % 30 == 0:
            state = view.match.state
            for cell in movers:
                scene.physics.launch(cell, state.at(cell) - 1, state.occupied & ~(1 << cell))
        view.controller.pending_move = None  # keep the computer thinking: a finished search starts again
        sliding.append(sum(1 for brick in scene.bricks.values() if brick.is_moving))
        searching += view.controller.worker is not None
        now = time.perf_counter()
        frame(now - last)
        last = now
        times.append((time.perf_counter() - now) * 1000)
    view.cancel_search()
    return times, sliding, searching / frames


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--engine", default=None, help="engine spec searching meanwhile (default pvs:time=none,depth=60)")
    parser.add_argument("--undo-trials", type=int, default=20)
    parser.add_argument("--startup-runs", type=int, default=3)
    parser.add_argument("--cpu-frames", type=int, default=240)
    add_flag(parser)
    options = parser.parse_args(argv)
    if options.engine:
        global SEARCH_ENGINE
        SEARCH_ENGINE = options.engine
        os.environ["STONECAVE_BENCH_ENGINE"] = options.engine  # for any measuring subprocess
    ensure_display()

    median, p95, blank = cpu_per_frame(options.cpu_frames)
    print(f"work per frame (main-thread CPU, llvmpipe on the main thread, 48 stones flying, no search): median "
          f"{median:.1f} ms, p95 {p95:.1f} ms; a window that only clears itself {blank:.1f} ms")

    starts = startup_seconds(options.startup_runs)
    print(f"start-up to the main menu: median {statistics.median(starts) * 1000:.0f} ms "
          f"(runs: {', '.join(f'{s * 1000:.0f}' for s in starts)} ms)")
    record(options.record, "frames", "start-up to the main menu", round(statistics.median(starts) * 1000), "ms (median)",
           target="1 s")

    import arcade

    import rules
    from game import app
    from game.session import Session
    from game.savegame import Seat

    window = arcade.Window(1280, 720, "bench", resizable=True, antialiasing=False, vsync=False)
    context = app.start(window, Path(tempfile.mkdtemp()))
    context.sounds.enabled = False
    game = rules.get_game("kalah")
    # North (the computer, searching without limit) to move: South has just played pit 0.
    match = Session.new(game, (Seat(), Seat(SEARCH_ENGINE, 3600.0)))
    match.play(0)
    context.show_match(match)
    view = window.current_view
    scene = view.scene

    def frame(dt: float) -> None:
        window.dispatch_events()
        window._dispatch_updates(dt)
        window.dispatch_event("on_draw")
        window.flip()

    locations = sorted(view.spec.locations)

    def keep_flying() -> None:
        """Send every stone on to the next location: all 48 stones in the air at once, then settling."""
        for stone in scene.field.stones:
            following = locations[(locations.index(stone.location) + 1) % len(locations)]
            scene.field.fly(stone, following, 0.6, height=2.0)

    for _ in range(10):
        frame(1 / 60)
    assert view.controller.worker is not None, "the computer should be searching"
    times: list[float] = []
    flying: list[int] = []
    last = time.perf_counter()
    for index in range(options.frames):
        if index % 60 == 0:
            keep_flying()
        flying.append(sum(1 for stone in scene.field.stones if stone.flight is not None))
        now = time.perf_counter()
        frame(now - last)
        last = now
        times.append((time.perf_counter() - now) * 1000)
    searching = view.controller.worker is not None
    # The machine's own floor, measured in the same run: a frame that only clears the window.
    class Blank(arcade.View):
        def on_draw(self) -> None:
            self.clear()

    window.show_view(Blank())
    blank = []
    for _ in range(120):
        now = time.perf_counter()
        frame(1 / 60)
        blank.append((time.perf_counter() - now) * 1000)
    window.show_view(view)
    print(f"frame time, 1280x720, 48 stones flying and settling (mean {statistics.mean(flying):.0f} in the air), "
          f"{SEARCH_ENGINE} searching{' throughout' if searching else ' (search ended early!)'}: "
          f"median {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms, "
          f"worst {max(times):.1f} ms over {len(times)} frames")
    print(f"  same run, a window that only clears itself: median {statistics.median(blank):.1f} ms "
          f"(ratio {statistics.median(times) / statistics.median(blank):.1f}x); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    target = "median <= 17.5 ms, p95 <= 25 ms"
    record(options.record, "frames", "Kalah frame, 48 stones flying, search running",
           f"median {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms", target=target,
           yardstick=f"a window that only clears itself, median {statistics.median(blank):.1f} ms",
           ratio=statistics.median(times) / statistics.median(blank))

    cave_times, cave_sliding, cave_searching = cave_frames(window, context, options.frames, frame)
    print(f"frame time, 1280x720, Magnetic Cave, 16 bricks on the board and 6 sliding home every half second "
          f"(mean {statistics.mean(cave_sliding):.1f} sliding), {SEARCH_ENGINE} searching in "
          f"{100 * cave_searching:.0f}% of frames (restarted at its 3-second limit): median "
          f"{statistics.median(cave_times):.1f} ms, p95 {percentile(cave_times, 0.95):.1f} ms, worst "
          f"{max(cave_times):.1f} ms over {len(cave_times)} frames; load average {os.getloadavg()[0]:.1f}")
    record(options.record, "frames", "Magnetic Cave frame, bricks sliding, search running",
           f"median {statistics.median(cave_times):.1f} ms, p95 {percentile(cave_times, 0.95):.1f} ms "
           f"(worst {max(cave_times):.1f} ms)", target=target)
    context.show_match(match)
    view = window.current_view

    latencies = []
    for _ in range(options.undo_trials):
        view.new_game()
        view.match.seats = (Seat(), Seat(SEARCH_ENGINE, 3600.0))
        view.play(0)
        for _ in range(5):
            frame(1 / 60)
        worker = view.controller.worker
        assert worker is not None and worker.running
        time.sleep(0.05)
        pressed = time.perf_counter()
        view.undo()
        returned = time.perf_counter()
        worker.wait(2.0)
        latencies.append(((worker.finished_at or time.perf_counter()) - pressed) * 1000)
        assert returned - pressed < 0.5
    print(f"undo during a search to the search stopping: median {statistics.median(latencies):.2f} ms, "
          f"worst {max(latencies):.2f} ms over {len(latencies)} trials")
    record(options.record, "frames", "undo to the search stopping", round(statistics.median(latencies), 2),
           f"ms (median; worst {max(latencies):.2f} ms)", target="10 ms")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
