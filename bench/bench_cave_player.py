"""The Magnetic Cave computer player: every move within 3 seconds, and its score against the window baseline.

    python bench/bench_cave_player.py timing [--moves 500] [--spec SPEC] [--limit 3]
    python bench/bench_cave_player.py strength [--games 100] [--time 1.0] [--jobs 2] [--plies 2] [--colour white]
    python bench/bench_cave_player.py strength --colour white --depth 6 [--games 100] [--jobs 2] [--deep-three 0,80]
    python bench/bench_cave_player.py strength --colour white --depth 6 --opponent-model SPEC [--margin 60] [--gain 150]
    python bench/bench_cave_player.py ablation --feature solver [--games 40] [--time 0.5] [--jobs 2]
    python bench/bench_cave_player.py speed [--seconds 20]

*timing* plays computer-against-computer games with ``SPEC`` (default: the Strongest preset) on both sides,
exactly as the console does: for every move a fresh engine is built from the spec and searches with
``Limits(time=LIMIT)`` and a cancel token due at the limit.  Each move is timed from before the engine is
built to after its move is returned, so the time includes everything the player does (forced-move checks,
the iterative deepening, reading the principal variation).  Games start from a random two-ply opening (seeded)
so they differ; it reports the number of moves, mean, median, 99th percentile and slowest move, and how many
moves went over the limit.

On a machine busy with other work the operating system can stall the process for seconds (seen here at a
load of 10-13 on two cores: a 3 s move with 0.1 s of CPU), so the CPU time per move is reported too, and the
figures in BENCHMARKS.md were taken with ``nice -n -5`` standing in for a machine where the game is the one
busy program.

*strength* runs ``ai.tournament.compare`` between the player (the Strongest spec with ``--time`` seconds per
move) and ``alphabeta:depth=2,eval=windows`` (depth-2 alpha-beta with the textbook window evaluator): the
start position and ``games / 2 - 1`` balanced random openings of ``--plies`` moves, each played twice with
the colours swapped.  With ``--colour`` it plays only the player's games with that colour, from the same
openings; adding ``--depth N`` makes the player ``pvs:depth=N,time=none`` with no clock (``pvs`` alone also
stops at 1 s, which under load cuts depth-6 searches short), so every game is reproducible
whatever the machine's load (how strength grows with depth, and A/B runs of evaluator changes: ``--deep-three
0,80`` gives a search playing White the bonus for its own deep windows of three, off by default;
``--opponent-model SPEC`` has the depth-limited player set one-move traps for an opponent assumed to play like
``SPEC``, see ``ai.traps.trap_move``).

*ablation* shows what one piece of the player is worth: the player against itself with ``--feature`` switched
off (``solver``: no exact endgame solver; ``zugzwang``: no zugzwang outlook in the evaluation), both at
``--time`` seconds per move, from the same openings as *strength*, each played with both colours.

*speed* compares the search kernels at equal depth on the same positions: ``pvs`` on the cave kernel against
``pvs:fast=false`` (the rules protocol and ``ThreatEvaluator``), CPU seconds in one run.

The experiments *outlook* and *solver* (an A/B against an earlier commit) are in
``tools/cave_experiments.py``.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import registry  # noqa: E402
from ai.base import CancelToken, EngineError, Limits  # noqa: E402
from ai.tournament import compare  # noqa: E402
from ai.traps import trap_move  # noqa: E402
from bench.record import add_flag, record  # noqa: E402
from rules.magnetic_cave import MagneticCave  # noqa: E402

BASELINE = "alphabeta:depth=2,eval=windows"


def strongest(game: MagneticCave) -> str:
    return registry.presets(game)["Strongest"]


def with_time(spec: str, seconds: float) -> str:
    """``spec`` with its ``time`` parameter set to ``seconds``."""
    name, _, rest = spec.partition(":")
    items = [item for item in rest.split(",") if item and not item.startswith("time=")]
    return f"{name}:" + ",".join([f"time={seconds:g}", *items])


def timing(game: MagneticCave, spec: str, moves: int, limit: float, seed: int,
           condition: str | None = None) -> None:
    rng = random.Random(seed)
    times: list[float] = []
    cpu_times: list[float] = []
    games = 0
    slowest = (0.0, "")
    while len(times) < moves:
        state = game.initial_state()
        for _ in range(2):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        games += 1
        while not game.is_terminal(state) and len(times) < moves:
            started, cpu_started = time.perf_counter(), time.process_time()
            engine = registry.make_engine(game, spec)
            result = engine.search(state, Limits(time=limit), CancelToken(deadline=started + limit))
            elapsed = time.perf_counter() - started
            times.append(elapsed)
            cpu_times.append(time.process_time() - cpu_started)
            if elapsed > slowest[0]:
                slowest = (elapsed, f"{game.to_text(state)} (depth {result.depth})")
            state = game.apply(state, result.move)
        print(f"  game {games}: {len(times)} moves so far, slowest {slowest[0]:.3f} s", flush=True)
    ordered = sorted(times)
    over = sum(t > limit for t in times)
    print(f"{spec}, limit {limit:g} s: {len(times)} moves in {games} games")
    print(f"  mean {statistics.mean(times):.3f} s, median {statistics.median(times):.3f} s, "
          f"99th percentile {ordered[int(0.99 * (len(ordered) - 1))]:.3f} s, slowest {ordered[-1]:.3f} s, "
          f"over the limit: {over}")
    print(f"  slowest position: {slowest[1]}")
    print(f"  CPU time per move: mean {statistics.mean(cpu_times):.3f} s, slowest {max(cpu_times):.3f} s "
          "(far below the wall time when the machine is overloaded)")
    record(condition, "cave_player", f"{len(times)} computer moves, each timed from building the engine to its move",
           f"slowest {ordered[-1]:.3f} s, {over} over {limit:g} s (mean {statistics.mean(times):.3f} s, median "
           f"{statistics.median(times):.3f} s, p99 {ordered[int(0.99 * (len(ordered) - 1))]:.3f} s; CPU mean "
           f"{statistics.mean(cpu_times):.3f} s, max {max(cpu_times):.3f} s)", target=f"every move under {limit:g} s")


def strength(game: MagneticCave, spec: str, games: int, jobs: int, plies: int, seed: int,
             condition: str | None = None) -> None:
    def show(done: int, total: int, partial) -> None:
        if done % 10 == 0 or done == total:
            print(f"  {done}/{total} games", flush=True)

    result = compare(game, spec, BASELINE, games=games, jobs=jobs, openings=max(0, games // 2 - 1),
                     opening_plies=plies, judge=BASELINE, seed=seed, progress=show)
    print(result.table())
    losses = [(r.index, r.opening, "AB"[r.a_seat] + " first", r.winner, r.reason, r.plies)
              for r in result.records if r.winner != "A"]
    print(f"games not won by A: {losses}")
    summary, elo = result.summary(0), result.elo(0)
    from ai.elo import format_elo

    record(condition, "cave_player", f"{games} games against the baseline, both colours, {spec}",
           round(100 * summary.score, 1), f"% ({summary.wins}-{summary.draws}-{summary.losses}, Elo "
           f"{format_elo(elo.difference)} [{format_elo(elo.low)}, {format_elo(elo.high)}])", target="95%")


def _one_colour_game(task: tuple) -> tuple[int, float, int]:
    """One game of ``one_colour`` (in a worker process): (opening index, the player's score, plies)."""
    index, opening, spec, seconds, seat, deep_three, traps = task  # seconds None: depth-limited, no clock
    from ai.cave_endgame import SHARED_TABLE
    from ai.evaluators import magnetic_cave as evaluation

    if deep_three is not None:
        evaluation.DEEP_THREE = deep_three  # read whenever an engine is built (one per move here)

    SHARED_TABLE.clear()  # the solver's proofs from earlier games in this process would change its reach
    game = MagneticCave()
    state = game.initial_state()
    for move in opening:
        state = game.apply(state, move)
    plies = 0
    while not game.is_terminal(state):
        if state.to_move != seat:
            move = registry.make_engine(game, BASELINE).search(state).move
        elif traps is not None:
            move, _ = trap_move(game, state, *traps)
        elif seconds is None:
            move = registry.make_engine(game, spec).search(state).move
        else:
            started = time.perf_counter()
            move = registry.make_engine(game, spec).search(
                state, Limits(time=seconds), CancelToken(deadline=started + seconds)).move
        state = game.apply(state, move)
        plies += 1
    return index, 0.5 if state.winner is None else float(state.winner == seat), plies


def one_colour(game: MagneticCave, spec: str, colour: str, games: int, jobs: int, plies: int, seed: int,
               seconds: float | None, deep_three: tuple[int, int] | None = None,
               traps: tuple[int, str, float, float] | None = None, condition: str | None = None) -> None:
    """The player's games with one colour only against the baseline, from *strength*'s openings (``seconds``
    None: ``spec`` is depth-limited and searches without a clock; ``deep_three`` replaces the evaluator's
    ``DEEP_THREE``; ``traps``, (depth, model, margin, gain), has the player choose by ``trap_move`` instead)."""
    import multiprocessing

    from ai.tournament import balanced_openings

    seat = 0 if colour == "black" else 1
    openings = [()] + balanced_openings(game, max(0, games // 2 - 1), plies=plies, seed=seed, judge=BASELINE)
    tasks = [(index, opening, spec, seconds, seat, deep_three, traps) for index, opening in enumerate(openings)]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        scores = sorted(pool.imap_unordered(_one_colour_game, tasks))
    wins = sum(score == 1.0 for _, score, _ in scores)
    ties = sum(score == 0.5 for _, score, _ in scores)
    per_move = "no clock" if seconds is None else f"{seconds:g} s per move"
    if deep_three is not None:
        per_move += f", DEEP_THREE {deep_three}"
    if traps is not None:
        per_move += ", traps for the opponent model {}, margin {:g}, gain {:g}".format(*traps[1:])
    print(f"{spec} as {colour} against {BASELINE}, {per_move}, {len(scores)} games: "
          f"{wins} won, {ties} tied, {len(scores) - wins - ties} lost, "
          f"score {sum(score for _, score, _ in scores) / len(scores):.1%}")
    print(f"openings not won: {[(index, score, n) for index, score, n in scores if score < 1]}")
    figure = f"{colour.capitalize()}'s {len(scores)} games, {spec}"
    if deep_three is not None:
        figure += ", DEEP_THREE {},{}".format(*deep_three)
    if traps is not None:
        figure += ", traps for {}, margin {:g}, gain {:g}".format(*traps[1:])
    record(condition, "cave_player", figure, round(100 * sum(score for _, score, _ in scores) / len(scores), 1),
           f"% ({wins}-{ties}-{len(scores) - wins - ties})", target="95%")


FEATURES = {
    "solver": ("ai.cave_endgame", "SOLVE_EMPTIES", -1),
    "zugzwang": ("ai.evaluators.magnetic_cave", "ZUGZWANG", 0),
}
"""Per feature that ``ablation`` can switch off: (module, setting, the value that switches it off)."""


def _ablation_game(task: tuple) -> tuple[int, float]:
    """One game of ``ablation`` (in a worker process): the player's score, 1, 0.5 or 0."""
    index, opening, spec, feature, seconds = task
    import importlib

    module_name, setting, off = FEATURES[feature]
    module = importlib.import_module(module_name)
    on = getattr(module, setting)
    game = MagneticCave()
    state = game.initial_state()
    for move in opening:
        state = game.apply(state, move)
    full_seat = index % 2  # the complete player moves first in even games
    while not game.is_terminal(state):
        setattr(module, setting, on if state.to_move == full_seat else off)
        engine = registry.make_engine(game, spec)
        started = time.perf_counter()
        result = engine.search(state, Limits(time=seconds), CancelToken(deadline=started + seconds))
        state = game.apply(state, result.move)
    setattr(module, setting, on)
    return index, 0.5 if state.winner is None else float(state.winner == full_seat)


def ablation(game: MagneticCave, spec: str, feature: str, games: int, jobs: int, plies: int, seed: int,
             seconds: float) -> None:
    import multiprocessing

    from ai.tournament import balanced_openings

    openings = [()] + balanced_openings(game, max(0, games // 2 - 1), plies=plies, seed=seed, judge=BASELINE)
    tasks = [(index, openings[(index // 2) % len(openings)], spec, feature, seconds) for index in range(games)]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        scores = sorted(pool.imap_unordered(_ablation_game, tasks))
    wins = sum(score == 1.0 for _, score in scores)
    ties = sum(score == 0.5 for _, score in scores)
    first = [score for index, score in scores if index % 2 == 0]
    second = [score for index, score in scores if index % 2 == 1]
    print(f"{spec} against itself without the {feature}, {seconds:g} s per move, {games} games: "
          f"{wins} won, {ties} tied, {games - wins - ties} lost, score {sum(s for _, s in scores) / games:.1%} "
          f"(moving first {sum(first) / max(1, len(first)):.1%}, second {sum(second) / max(1, len(second)):.1%})")


def speed(game: MagneticCave, depth: int, rounds: int = 3) -> None:
    rng = random.Random(7)
    states = []
    while len(states) < 12:
        state = game.initial_state()
        for _ in range(rng.randrange(4, 40)):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            if game.is_terminal(state):
                break
        if not game.is_terminal(state):
            states.append(state)
    specs = (f"pvs:fast=false,depth={depth},time=1000", f"pvs:depth={depth},time=1000")
    cpu = [0.0, 0.0]
    nodes = [0, 0]
    for _ in range(rounds):  # interleaved, so machine load falls on both alike
        for state in states:
            for index, spec in enumerate(specs):
                engine = registry.make_engine(game, spec)
                began = time.process_time()
                nodes[index] += engine.search(state).nodes
                cpu[index] += time.process_time() - began
    for index, spec in enumerate(specs):
        print(f"  {spec}: {cpu[index]:.2f} CPU s for {rounds} x 12 positions, {nodes[index]:,} nodes")
    print(f"  the cave kernel takes {cpu[1] / cpu[0]:.2f} of the rules protocol's time to the same depth")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("timing", "strength", "ablation", "speed"))
    parser.add_argument("--feature", choices=tuple(FEATURES), default="solver", help="what ablation switches off")
    parser.add_argument("--moves", type=int, default=500)
    parser.add_argument("--spec", default=None, help="the player (default: the Strongest preset)")
    parser.add_argument("--limit", type=float, default=3.0, help="the time limit per move given (timing)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=1.0, help="the player's seconds per move (strength)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--plies", type=int, default=2, help="moves in each random opening (strength)")
    parser.add_argument("--depth", type=int, default=None,
                        help="search depth (speed, default 5; strength --colour: a depth-limited player, no clock)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--colour", choices=("both", "black", "white"), default="both",
                        help="strength: the player's games with this colour only")
    parser.add_argument("--deep-three", default=None, metavar="BLACK,WHITE",
                        help="strength with --colour: the evaluator's DEEP_THREE for a search playing each colour")
    parser.add_argument("--opponent-model", default=None, metavar="SPEC",
                        help="strength --colour --depth: choose moves by trap_move with this model of the opponent")
    parser.add_argument("--margin", type=float, default=60.0, help="trap_move: the score a trap may give up")
    parser.add_argument("--gain", type=float, default=150.0, help="trap_move: the least a trap must promise")
    add_flag(parser)
    args = parser.parse_args()
    traps = None
    if args.opponent_model is not None:
        if args.mode != "strength" or args.colour == "both" or args.depth is None:
            parser.error("--opponent-model works with strength --colour black|white --depth N")
        if args.spec is not None:
            parser.error("--opponent-model plays pvs at --depth itself: leave out --spec")
        if args.depth < 3:
            parser.error(f"--opponent-model needs --depth 3 or more (it searches at depth - 2), not {args.depth}")
        try:
            registry.make_engine(MagneticCave(), args.opponent_model)
        except EngineError as error:  # it names what is wrong and the valid choices
            parser.error(f"--opponent-model: {error}")
        traps = (args.depth, args.opponent_model, args.margin, args.gain)
    deep_three = None
    if args.deep_three is not None:
        try:
            black, white = (int(part) for part in args.deep_three.split(","))
        except ValueError:
            parser.error(f"--deep-three takes two whole numbers, Black's and White's (e.g. 0,80), "
                         f"not {args.deep_three!r}")
        deep_three = (black, white)
        if args.mode != "strength" or args.colour == "both":
            parser.error("--deep-three works with strength --colour black|white (the games of one colour)")
    game = MagneticCave()
    spec = args.spec or strongest(game)
    print(f"Python {platform.python_version()} on {platform.machine()}; shared machine, figures are noisy")
    print("load average at the start: %.1f %.1f %.1f" % os.getloadavg(), flush=True)
    if args.mode == "timing":
        timing(game, spec, args.moves, args.limit, args.seed, args.record)
    elif args.mode == "strength" and args.colour != "both" and args.depth is not None:
        one_colour(game, args.spec or f"pvs:depth={args.depth},time=none", args.colour, args.games, args.jobs, args.plies,
                   args.seed, None, deep_three, traps, args.record)
    elif args.mode == "strength" and args.colour != "both":
        one_colour(game, with_time(spec, args.time), args.colour, args.games, args.jobs, args.plies, args.seed,
                   args.time, deep_three, condition=args.record)
    elif args.mode == "strength":
        strength(game, with_time(spec, args.time), args.games, args.jobs, args.plies, args.seed, args.record)
    elif args.mode == "ablation":
        ablation(game, with_time(spec, args.time), args.feature, args.games, args.jobs, args.plies, args.seed,
                 args.time)
    else:
        speed(game, args.depth or 5)
    print("load average at the end: %.1f %.1f %.1f" % os.getloadavg())


if __name__ == "__main__":
    main()
