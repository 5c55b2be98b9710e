"""Tournaments between two computer players: ``compare()`` and the ``stonecave compare`` command.

    stonecave compare --game oware --engine alphabeta:depth=8 --engine mcts:time=1 --games 100 --jobs 2

Both engines play both colours: games come in pairs from the same opening with the colours swapped.  The
openings are the start position and, with ``--openings N``, N balanced openings as well (random short move
prefixes whose evaluation by a judge engine is nearest to 0; see ``balanced_openings``).  Games run in
parallel processes (the ``spawn`` start method: safe beside threads and on every platform), each with freshly
built engines, so a result does not depend on which process played it.

The result reports wins, draws, losses, score %, the Elo difference with its 95% interval (``ai.elo``), mean
and maximum time per move and the number of moves that overran the time limit; ``TournamentResult`` writes
it as a table, CSV or JSON.  Benchmarks and evaluator tuning call ``compare`` directly.

Fairness details: an engine with a ``seed`` parameter that the spec leaves unset gets a fresh seed per game,
derived from the tournament seed, so seeded-random engines do not replay one game a hundred times.  An engine
that raises, or returns an illegal move, forfeits that game (the record says why).
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import math
import multiprocessing
import random
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ai.base import CancelToken, EngineError, Limits, SearchAborted
from ai.elo import EloEstimate, elo_estimate, format_elo
from ai.registry import engine_info, engines as registered_engines, parse_engine_spec
from ai.worker import fallback_result
from rules import Game, Move, RulesError, State, parse_game_spec

OVERRUN_MARGIN = 0.010
"""Seconds a move may exceed its time limit before it counts as an overrun."""
MAX_PLIES = 20_000
"""A safety cap far above every game's own limit; a game reaching it is scored a draw (reason ``ply cap``)."""
JUDGES = ("alphabeta:depth=6", "pvs:depth=6", "minimax:depth=4", "greedy")
"""Engines tried, in order, to judge candidate openings when no judge is named; random playouts otherwise."""

ProgressHook = Callable[[int, int, "TournamentResult"], None]


# -- one game -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameTask:
    """Everything a process needs to play one game (plain, picklable values)."""

    index: int
    game: str
    specs: tuple[str, str]
    a_seat: int
    """The seat (0 = first player) engine A takes; B takes the other."""
    opening: int
    opening_moves: tuple[Move, ...]
    seeds: tuple[int | None, int | None]
    """Per engine A, B: the seed to give a seeded engine, or None to keep its spec's."""
    time_limit: float | None
    overrun_margin: float = OVERRUN_MARGIN
    max_plies: int = MAX_PLIES


@dataclass(frozen=True)
class MoveStats:
    """One engine's moves in one game."""

    moves: int = 0
    total_time: float = 0.0
    max_time: float = 0.0
    overruns: int = 0
    fallbacks: int = 0
    nodes: int = 0
    depth_sum: int = 0


@dataclass(frozen=True)
class GameRecord:
    """How one game went.  ``winner`` is "A", "B" or None (a draw)."""

    index: int
    opening: int
    a_seat: int
    winner: str | None
    reason: str
    scores: tuple[int, ...]
    plies: int
    stats: tuple[MoveStats, MoveStats]
    forfeit: str | None = None
    """Why a game was forfeited (an engine's exception or illegal move), or None."""


def _limit_for(params: dict[str, Any], time_limit: float | None) -> float | None:
    if time_limit is not None:
        return time_limit
    value = params.get("time")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _build(game: Game, spec: str, seed: int | None):
    info, params = parse_engine_spec(spec)
    if seed is not None and "seed" in params:
        params["seed"] = seed
    return info.load()(game, **params), params


