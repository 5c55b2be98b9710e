"""Tournaments between two computer players: ``compare()`` and the ``stonecave compare`` command.

    stonecave compare --game oware --engine alphabeta:depth=8 --engine mcts:time=1 --games 100 --jobs 2
    stonecave compare --game kalah --engine pvs:depth=9 --engine pvs:depth=8 --openings 50 \\
        --sprt elo0=0,elo1=10 --jobs 2 --checkpoint run.jsonl

Both engines play both colours: games come in pairs from the same opening with the colours swapped.  The
openings are the start position and, with ``--openings N``, N balanced openings as well (random short move
prefixes whose evaluation by a judge engine is nearest to 0; see ``balanced_openings``).  Games run in this
process, in parallel processes (the ``spawn`` start method: safe beside threads and on every platform), or
on a Dask cluster (``--cluster``; ``ai.cluster``), each with freshly built engines and seeds that depend only
on the tournament seed and the game's index, so a result does not depend on where it was played.

The result reports wins, draws, losses, score %, the Elo difference with its 95% interval (``ai.elo``), the
pentanomial counts of the pairs with their own Elo interval (``ai.sprt``), mean and maximum time per move and
the number of moves that overran the time limit; ``TournamentResult`` writes it as a table, CSV or JSON.
Benchmarks and evaluator tuning call ``compare`` directly.

``--sprt elo0=,elo1=`` turns the run into a sequential test (fishtest's pentanomial GLLR, in logistic or
normalized Elo): ``--games`` becomes a cap, and the run stops at the first pair whose LLR reaches a bound.
``--checkpoint FILE`` appends every record to a JSON-lines file as it arrives, and ``--resume FILE``
continues that run (``ai.checkpoint``).

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
import random
import sys
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterator, Sequence

from ai import checkpoint as checkpoints
from guarded.files import write_atomically
from ai.base import CancelToken, EngineError, Limits, SearchAborted
from ai.cluster import GameRunner, make_runner
from ai.elo import EloEstimate, elo_estimate, format_elo
from ai.registry import engine_info, engines as registered_engines, parse_engine_spec
from ai.sprt import SprtSettings, SprtState, pair_elo, pair_outcome, sprt_state
from ai.worker import fallback_result
from rules import Game, Move, RulesError, State, parse_game_spec

OVERRUN_MARGIN = 0.010
"""Seconds a move may exceed its time limit before it counts as an overrun."""
MAX_PLIES = 20_000
"""A safety cap far above every game's own limit; a game reaching it is scored a draw (reason ``ply cap``)."""
SPRT_GAME_CAP = 20_000
"""The default game cap of a sequential test (``--sprt`` without ``--games``)."""
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
    moves: tuple[str, ...] = ()
    """Every move from the start, the opening's included, in the game's notation (``format_move``)."""


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
    moves: list[str] = []
    for move in task.opening_moves:
        moves.append(game.format_move(state, move))
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
        moves.append(game.format_move(state, result.move))
        state = game.apply(state, result.move)
        plies += 1
    move_stats = (MoveStats(**stats[0]), MoveStats(**stats[1]))
    if forfeit is not None:
        loser, why = forfeit
        return GameRecord(task.index, task.opening, task.a_seat, "AB"[1 - loser], "forfeit", (), plies,
                          move_stats, why, tuple(moves))
    outcome = game.outcome(state)
    if outcome is None:  # the ply cap
        return GameRecord(task.index, task.opening, task.a_seat, None, "ply cap", (), plies, move_stats,
                          moves=tuple(moves))
    winner = None if outcome.winner is None else "AB"[seat_of[outcome.winner]]
    return GameRecord(task.index, task.opening, task.a_seat, winner, outcome.reason.value, tuple(outcome.scores),
                      plies, move_stats, moves=tuple(moves))


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
    pentanomial: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    """Colour-swapped pairs in which A scored 0, 1/2, 1, 3/2 and 2 points (see ``ai.sprt``)."""
    sprt: SprtState | None = None
    """The SPRT's LLR and verdict, when the run was a sequential test."""

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
            lines.append(f"game {record.index} forfeited: {(record.forfeit or '').splitlines()[0]}")
        if len(forfeits) > 3:
            lines.append(f"... and {len(forfeits) - 3} more forfeits")
        if any(self.pentanomial):
            lines.append(f"pairs {sum(self.pentanomial)}: pentanomial {list(self.pentanomial)} "
                         f"(A scored 0, 1/2, 1, 3/2, 2 points), Elo {pair_elo(self.pentanomial).format()}")
        if self.sprt is not None:
            lines.append(f"SPRT {self.sprt.settings.describe()}: {self.sprt.line()}")
            lines.append(self.sprt.verdict_text())
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
        document = {
            "game": self.game,
            "engines": list(self.specs),
            "settings": self.settings,
            "summary": [_finite(asdict(row)) for row in self.summaries()],
            "first_player_score": _finite_value(self.first_player_score()),
            "pentanomial": list(self.pentanomial),
            "pair_elo": _finite(asdict(pair_elo(self.pentanomial))),
            "sprt": None if self.sprt is None else self.sprt.to_dict(),
            "openings": [_opening_text(game, moves) for moves in self.openings],
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
    for order, (prefix, state) in enumerate(candidates):
        if engine is not None:
            value = engine.search(state, Limits(time=2.0), CancelToken(time.perf_counter() + 2.0)).score
        else:
            value = _playout_value(game, state, rng)
        scored.append((abs(value), order, prefix))
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
    cluster: str | None = None,
    sprt: SprtSettings | None = None,
    checkpoint: str | Path | None = None,
    resume: bool = False,
    openings: int = 0,
    opening_plies: int = 4,
    judge: str | None = None,
    seed: int = 0,
    time_limit: float | None = None,
    overrun_margin: float = OVERRUN_MARGIN,
    max_plies: int = MAX_PLIES,
    progress: ProgressHook | None = None,
    play: Callable[[GameTask], GameRecord] = play_game,
) -> TournamentResult:
    """Play ``games`` games of ``spec_a`` against ``spec_b`` on ``game`` and return the result.

    Games come in colour-swapped pairs: game ``i`` starts from opening ``(i // 2) % n`` (the start position
    is opening 0, followed by ``openings`` balanced ones), with A moving first when ``i`` is even.  ``jobs``
    processes play in parallel (1: in this process); with ``cluster`` (``"local"`` or a Dask scheduler
    address) the games run on Dask instead (``ai.cluster``).  Each game's seeds depend only on ``seed`` and
    its index, so the games are the same wherever they run.  ``time_limit`` (seconds per move) goes to both
    engines as ``Limits.time`` and a cancel-token deadline; without it an engine's own ``time`` parameter, if
    any, is its limit for counting overruns.  ``progress(done, total, partial_result)`` is called after each
    game.

    With ``sprt``, ``games`` is a cap: the run stops as soon as the pentanomial LLR of the pairs played so far
    reaches a bound (``ai.sprt``).  The test reads the pairs in index order, so its verdict and stopping
    point do not depend on which game finished first; games finished beyond the stopping pair are left out.

    ``checkpoint`` names a JSON-lines file that receives each record as it arrives (``ai.checkpoint``); with
    ``resume`` the file must exist, belong to the same run, and only its missing games are played.
    """
    rules_object = parse_game_spec(game) if isinstance(game, str) else game
    if rules_object.num_players != 2:
        raise EngineError(f"a tournament needs a two-player game; {rules_object.title} is a puzzle")
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if sprt is not None and (games < 2 or games % 2):
        raise ValueError(f"an SPRT plays game pairs: the game cap must be even and at least 2, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
        raise ValueError(f"the time limit must be a positive number of seconds, not {time_limit}")
    if resume and checkpoint is None:
        raise ValueError("resume needs the checkpoint file to resume from")
    specs = (spec_a.strip(), spec_b.strip())
    _check_specs(rules_object, specs)
    run = {"seed": seed, "openings": openings, "opening_plies": opening_plies, "judge": judge,
           "time_limit": time_limit, "overrun_margin": overrun_margin, "max_plies": max_plies}
    path = Path(checkpoint) if checkpoint is not None else None
    done: dict[int, GameRecord] = {}
    if path is not None and resume:
        first, saved = checkpoints.load(path)
        checkpoints.check_same_run(path, first, rules_object.spec, specs, run)
        prefixes = [_parse_opening(rules_object, texts) for texts in first["openings"]]
        for item in saved:
            record = _record_from_dict(item)
            if record.index < games:  # a smaller cap than before leaves the later games out
                done.setdefault(record.index, record)
        stream = checkpoints.resume(path)
    else:
        prefixes = [()] + balanced_openings(rules_object, openings, plies=opening_plies, seed=seed, judge=judge)
        stream = None
        if path is not None:
            texts = [_opening_text(rules_object, moves) for moves in prefixes]
            stream = checkpoints.start(path, checkpoints.header(rules_object.spec, specs, run, texts))
    result = TournamentResult(
        rules_object.spec, specs, games, prefixes,
        {"games": games, "jobs": jobs, "cluster": cluster, **run,
         "sprt": None if sprt is None else asdict(sprt), "checkpoint": None if path is None else str(path),
         "resumed_games": len(done)},
    )
    try:
        runner = make_runner(play, jobs if cluster is not None else min(jobs, games), cluster)
    except BaseException:
        if stream is not None:
            stream.close()
        raise
    result.settings["runner"] = runner.description
    try:
        _run(result, rules_object, specs, prefixes, run, done, runner, sprt, stream, progress)
    finally:
        runner.close()
        if stream is not None:
            stream.close()
    return result


def _tasks(game: Game, specs: tuple[str, str], prefixes: list[tuple[Move, ...]], run: dict[str, Any],
           games: int) -> Iterator[GameTask]:
    """The tournament's games in index order; a game's seeds depend only on the tournament seed and its index."""
    seeded = [("seed" in dict(engine_info(spec.partition(":")[0].strip()).defaults()))
              and "seed" not in _explicit_keys(spec) for spec in specs]
    rng = random.Random(f"tournament:{run['seed']}")
    for index in range(games):
        opening = (index // 2) % len(prefixes)
        south_seed = rng.randrange(2**31) if seeded[0] else None  # drawn in seat order
        game_seeds = (south_seed, rng.randrange(2**31) if seeded[1] else None)
        yield GameTask(index, game.spec, specs, index % 2, opening, prefixes[opening], game_seeds,
                       run["time_limit"], run["overrun_margin"], run["max_plies"])


def _run(result: TournamentResult, game: Game, specs: tuple[str, str], prefixes: list[tuple[Move, ...]],
         run: dict[str, Any], done: dict[int, GameRecord], runner: GameRunner, sprt: SprtSettings | None,
         stream: IO[str] | None, progress: ProgressHook | None) -> None:
    """Submit games a few at a time, collect records as they finish, and stop at the cap or the SPRT verdict."""
    pending = _tasks(game, specs, prefixes, run, result.games_planned)
    tally = _PairTally(sprt)
    stop_at: int | None = None  # games, once the SPRT has decided: pairs up to the deciding one
    for record in sorted(done.values(), key=lambda r: r.index):
        result.records.append(record)
        stop_at = stop_at or tally.add(record)
    in_flight = 0
    exhausted = False
    while True:
        while stop_at is None and not exhausted and in_flight < runner.capacity():
            task = next(pending, None)
            if task is None:
                exhausted = True
            elif task.index not in done:
                runner.submit(task)
                in_flight += 1
        if in_flight == 0 or stop_at is not None:
            break
        record = runner.next_record()
        in_flight -= 1
        if stream is not None:
            checkpoints.append(stream, record)
        done[record.index] = record
        result.records.append(record)
        stop_at = tally.add(record)
        result.pentanomial, result.sprt = tuple(tally.counts), tally.state()  # type: ignore[assignment]
        if progress is not None:
            progress(len(result.records), result.games_planned, result)
    if stop_at is not None:
        result.settings["games_after_verdict"] = sum(r.index >= stop_at for r in result.records)
        result.records = [r for r in result.records if r.index < stop_at]
    result.records.sort(key=lambda record: record.index)
    result.pentanomial, result.sprt = tuple(tally.counts), tally.state()  # type: ignore[assignment]


class _PairTally:
    """The pentanomial counts of the pairs finished so far, read in index order (pair 0, 1, ... with no gap)."""

    def __init__(self, settings: SprtSettings | None) -> None:
        self.settings = settings
        self.counts = [0] * 5
        self._points: dict[int, float] = {}  # A's points per finished game, until its pair is counted
        self._next_pair = 0
        self._state: SprtState | None = None if settings is None else sprt_state(settings, self.counts)

    def add(self, record: GameRecord) -> int | None:
        """Count ``record``; return the number of games that decided the test once it has decided, else None."""
        self._points[record.index] = 1.0 if record.winner == "A" else 0.5 if record.winner is None else 0.0
        while 2 * self._next_pair in self._points and 2 * self._next_pair + 1 in self._points:
            first = 2 * self._next_pair
            points = self._points.pop(first) + self._points.pop(first + 1)
            self.counts[pair_outcome(points)] += 1
            self._next_pair += 1
            if self.settings is not None:
                self._state = sprt_state(self.settings, self.counts)
                if self._state.verdict is not None:
                    return 2 * self._next_pair
        return None

    def state(self) -> SprtState | None:
        return self._state


def _opening_text(game: Game, moves: tuple[Move, ...]) -> list[str]:
    state, texts = game.initial_state(), []
    for move in moves:
        texts.append(game.format_move(state, move))
        state = game.apply(state, move)
    return texts


def _parse_opening(game: Game, texts: list[str]) -> tuple[Move, ...]:
    state, moves = game.initial_state(), []
    for text in texts:
        move = game.parse_move(state, text)
        moves.append(move)
        state = game.apply(state, move)
    return tuple(moves)


def _record_from_dict(item: dict[str, Any]) -> GameRecord:
    try:
        fields = dict(item)
        fields["scores"] = tuple(fields["scores"])
        fields["stats"] = tuple(MoveStats(**stats) for stats in fields["stats"])
        fields["moves"] = tuple(fields.get("moves", ()))  # checkpoints written before records kept moves have none
        return GameRecord(**fields)
    except (KeyError, TypeError) as error:
        raise checkpoints.CheckpointError(f"a checkpoint line is not a game record: {error}") from None


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


def _sprt(text: str) -> SprtSettings:
    try:
        return SprtSettings.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--sprt ")) from None


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
    parser.add_argument("--games", type=_positive_int, metavar="N",
                        help=f"number of games (default 100); with --sprt, the cap (default {SPRT_GAME_CAP})")
    parser.add_argument("--jobs", type=_positive_int, default=1,
                        help="parallel processes (default 1); with --cluster local, Dask workers")
    parser.add_argument("--sprt", type=_sprt, metavar="elo0=E0,elo1=E1[,alpha=A,beta=B,model=M]",
                        help="a sequential test: play game pairs until the pentanomial LLR accepts H0 (A is not "
                             "stronger than B by more than elo0) or H1 (A is stronger by at least elo1), in "
                             "logistic Elo (model=normalized: fishtest's normalized Elo); alpha and beta "
                             "default to 0.05")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="run the games on Dask: a scheduler address such as tcp://host:8786, or 'local' "
                             'for a Dask cluster of --jobs workers on this machine (needs pip install -e ".[cluster]")')
    files = parser.add_mutually_exclusive_group()
    files.add_argument("--checkpoint", metavar="FILE",
                       help="write each game's record to FILE (JSON lines) as it finishes")
    files.add_argument("--resume", metavar="FILE",
                       help="continue the run checkpointed in FILE (same arguments), playing only missing games")
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
    shown_pairs = [-1]
    width = [0]  # of the last line, so a shorter one overwrites all of it

    def show(done: int, total: int, partial: TournamentResult) -> None:
        wins, draws, losses = partial._results(0)
        score = (wins + draws / 2) / done
        line = f"game {done}/{total}: A +{wins} ={draws} -{losses} ({100 * score:.1f}%)"
        state = partial.sprt
        if state is not None:
            if state.pairs == shown_pairs[0] and not interactive:
                return  # one line per counted pair when the stream is a log
            shown_pairs[0] = state.pairs
            line += f"  pairs {state.pairs}  Elo {state.elo().format()}  {state.line()}"
        if interactive:  # one line rewritten in place; main ends it
            stream.write("\r" + line.ljust(width[0]))
            width[0] = len(line)
        else:
            stream.write(line + "\n")
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
        for path in (args.csv, args.json, args.checkpoint):
            if path and not Path(path).resolve().parent.is_dir():
                raise ValueError(f"cannot write {path}: the folder {Path(path).resolve().parent} does not exist")
        if args.cluster is not None and not args.cluster.strip():
            raise ValueError("--cluster needs a scheduler address (tcp://host:8786) or 'local'")
        games = args.games if args.games is not None else SPRT_GAME_CAP if args.sprt else 100
        if args.sprt is not None and games % 2:
            raise ValueError(f"--games {games}: an SPRT plays game pairs, so the cap must be even")
        progress = None if args.quiet else _progress_line(sys.stderr)
        if args.sprt is not None and not args.quiet:
            print(f"SPRT {args.sprt.describe()}, A = {args.engine[0]}, B = {args.engine[1]}, "
                  f"at most {games} games", file=sys.stderr)
        result = compare(
            game, args.engine[0], args.engine[1], games=games, jobs=args.jobs, cluster=args.cluster,
            sprt=args.sprt, checkpoint=args.resume or args.checkpoint, resume=args.resume is not None,
            openings=args.openings, opening_plies=args.opening_plies, judge=args.judge, seed=args.seed,
            time_limit=args.time_limit, progress=progress,
        )
        if progress is not None and sys.stderr.isatty():
            sys.stderr.write("\n")
    except (RulesError, EngineError, ValueError) as error:
        print(f"stonecave compare: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        saved = args.resume or args.checkpoint
        print("\nstonecave compare: interrupted" + (f"; continue with --resume {saved}" if saved else ""),
              file=sys.stderr)
        return 130
    print(result.table())
    saved = True
    if args.csv:
        saved &= save_output(args.csv, result.to_csv(), "summary")
    if args.json:
        saved &= save_output(args.json, result.to_json(), "summary and games")
    return 0 if saved else 1


def save_output(path: str, text: str, what: str) -> bool:
    """Write a tournament's output to ``path``; when that fails (a disk that filled while the games were
    played), write it to the temporary folder, or failing that to standard output, and say where: the
    results of a long run are never lost.  False when ``path`` itself could not be written."""
    try:
        write_atomically(Path(path), text)
        print(f"{what} written to {path}")
        return True
    except OSError as error:
        problem = f"could not write {path} ({error.strerror or error})"
    fallback = Path(tempfile.gettempdir()) / f"stonecave-compare-{time.strftime('%Y%m%d-%H%M%S')}-{Path(path).name}"
    try:
        write_atomically(fallback, text)
        print(f"stonecave compare: {problem}; the {what} went to {fallback} instead", file=sys.stderr)
    except OSError:
        print(f"stonecave compare: {problem}, nor to {fallback.parent}; the {what} follow on standard output",
              file=sys.stderr)
        print(text)
    return False
