"""The Perfect level (``ai.perfect``) for Kalah: its results against the Strongest preset and OpenSpiel's MCTS, the
share of its moves played proven by move number, and how many seeds on the board it proves within its time.

    python bench/bench_perfect.py strongest --openings 10 --time 1 --tables DIR [--record]
    python bench/bench_perfect.py openspiel --openings 10 --time 1 --tables DIR [--record]
    python bench/bench_perfect.py reach --games 6 --time 2 --tables DIR [--record]

``strongest`` and ``openspiel`` play each of N balanced 4-ply openings (``ai.tournament.balanced_openings``) with
both colours, one game at a time in this process (the machine is shared; ``nice`` it).  ``strongest`` plays
Kalah(6,4) with empty capture (the game's default); ``openspiel`` the standard rule, OpenSpiel's ``mancala``
(the translation and the bot are ``bench/bench_openspiel.py``'s).  Both report the score, the share of
Perfect's moves played proven (from the tables or the prover) in each band of move numbers, and the mean
time per move.  ``reach`` takes the positions of Strongest self-play games (from balanced openings) and asks a
fresh prover (a cold table, nothing proved before: what Perfect meets on its first proof of a game) to prove
each within ``--time``: the share proved by seeds on the board, and the most seeds at which at least 90% are.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from ai import perfect, registry, tables  # noqa: E402
from ai.base import CancelToken, Limits  # noqa: E402
from ai.elo import elo_estimate  # noqa: E402
from ai.tournament import balanced_openings  # noqa: E402
from ai.worker import fallback_result  # noqa: E402
from bench.record import add_flag, record  # noqa: E402

AREA = "perfect"
BANDS = (0, 10, 20, 30, 40, 60)
"""Move numbers (plies from the start, the opening included) are counted in bands starting at these."""

Player = Callable[[Any, Any], Any]
"""``player(state, extra)``: a move; ``extra`` carries what a player needs beside the state (OpenSpiel's)."""


def band(ply: int) -> str:
    starts = [start for start in BANDS if start <= ply]
    start = starts[-1]
    following = [b for b in BANDS if b > start]
    return f"{start}-{following[0] - 1}" if following else f"{start}+"


class Tally:
    """Perfect's games: results, its moves by band (proven or not), its times."""

    def __init__(self) -> None:
        self.results: list[float] = []
        self.margins: list[int] = []
        self.by_band: dict[str, list[bool]] = defaultdict(list)
        self.times: list[float] = []
        self.sources: dict[str, int] = defaultdict(int)

    def move(self, ply: int, info: dict[str, Any], seconds: float) -> None:
        proven = bool(info.get("proven"))
        self.by_band[band(ply)].append(proven)
        self.times.append(seconds)
        self.sources[str(info.get("source", "?"))] += 1

    def shares(self) -> str:
        ordered = sorted(self.by_band, key=lambda name: int(name.split("-")[0].rstrip("+")))
        return ", ".join(f"plies {name}: {100 * sum(self.by_band[name]) / len(self.by_band[name]):.0f}%"
                         f" of {len(self.by_band[name])}" for name in ordered)

    def source_words(self) -> str:
        """Where the moves came from, e.g. ``94 from the tables, 134 proved, 77 searched``."""
        names = {"tables": "from the tables", "prover": "proved", "search": "searched"}
        return ", ".join(f"{count} {names.get(source, source)}" for source, count in self.sources.items())

    def summary(self) -> str:
        wins = sum(r == 1.0 for r in self.results)
        draws = sum(r == 0.5 for r in self.results)
        losses = len(self.results) - wins - draws
        estimate = elo_estimate(wins, draws, losses)
        proven = sum(sum(v) for v in self.by_band.values()) / max(1, sum(len(v) for v in self.by_band.values()))
        return (f"+{wins} ={draws} -{losses}, score {100 * estimate.score:.1f}% (Elo {estimate.format()}); "
                f"mean margin {statistics.mean(self.margins):+.1f}; {100 * proven:.0f}% of its moves proven "
                f"({self.source_words()}); mean {statistics.mean(self.times):.2f} s, max {max(self.times):.2f} s a move")


def perfect_player(game: Any, seconds: float, tally: Tally) -> Callable[[Any, int], Any]:
    engine = registry.make_engine(game, f"perfect:time={seconds:g}")

    def play(state: Any, ply: int) -> Any:
        started = time.perf_counter()
        found = engine.search(state, Limits(time=seconds), CancelToken(started + seconds))
        tally.move(ply, found.info, time.perf_counter() - started)
        return fallback_result(game, state, found).move

    return play


def engine_player(game: Any, spec: str, seconds: float) -> Callable[[Any, int], Any]:
    engine = registry.make_engine(game, spec)

    def play(state: Any, ply: int) -> Any:
        started = time.perf_counter()
        return fallback_result(game, state, engine.search(state, Limits(time=seconds),
                                                          CancelToken(started + seconds))).move

    return play


def use_tables(folder: Path | None) -> None:
    if folder is not None:
        import os

        os.environ[tables.ENV] = str(folder)
    tables.forget()
    perfect.forget()


def against_strongest(args: argparse.Namespace) -> None:
    use_tables(args.tables)
    game = rules.get_game("kalah")
    strongest = registry.presets(game)["Strongest"]
    openings = balanced_openings(game, args.openings, plies=4, seed=args.seed, judge="pvs:depth=14")
    tally = Tally()
    started = time.perf_counter()
    for index, opening in enumerate(openings):
        for side in (0, 1):
            perfect.forget()  # each game starts with nothing proved
            players = {side: perfect_player(game, args.time, tally), 1 - side: engine_player(game, strongest, args.time)}
            state, ply = game.initial_state(), 0
            for move in opening:
                state, ply = game.apply(state, move), ply + 1
            while not game.is_terminal(state):
                state, ply = game.apply(state, players[game.to_move(state)](state, ply)), ply + 1
            outcome = game.outcome(state)
            tally.results.append(0.5 if outcome.winner is None else float(outcome.winner == side))
            tally.margins.append(int(outcome.margin(side)))
            print(f"opening {index + 1}/{len(openings)} as {'South' if side == 0 else 'North'}: {outcome.scores}, "
                  f"{len(tally.results)} games, {time.perf_counter() - started:.0f} s", flush=True)
    print(f"Perfect vs Strongest ({strongest}) at {args.time:g} s a move, {len(tally.results)} games: {tally.summary()}")
    print(f"  moves proven by move number: {tally.shares()}")
    games = len(tally.results)
    score = sum(tally.results) / games
    record(args.record, AREA, f"Perfect vs the Strongest preset, Kalah(6,4), {games} games at {args.time:g} s a move",
           round(100 * score, 1), "%", yardstick=f"{tally.summary()}")
    record(args.record, AREA, f"moves played proven by move number, against Strongest at {args.time:g} s",
           tally.shares())


def against_openspiel(args: argparse.Namespace) -> None:
    from bench import bench_openspiel

    if bench_openspiel.pyspiel is None:
        print("bench_perfect: OpenSpiel is not installed (pip install open_spiel)", file=sys.stderr)
        raise SystemExit(2)
    pyspiel = bench_openspiel.pyspiel
    use_tables(args.tables)
    bridge = bench_openspiel.KalahBridge()
    game = bridge.ours
    openings = balanced_openings(game, args.openings, plies=4, seed=args.seed, judge="pvs:depth=14")
    tally = Tally()
    started = time.perf_counter()
    for index, opening in enumerate(openings):
        for side in (0, 1):
            perfect.forget()
            seed = args.seed * 100_003 + 2 * index + side
            bot = pyspiel.MCTSBot(bridge.theirs, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, 10**9, 2000, True,
                                  seed, False, pyspiel.ChildSelectionPolicy.UCT, args.time)
            ours = perfect_player(game, args.time, tally)
            state, os_state, ply = game.initial_state(), bridge.theirs.new_initial_state(), 0
            for move in opening:
                os_state.apply_action(bridge.to_action(state, move))
                state, ply = game.apply(state, move), ply + 1
            while not game.is_terminal(state):
                if game.to_move(state) == side:
                    move = ours(state, ply)
                else:
                    move = bridge.to_move(state, bot.step(os_state))
                game.check_move(state, move)
                os_state.apply_action(bridge.to_action(state, move))
                state, ply = game.apply(state, move), ply + 1
                if not game.is_terminal(state):
                    bridge.check_same(state, os_state, f"after ply {ply}")
            outcome = game.outcome(state)
            tally.results.append(0.5 if outcome.winner is None else float(outcome.winner == side))
            tally.margins.append(int(outcome.margin(side)))
            print(f"opening {index + 1}/{len(openings)} as {'South' if side == 0 else 'North'}: {outcome.scores}, "
                  f"{len(tally.results)} games, {time.perf_counter() - started:.0f} s", flush=True)
    print(f"Perfect vs OpenSpiel MCTSBot at {args.time:g} s a move, {len(tally.results)} games: {tally.summary()}")
    print(f"  moves proven by move number: {tally.shares()}")
    games = len(tally.results)
    record(args.record, AREA, f"Perfect vs OpenSpiel's MCTS, Kalah(6,4) standard rule, {games} games at "
           f"{args.time:g} s a move", round(100 * sum(tally.results) / games, 1), "%",
           target="90% (the Strongest level's target against MCTS)", yardstick=tally.summary())
    record(args.record, AREA, f"moves played proven by move number, against OpenSpiel's MCTS at {args.time:g} s",
           tally.shares())


def reach(args: argparse.Namespace) -> None:
    from ai.kalah_solve import KalahProver

    use_tables(args.tables)
    game = rules.get_game("kalah")
    loaded = tables.tables_for(game)
    top = -1 if loaded is None else loaded.top
    openings = balanced_openings(game, args.games, plies=4, seed=args.seed, judge="pvs:depth=14")
    player = engine_player(game, "pvs:time=0.2,memory=64,tables=true", 0.2)
    positions = []
    for opening in openings:
        state = game.initial_state()
        for move in opening:
            state = game.apply(state, move)
        while not game.is_terminal(state):
            if top < sum(state.pits) <= args.most:
                positions.append(state)
            state = game.apply(state, player(state, 0))
    by_seeds: dict[int, list[bool]] = defaultdict(list)
    times: dict[int, list[float]] = defaultdict(list)
    for state in positions:
        prover = KalahProver(game, loaded, 64)
        started = time.perf_counter()
        bounds = prover.prove_within(state, started + args.time)
        seconds = time.perf_counter() - started
        seeds = sum(state.pits)
        by_seeds[seeds // 4 * 4].append(bounds.is_exact)
        times[seeds // 4 * 4].append(seconds)
    lines, reached = [], None
    for low in sorted(by_seeds):
        proved = by_seeds[low]
        share = sum(proved) / len(proved)
        lines.append(f"{low}-{low + 3} seeds: {100 * share:.0f}% of {len(proved)} (median {statistics.median(times[low]):.2f} s)")
        if share >= 0.9:
            reached = low + 3
    print(f"positions of {len(openings)} Strongest self-play games with {top + 1}..{args.most} seeds on the board, "
          f"a cold prover with the 0..{top}-seed tables, {args.time:g} s each:")
    for line in lines:
        print("  " + line)
    print(f"at least 90% proved up to {reached} seeds on the board")
    record(args.record, AREA, f"seeds on the board at which a cold prover proves 90% of positions within {args.time:g} s",
           reached if reached is not None else "none", "seeds", yardstick="; ".join(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("strongest", "openspiel", "reach"))
    parser.add_argument("--openings", type=int, default=10, help="balanced openings, each played with both colours")
    parser.add_argument("--games", type=int, default=6, help="reach: self-play games whose positions are proved")
    parser.add_argument("--most", type=int, default=48, help="reach: the most seeds on the board of a position tried")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move (reach: a proof)")
    parser.add_argument("--tables", type=Path, default=None, help="the tables' folder (else $STONECAVE_TABLES)")
    parser.add_argument("--seed", type=int, default=0)
    add_flag(parser)
    args = parser.parse_args(argv)
    {"strongest": against_strongest, "openspiel": against_openspiel, "reach": reach}[args.what](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