def play_game(task: GameTask) -> GameRecord:
    """Play one game of the tournament (runs in a worker process, or in-process with one job)."""
    game = parse_game_spec(task.game)
    state: State = game.initial_state()
    for move in task.opening_moves:
        state = game.apply(state, move)
    built = [_build(game, spec, seed) for spec, seed in zip(task.specs, task.seeds)]
    limits = [_limit_for(params, task.time_limit) for _, params in built]
    stats = [dict(asdict(MoveStats())) for _ in built]
    seat_of = {task.a_seat: 0, 1 - task.a_seat: 1}  # seat -> engine index (0 = A, 1 = B)
    plies = 0
    forfeit: tuple[int, str] | None = None
    while not game.is_terminal(state) and plies < task.max_plies:
        who = seat_of[game.to_move(state)]
        engine, limit = built[who][0], limits[who]
        started = time.perf_counter()
        token = CancelToken(started + limit if limit is not None else None)
        try:
            try:
                found = engine.search(state, Limits(time=limit), token)
            except SearchAborted:
                found = None
            elapsed = time.perf_counter() - started
            result = fallback_result(game, state, found, elapsed)
            game.check_move(state, result.move)
        except Exception as error:  # noqa: BLE001 - a failing engine forfeits its game; the record says why
            forfeit = (who, f"{task.specs[who]}: {type(error).__name__}: {error}")
            if not isinstance(error, RulesError):
                forfeit = (who, forfeit[1] + "\n" + traceback.format_exc(limit=-3))
            break
        s = stats[who]
        s["moves"] += 1
        s["total_time"] += elapsed
        s["max_time"] = max(s["max_time"], elapsed)
        s["overruns"] += limit is not None and elapsed > limit + task.overrun_margin
        s["fallbacks"] += bool(result.info.get("fallback"))
        s["nodes"] += result.nodes
        s["depth_sum"] += result.depth
        state = game.apply(state, result.move)
        plies += 1
    move_stats = (MoveStats(**stats[0]), MoveStats(**stats[1]))
    if forfeit is not None:
        loser, why = forfeit
        return GameRecord(task.index, task.opening, task.a_seat, "AB"[1 - loser], "forfeit", (), plies,
                          move_stats, why)
    outcome = game.outcome(state)
    if outcome is None:  # the ply cap
        return GameRecord(task.index, task.opening, task.a_seat, None, "ply cap", (), plies, move_stats)
    winner = None if outcome.winner is None else "AB"[seat_of[outcome.winner]]
    return GameRecord(task.index, task.opening, task.a_seat, winner, outcome.reason.value, tuple(outcome.scores),
                      plies, move_stats)


# -- the result -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class EngineSummary:
    """One engine's line of the result table."""

    engine: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    """Points per game, 0..1."""
    elo: float
    elo_low: float
    elo_high: float
    moves: int
    mean_move_time: float
    max_move_time: float
    overruns: int
    fallbacks: int
    mean_depth: float
    forfeits: int


