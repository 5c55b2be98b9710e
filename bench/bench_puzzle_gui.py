"""Frame times of the puzzle screen under Xvfb while the computer searches and stones fly.

    python bench/bench_puzzle_gui.py [--frames 400]
    python bench/bench_puzzle_gui.py --long astar --seconds 60 [--thread]

Runs on a 1280x720 window (no vsync), each frame timed as the event loop runs it (events, update with the
real elapsed time, draw, flip):

1. *searching*: a dose deal with Watch on and an A* search given 60 s (it runs through the whole measurement in
   the search process, reporting its progress to the panel), while the board keeps animating rounds
   (each frame with no animation starts the next legal round's animation; the position itself is not changed).
2. *watching*: Watch with the default engine solving a dose deal and playing it round by round at speed x4:
   searches, playback and stones in the air interleaved, as a player sees it.

``--long ENGINE`` (``astar`` or ``bfs``, or any single-agent spec) runs only the first kind, for ``--seconds``
of wall time: the exhaustive search over millions of states that used to stall the window.  ``--thread`` runs
the same search the old way, in a ``SearchWorker`` thread of the window's process, for comparison; a
``--long`` run first animates ``--baseline`` seconds with no search, so the machine's own noise is measured in
the same run.  ``--alternate N`` stops and resumes the search process in turns of 5 s (N of each), so the
window's frames with and without the search's CPU use are compared in one run.

Wall times follow the machine's load, which is printed with the figures.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench.record import add_flag, record  # noqa: E402
from xvfb import ensure_display  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=400)
    parser.add_argument("--long", metavar="ENGINE", help="watch this engine (astar, bfs, ...) for --seconds")
    parser.add_argument("--seconds", type=float, default=60.0, help="wall time of the --long run")
    parser.add_argument("--thread", action="store_true", help="--long in a thread of the window's process")
    parser.add_argument("--alternate", type=int, default=0, metavar="N",
                        help="--long in a process: N turns of 5 s with the search process stopped, then running")
    parser.add_argument("--baseline", type=float, default=10.0,
                        help="seconds of the same animation with no search before a --long run (0: none)")
    add_flag(parser)
    options = parser.parse_args(argv)
    ensure_display()
    import arcade

    from game import app
    from game.scenes.solitaire_board import counts, plan_round
    from game.puzzle_session import Puzzle
    from game.views.solitaire_view import SolitaireView

    window = arcade.Window(1280, 720, "StoneCave", antialiasing=False, vsync=False)
    window._enable_event_queue = False
    context = app.start(window, Path(tempfile.mkdtemp()))
    context.sounds.enabled = False
    last = [time.perf_counter()]

    def frame() -> float:
        """One frame; the update is given the time since the last frame began, as the event loop would."""
        started = time.perf_counter()
        window.dispatch_events()
        window._dispatch_updates(min(0.25, started - last[0]))
        window.dispatch_event("on_draw")
        window.flip()
        last[0] = started
        return (time.perf_counter() - started) * 1000

    def short(times: list[float]) -> str:
        return (f"median {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms, "
                f"worst {max(times):.1f} ms")

    target = "median <= 17.5 ms, p95 <= 25 ms"

    def summary(times: list[float]) -> str:
        slow = sum(t > 25 for t in times)
        return (f"median {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms, worst "
                f"{max(times):.1f} ms over {len(times)} frames ({slow} over 25 ms)")

    if options.long:
        spec = options.long if ":" in options.long else f"{options.long}:time={options.seconds + 30:g}"
        view = SolitaireView(context, Puzzle.from_seed("dose", 2024))
        context.show(view)
        if options.thread:
            from ai.base import Limits
            from ai.worker import SearchWorker
            from game.puzzle_search import make_live_engine

            def in_thread(spec: str) -> SearchWorker:
                worker = SearchWorker(make_live_engine(view.session.game, spec), view.session.state, Limits())
                worker.start()
                return worker

            view._worker = in_thread  # type: ignore[method-assign]
        for _ in range(30):  # the screen settles and its warm search process starts
            frame()

        def animate_for(seconds: float) -> tuple[list[float], int]:
            """Frames for ``seconds`` of wall time, a round always in the air; (frame times, frames flying)."""
            times, flying = [], 0
            began = time.perf_counter()
            while time.perf_counter() - began < seconds:
                state = view.session.state
                if not view.scene.is_animating:
                    move = view.session.legal_moves[0]
                    view.scene.show(counts(state))
                    view.scene.animate(plan_round(view.session.game, state, move, view.session.game.apply(state, move)))
                times.append(frame())
                flying += view.scene.field.is_flying
            return times, flying

        baseline = None
        if options.baseline > 0:
            times, _ = animate_for(options.baseline)
            baseline = times
            print(f"puzzle screen, the same animation with no search, {options.baseline:g} s: {summary(times)}")
        view.controller.watch.spec = spec
        view.controller.toggle_watch()
        if options.alternate:
            # The same search, its process stopped (SIGSTOP) and let go (SIGCONT) in turns of 5 s: what is left
            # of its cost to the window is the CPU it takes, not a lock it holds.
            import signal

            animate_for(1.0)
            pid = view.controller.searches.watch_worker.process.pid  # type: ignore[union-attr]
            halves: dict[str, list[float]] = {"stopped": [], "searching": []}
            for _ in range(options.alternate):
                os.kill(pid, signal.SIGSTOP)
                halves["stopped"] += animate_for(5.0)[0]
                os.kill(pid, signal.SIGCONT)
                halves["searching"] += animate_for(5.0)[0]
            view.controller.watch.stop()
            for name, times in halves.items():
                print(f"puzzle screen, {spec} process {name}, {options.alternate} turns of 5 s: {summary(times)}")
            print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
            window.close()
            return 0
        times, flying = animate_for(options.seconds)
        still = view.controller.searches.watch_worker is not None and view.controller.searches.watch_worker.running
        live = view.controller.watch.text.splitlines()[0] if view.controller.watch.text else "-"
        view.controller.watch.stop()  # Stop: a thread unwinds and frees its tables; a process is killed
        after, _ = animate_for(3.0)
        where = "a thread of the window's process" if options.thread else "a separate process"
        print(f"puzzle screen, watching {spec} in {where} for {options.seconds:g} s (still searching at the end: "
              f"{still}; panel: {live}), stones in the air in {100 * flying / len(times):.0f}% of frames: "
              f"{summary(times)}; the frame that started the search {times[0]:.1f} ms, the slowest of the "
              f"next 60 {max(times[1:61]):.1f} ms; after Stop, the slowest frame of the next 3 s {max(after):.1f} ms")
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        yardstick, ratio = "none", None
        if baseline:
            yardstick = f"no search, the same run: {short(baseline)} (median ratio)"
            ratio = statistics.median(times) / statistics.median(baseline)
        record(options.record, "solitaire", f"puzzle screen, {options.seconds:g} s of {spec} in {where}",
               f"{short(times)}; after Stop, worst {max(after):.1f} ms", target=target, yardstick=yardstick,
               ratio=ratio)
        window.close()
        return 0

    # 1. A long search while the stones keep flying.
    view = SolitaireView(context, Puzzle.from_seed("dose", 2024))
    context.show(view)
    for _ in range(30):
        frame()
    view.controller.watch.spec = "astar:time=60"
    view.controller.toggle_watch()
    times, searching, flying = [], 0, 0
    for _ in range(options.frames):
        state = view.session.state
        if not view.scene.is_animating:
            move = view.session.legal_moves[0]
            view.scene.show(counts(state))
            view.scene.animate(plan_round(view.session.game, state, move, view.session.game.apply(state, move)))
        times.append(frame())
        searching += view.controller.searches.watch_worker is not None and view.controller.searches.watch_worker.running
        flying += view.scene.field.is_flying
    view.controller.watch.stop()
    live = view.controller.watch.text.splitlines()[0] if view.controller.watch.text else "-"
    print(f"puzzle screen, A* searching in {100 * searching / len(times):.0f}% of frames, stones in the air in "
          f"{100 * flying / len(times):.0f}%: {summary(times)} (panel at the end: {live})")
    record(options.record, "solitaire", "puzzle screen, A* searching while rounds animate", short(times), target=target)

    # 2. Watching the default engine solve a deal, round by round.
    view = SolitaireView(context, Puzzle.from_seed("dose", 7))
    context.show(view)
    for _ in range(30):
        frame()
    view.controller.speed_index = 3
    view.controller.toggle_watch()
    times = []
    for _ in range(options.frames):
        times.append(frame())
    rounds = view.session.rounds
    view.controller.watch.stop()
    print(f"puzzle screen, watching {view.controller.watch.spec} at speed x4: {rounds} rounds played in {len(times)} frames; "
          f"{summary(times)}")
    record(options.record, "solitaire", f"puzzle screen, watching {view.watch_spec} at x4", short(times), target=target)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
