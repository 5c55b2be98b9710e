"""How fast the background search thread stops: cancel latency and deadline overrun, as distributions.

    python bench/bench_worker.py [--game kalah] [--engine SPEC] [--searches 300] [--seed 0]

Over a few hundred searches from positions taken from random games, with the strongest registered engine
(the game's "Strongest" preset, else ``pvs``, else the first registered engine):

- cancel latency: a search with no time limit is cancelled after a random 5-60 ms; the latency is from the
  ``cancel()`` call to the moment the thread posted its ``Finished`` message;
- deadline overrun: a search with ``Limits(time=T)`` (T random in 20-150 ms); the overrun is from the
  token's deadline to the posted ``Finished`` (negative when the engine answered early: a proven result, or
  the safety margin measured by ``ai.base.lateness``).

``Finished`` after a cancel is posted by ``cancel()`` itself, and at a deadline by the engine or, when it is
late, by the worker's watchdog (``ai.worker``); the script also prints when the search thread itself
stopped, which is what the machine's scheduling decides.

The UI thread is imitated by a loop that drains ``poll()`` every millisecond, as a window would every frame.
Prints median, 95th percentile and maximum in milliseconds; the target is 10 ms for both.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules  # noqa: E402
from ai import registry  # noqa: E402
from ai.base import Limits  # noqa: E402
from ai.worker import Finished, Progress, SearchWorker  # noqa: E402
from bench.record import add_flag, game_label, record  # noqa: E402


def strongest_engine(game: rules.Game) -> str:
    """The game's Strongest preset, else the PVS engine, else the first registered engine that plays it."""
    preset = registry.presets(game).get("Strongest")
    if preset:
        return preset
    names = [info.name for info in registry.engines(game)]
    return "pvs" if "pvs" in names else names[0]


def positions(game: rules.Game, count: int, rng: random.Random) -> list:
    """``count`` non-terminal positions from random games, a few plies to mid-game deep."""
    found = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 30)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            found.append(state)
    return found


def run(worker: SearchWorker, cancel_after: float | None) -> tuple[Finished, float | None]:
    """Drive ``worker`` like a UI loop would; cancel after ``cancel_after`` seconds if given.

    Returns the final message and when ``cancel()`` was called (None if the search ended first).
    """
    worker.start()
    cancel_at = None if cancel_after is None else worker.started_at + cancel_after
    cancelled_at = None
    final = None
    while final is None:
        if cancel_at is not None and not worker.done and time.perf_counter() >= cancel_at:
            cancelled_at = time.perf_counter()
            worker.cancel()
            cancel_at = None
        for message in worker.poll():
            if isinstance(message, Finished):
                final = message
            elif not isinstance(message, Progress):
                raise RuntimeError(f"the engine failed: {message}")
        time.sleep(0.001)
    return final, cancelled_at


def describe(name: str, values_ms: list[float]) -> str:
    if not values_ms:
        return f"{name}: no samples"
    ordered = sorted(values_ms)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return (f"{name}: n={len(ordered)}  median {statistics.median(ordered):.2f} ms  p95 {p95:.2f} ms  "
            f"max {ordered[-1]:.2f} ms  (over 10 ms: {sum(v > 10 for v in ordered)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kalah")
    parser.add_argument("--engine", help="engine spec (default: the strongest registered)")
    parser.add_argument("--searches", type=int, default=300, help="searches of each kind (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    add_flag(parser)
    args = parser.parse_args(argv)
    game = rules.parse_game_spec(args.game)
    spec = args.engine or strongest_engine(game)
    rng = random.Random(args.seed)
    starts = positions(game, args.searches, rng)
    print(f"{game.spec}, engine {spec}, {args.searches} searches of each kind (shared, noisy machine)")

    latencies, stops, finished_first, fallbacks = [], [], 0, 0
    for state in starts:
        # The engine's own time parameter, if any, is lifted so only the cancel stops the search.
        engine = registry.make_engine(game, _without_time(spec))
        worker = SearchWorker(engine, state)
        final, cancelled_at = run(worker, rng.uniform(0.005, 0.060))
        fallbacks += bool(final.result.info.get("fallback"))
        if cancelled_at is None or not final.cancelled:
            finished_first += 1
            continue
        latencies.append(1000 * (worker.finished_at - cancelled_at))
        worker._thread.join()
        stops.append(1000 * (worker.search_ended_at - cancelled_at))
    print(describe("cancel latency  ", latencies))
    print(describe("  (search thread stopped after the cancel)", stops))
    print(f"  (fallback moves after a cancel, nothing completed yet: {fallbacks})")
    if finished_first:
        print(f"  ({finished_first} searches finished before their cancel and are not counted)")

    overruns, ends, early, by_watchdog = [], [], 0, 0
    for state in starts:
        engine = registry.make_engine(game, _without_time(spec))
        worker = SearchWorker(engine, state, Limits(time=rng.uniform(0.020, 0.150)))
        final, _ = run(worker, None)
        fallbacks += bool(final.result.info.get("fallback"))
        by_watchdog += bool(final.result.info.get("at_deadline"))
        overrun = 1000 * (worker.finished_at - worker.token.deadline)
        if overrun < 0:
            early += 1
        overruns.append(overrun)
        worker._thread.join()
        ends.append(1000 * (worker.search_ended_at - worker.token.deadline))
    print(describe("deadline overrun", [max(0.0, v) for v in overruns]))
    print(f"  ({early} searches answered before their deadline, counted as 0 ms; {by_watchdog} answered by the "
          f"watchdog at the deadline because the engine was late)")
    print(describe("  (engine's own return after the deadline)", [max(0.0, v) for v in ends]))
    print(f"fallback moves (nothing completed in time): {fallbacks} of {2 * len(starts)} searches")
    record(args.record, "engines", f"worker: cancel() to Finished posted, {game_label(game)}", summary(latencies),
           target="never over 10 ms")
    record(args.record, "engines", f"worker: deadline to Finished posted, {game_label(game)}",
           summary([max(0.0, v) for v in overruns]), target="never over 10 ms")
    return 0


def summary(values_ms: list[float]) -> str:
    """'median 0.06 ms, p95 0.08 ms, max 0.55 ms; 0 of 279 over 10 ms' (for --record)."""
    ordered = sorted(values_ms) or [float("nan")]
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return (f"median {statistics.median(ordered):.2f} ms, p95 {p95:.2f} ms, max {ordered[-1]:.2f} ms; "
            f"{sum(v > 10 for v in ordered)} of {len(values_ms)} over 10 ms")


def _without_time(spec: str) -> str:
    """``spec`` with its engine's ``time`` parameter set to none (when the engine has one)."""
    info, params = registry.parse_engine_spec(spec)
    if "time" not in params:
        return spec
    params["time"] = None
    return registry.format_engine_spec(info.name, params)


if __name__ == "__main__":
    sys.exit(main())