@dataclass
class TournamentResult:
    """The games of a tournament so far, and their summary (complete once ``compare`` returns)."""

    game: str
    specs: tuple[str, str]
    games_planned: int
    openings: list[tuple[Move, ...]] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    records: list[GameRecord] = field(default_factory=list)

    def elo(self, side: int = 0) -> EloEstimate:
        """Engine A's (side 0) or B's (side 1) Elo difference over the other, with its 95% interval."""
        wins, draws, losses = self._results(side)
        return elo_estimate(wins, draws, losses)

    def _results(self, side: int) -> tuple[int, int, int]:
        me = "AB"[side]
        wins = sum(r.winner == me for r in self.records)
        draws = sum(r.winner is None for r in self.records)
        return wins, draws, len(self.records) - wins - draws

    def summary(self, side: int) -> EngineSummary:
        wins, draws, losses = self._results(side)
        games = len(self.records)
        stats = [r.stats[side] for r in self.records]
        moves = sum(s.moves for s in stats)
        estimate = elo_estimate(wins, draws, losses) if games else None
        return EngineSummary(
            engine=self.specs[side],
            games=games,
            wins=wins,
            draws=draws,
            losses=losses,
            score=estimate.score if estimate else math.nan,
            elo=estimate.difference if estimate else math.nan,
            elo_low=estimate.low if estimate else math.nan,
            elo_high=estimate.high if estimate else math.nan,
            moves=moves,
            mean_move_time=sum(s.total_time for s in stats) / moves if moves else 0.0,
            max_move_time=max((s.max_time for s in stats), default=0.0),
            overruns=sum(s.overruns for s in stats),
            fallbacks=sum(s.fallbacks for s in stats),
            mean_depth=sum(s.depth_sum for s in stats) / moves if moves else 0.0,
            forfeits=sum(r.forfeit is not None and r.winner != "AB"[side] for r in self.records),
        )

    def summaries(self) -> list[EngineSummary]:
        return [self.summary(0), self.summary(1)]

    def first_player_score(self) -> float:
        """Points per game of whoever moved first (a check on how balanced the openings are)."""
        points = 0.0
        for record in self.records:
            if record.winner is None:
                points += 0.5
            elif (record.winner == "A") == (record.a_seat == 0):
                points += 1.0
        return points / len(self.records) if self.records else math.nan

    # -- output -------------------------------------------------------------------------------------------------
    def table(self) -> str:
        """The result as an aligned text table."""
        rows = self.summaries()
        labels = [f"{side} {row.engine}" for side, row in zip("AB", rows)]
        width = max(len("engine"), *(len(label) for label in labels))
        header = (f"{'engine':<{width}}  {'W':>4} {'D':>4} {'L':>4}  {'score':>6}  {'Elo [95% interval]':<22}"
                  f"  {'s/move':>7} {'max s':>7} {'overruns':>8}")
        lines = [f"{self.game}: {len(self.records)} games, {len(self.openings)} opening(s)"
                 + (f", {self.settings['time_limit']:g} s per move" if self.settings.get("time_limit") else ""),
                 header, "-" * len(header)]
        for label, row in zip(labels, rows):
            elo = f"{format_elo(row.elo)} [{format_elo(row.elo_low)}, {format_elo(row.elo_high)}]"
            lines.append(
                f"{label:<{width}}  {row.wins:>4} {row.draws:>4} {row.losses:>4}  {100 * row.score:>5.1f}%"
                f"  {elo:<22}  {row.mean_move_time:>7.3f} {row.max_move_time:>7.3f} {row.overruns:>8}"
            )
        if self.records:
            lines.append(f"first player scored {100 * self.first_player_score():.1f}%")
        forfeits = [r for r in self.records if r.forfeit]
        for record in forfeits[:3]:
            lines.append(f"game {record.index} forfeited: {record.forfeit.splitlines()[0]}")
        if len(forfeits) > 3:
            lines.append(f"... and {len(forfeits) - 3} more forfeits")
        return "\n".join(lines)

    def to_csv(self) -> str:
        """One row per engine, every column of ``EngineSummary`` (infinite Elo written as inf / -inf)."""
        out = io.StringIO()
        names = list(EngineSummary.__dataclass_fields__)
        writer = csv.DictWriter(out, fieldnames=["game", *names], lineterminator="\n")
        writer.writeheader()
        for row in self.summaries():
            writer.writerow({"game": self.game, **asdict(row)})
        return out.getvalue()

    def to_json(self) -> str:
        """Summary, settings, openings and every game's record (infinite or undefined Elo written as null)."""
        game = parse_game_spec(self.game)
        openings = []
        for moves in self.openings:
            state, texts = game.initial_state(), []
            for move in moves:
                texts.append(game.format_move(state, move))
                state = game.apply(state, move)
            openings.append(texts)
        document = {
            "game": self.game,
            "engines": list(self.specs),
            "settings": self.settings,
            "summary": [_finite(asdict(row)) for row in self.summaries()],
            "first_player_score": _finite_value(self.first_player_score()),
            "openings": openings,
            "games": [asdict(record) for record in self.records],
        }
        return json.dumps(document, indent=2)


def _finite_value(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _finite(row: dict[str, Any]) -> dict[str, Any]:
    return {key: _finite_value(value) for key, value in row.items()}


# -- openings -------------------------------------------------------------------------------------------------------
def _default_judge(game: Game) -> str | None:
    available = {info.name for info in registered_engines(game)}
    for spec in JUDGES:
        name = spec.partition(":")[0]
        if name in available:
            try:
                parse_engine_spec(spec)
            except EngineError:
                continue
            return spec
    return None


def _playout_value(game: Game, state: State, rng: random.Random, playouts: int = 24) -> float:
    """Mean final margin of random playouts, from the side to move (a judge when no engine can judge)."""
    me = game.to_move(state)
    total = 0.0
    for _ in range(playouts):
        current = state
        for _ in range(MAX_PLIES):
            if game.is_terminal(current):
                break
            current = game.apply(current, rng.choice(game.legal_moves(current)))
        outcome = game.outcome(current)
        total += outcome.margin(me) if outcome is not None else 0.0
    return total / playouts


def balanced_openings(
    game: Game, count: int, *, plies: int = 4, seed: int = 0, judge: str | None = None, pool: int = 4
) -> list[tuple[Move, ...]]:
    """``count`` distinct random ``plies``-move prefixes whose judged value is nearest 0.

    ``pool * count`` distinct candidates are drawn from the start (no finished positions, no position
    twice) and scored by ``judge`` (an engine spec; by default the first of ``JUDGES`` that is registered,
    else the mean margin of random playouts).  Ranking by closeness to 0 needs no knowledge of the judge's
    units.  The chosen prefixes are returned in the order they were drawn.
    """
    if count <= 0:
        return []
    rng = random.Random(seed)
    judge = judge if judge is not None else _default_judge(game)
    engine = None
    if judge is not None:
        info, params = parse_engine_spec(judge)
        if not info.suits(game):
            raise EngineError(f"the opening judge {judge} does not play {game.title}")
        engine = info.load()(game, **params)
    candidates: list[tuple[tuple[Move, ...], State]] = []
    seen: set = set()
    for _ in range(200 * pool * count):
        if len(candidates) >= pool * count:
            break
        state, moves = game.initial_state(), []
        for _ in range(plies):
            if game.is_terminal(state):
                break
            move = rng.choice(game.legal_moves(state))
            moves.append(move)
            state = game.apply(state, move)
        key = game.key(state)
        if game.is_terminal(state) or key in seen:
            continue
        seen.add(key)
        candidates.append((tuple(moves), state))
    scored = []
    for order, (moves, state) in enumerate(candidates):
        if engine is not None:
            value = engine.search(state, Limits(time=2.0), CancelToken(time.perf_counter() + 2.0)).score
        else:
            value = _playout_value(game, state, rng)
        scored.append((abs(value), order, moves))
    chosen = sorted(scored)[:count]
    return [moves for _, _, moves in sorted(chosen, key=lambda item: item[1])]


# -- the tournament -------------------------------------------------------------------------------------------------
def _check_specs(game: Game, specs: Sequence[str]) -> None:
    for spec in specs:
        info, params = parse_engine_spec(spec)
        if not info.suits(game):
            raise EngineError(f"engine {info.name} does not play {game.title} ({'a puzzle' if game.num_players == 1 else 'a two-player game'})")
        info.load()(game, **params)  # the engine's own checks, in this process, with a clear message


def _explicit_keys(spec: str) -> set[str]:
    rest = spec.partition(":")[2]
    return {item.partition("=")[0].strip() for item in rest.split(",") if item.strip()}


def compare(
    game: Game | str,
    spec_a: str,
    spec_b: str,
    *,
    games: int = 100,
    jobs: int = 1,
    openings: int = 0,
    opening_plies: int = 4,
    judge: str | None = None,
    seed: int = 0,
    time_limit: float | None = None,
    overrun_margin: float = OVERRUN_MARGIN,
    max_plies: int = MAX_PLIES,
    progress: ProgressHook | None = None,
) -> TournamentResult:
    """Play ``games`` games of ``spec_a`` against ``spec_b`` on ``game`` and return the result.

    Games come in colour-swapped pairs: game ``i`` starts from opening ``(i // 2) % n`` (the start position
    is opening 0, followed by ``openings`` balanced ones), with A moving first when ``i`` is even.  ``jobs``
    processes play in parallel (1: in this process).  ``time_limit`` (seconds per move) goes to both engines
    as ``Limits.time`` and a cancel-token deadline; without it an engine's own ``time`` parameter, if any, is
    its limit for counting overruns.  ``progress(done, total, partial_result)`` is called after each game.
    """
    rules_object = parse_game_spec(game) if isinstance(game, str) else game
    if rules_object.num_players != 2:
        raise EngineError(f"a tournament needs a two-player game; {rules_object.title} is a puzzle")
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
        raise ValueError(f"the time limit must be a positive number of seconds, not {time_limit}")
    specs = (spec_a.strip(), spec_b.strip())
    _check_specs(rules_object, specs)
    prefixes = [()] + balanced_openings(rules_object, openings, plies=opening_plies, seed=seed, judge=judge)
    seeded = [("seed" in dict(engine_info(spec.partition(":")[0].strip()).defaults()))
              and "seed" not in _explicit_keys(spec) for spec in specs]
    rng = random.Random(f"tournament:{seed}")
    tasks = []
    for index in range(games):
        opening = (index // 2) % len(prefixes)
        game_seeds = tuple(rng.randrange(2**31) if seeded[side] else None for side in (0, 1))
        tasks.append(GameTask(index, rules_object.spec, specs, index % 2, opening, prefixes[opening],
                              game_seeds, time_limit, overrun_margin, max_plies))
    result = TournamentResult(
        rules_object.spec, specs, games, prefixes,
        {"games": games, "jobs": jobs, "openings": openings, "opening_plies": opening_plies, "judge": judge,
         "seed": seed, "time_limit": time_limit, "overrun_margin": overrun_margin},
    )
    if jobs == 1:
        records = map(play_game, tasks)
        _collect(result, records, progress)
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(min(jobs, games)) as pool:
            _collect(result, pool.imap_unordered(play_game, tasks), progress)
    result.records.sort(key=lambda record: record.index)
    return result


def _collect(result: TournamentResult, records, progress: ProgressHook | None) -> None:
    for record in records:
        result.records.append(record)
        if progress is not None:
            progress(len(result.records), result.games_planned, result)


# -- the command line -----------------------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {value}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, not {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    return value


def _parser() -> _Parser:
    parser = _Parser(
        prog="stonecave compare",
        description="Play two engines against each other, both colours, and report wins, draws, losses, score "
                    "and the Elo difference with its 95%% interval.",
        epilog="Example: stonecave compare --game oware --engine alphabeta:depth=8 --engine mcts:time=1 "
               "--games 100 --jobs 2.  `stonecave engines GAME` lists the engines and their parameters.",
    )
    parser.add_argument("--game", required=True, help="game spec, e.g. kalah or kalah:pits=4,seeds=3")
    parser.add_argument("--engine", action="append", default=[], metavar="SPEC",
                        help="engine spec, given twice: name or name:key=value,... (e.g. alphabeta:depth=8)")
    parser.add_argument("--games", type=_positive_int, default=100, help="number of games (default 100)")
    parser.add_argument("--jobs", type=_positive_int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--openings", type=_count, default=0, metavar="N",
                        help="also play from N balanced openings, each with both colours (default 0)")
    parser.add_argument("--opening-plies", type=_positive_int, default=4, metavar="PLIES",
                        help="length of a balanced opening in plies (default 4)")
    parser.add_argument("--judge", metavar="SPEC", help="engine that judges candidate openings")
    parser.add_argument("--time-limit", type=_seconds, metavar="SECONDS", help="time per move for both engines")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed: openings and engine seeds")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--csv", metavar="FILE", help="also write the summary as CSV")
    output.add_argument("--json", metavar="FILE", help="also write the summary and every game as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    return parser


def _progress_line(stream) -> ProgressHook:
    interactive = stream.isatty()

    def show(done: int, total: int, partial: TournamentResult) -> None:
        wins, draws, losses = partial._results(0)
        score = (wins + draws / 2) / done
        line = f"game {done}/{total}: A +{wins} ={draws} -{losses} ({100 * score:.1f}%)"
        stream.write(("\r" + line + ("\n" if done == total else "")) if interactive else line + "\n")
        stream.flush()

    return show


def main(argv: list[str]) -> int:
    """``stonecave compare``: parse, run the tournament, print the table, write CSV or JSON if asked."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        if len(args.engine) != 2:
            raise _UsageError(f"give exactly two --engine options (got {len(args.engine)}), "
                              "e.g. --engine alphabeta:depth=8 --engine random")
    except _UsageError as error:
        print(f"{parser.format_usage()}stonecave compare: error: {error}", file=sys.stderr)
        return 2
    try:
        game = parse_game_spec(args.game)
        for path in (args.csv, args.json):
            if path and not Path(path).resolve().parent.is_dir():
                raise ValueError(f"cannot write {path}: the folder {Path(path).resolve().parent} does not exist")
        result = compare(
            game, args.engine[0], args.engine[1], games=args.games, jobs=args.jobs, openings=args.openings,
            opening_plies=args.opening_plies, judge=args.judge, seed=args.seed, time_limit=args.time_limit,
            progress=None if args.quiet else _progress_line(sys.stderr),
        )
    except (RulesError, EngineError, ValueError) as error:
        print(f"stonecave compare: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nstonecave compare: interrupted", file=sys.stderr)
        return 130
    print(result.table())
    if args.csv:
        Path(args.csv).write_text(result.to_csv(), encoding="utf-8")
        print(f"summary written to {args.csv}")
    if args.json:
        Path(args.json).write_text(result.to_json(), encoding="utf-8")
        print(f"summary and games written to {args.json}")
    return 0
