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

This module holds ``compare`` (what to play, when to stop) and the command; the other jobs have their own
modules, whose public names are importable from here as well: ``ai.game_play`` (one game: ``GameTask``,
``play_game``, ``GameRecord``), ``ai.tournament_result`` (``TournamentResult``: table, CSV, JSON),
``ai.openings`` (``balanced_openings``), ``ai.compare_options`` (the options and their bounds),
``ai.checkpoint`` (the checkpoint schema and its recovery) and ``ai.cluster`` (where games run).
"""
from __future__ import annotations

import math
import os
import random
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from ai import checkpoint as checkpoints
from ai import compare_options as options
from ai.base import EngineError
from ai.cluster import GameRunner, make_runner
from ai.compare_options import SPRT_GAME_CAP, UsageError
from ai.game_play import MAX_PLIES, OVERRUN_MARGIN, GameRecord, GameTask, MoveStats, play_game
from ai.openings import JUDGES, balanced_openings, opening_text, parse_opening
from ai.registry import engine_info, parse_engine_spec
from ai.sprt import SprtSettings, SprtState, pair_outcome, sprt_state
from ai.tournament_result import EngineSummary, TournamentResult
from guarded import files as guarded_files
from guarded.files import write_atomically
from guarded.records import RecordWriter
from rules import Game, Move, RulesError, parse_game_spec

__all__ = ["GameTask", "GameRecord", "MoveStats", "play_game", "EngineSummary", "TournamentResult",
           "balanced_openings", "compare", "main", "save_output", "JUDGES", "MAX_PLIES", "OVERRUN_MARGIN",
           "SPRT_GAME_CAP"]

ProgressHook = Callable[[int, int, TournamentResult], None]


class CheckpointWriteError(OSError):
    """The checkpoint could not be written while games were played (a full disk, say); the run stopped."""

    def __init__(self, path: Path, error: OSError, recorded: int) -> None:
        super().__init__(error.errno, error.strerror)
        self.path, self.reason, self.recorded = path, error.strerror or str(error), recorded


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
    notify: Callable[[str], None] | None = None,
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
    ``resume`` the file must exist, belong to the same run, and only its missing games are played; a line that
    is not a valid record of this run is not counted (its game is played again), and ``notify`` is told.
    A checkpoint that cannot be written mid-run stops the run with ``CheckpointWriteError``.
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
    problems: list[str] = []
    stream: RecordWriter | None = None
    if path is not None and resume:
        prefixes, recovery = _recover(path, rules_object, specs, run, games)
        done, problems = recovery.records, recovery.problems
        if problems and notify is not None:
            notify(checkpoints.describe_problems(path, problems, recovery.moved_to))
        stream = checkpoints.resume(path)
    else:
        if path is not None:
            checkpoints.check_writable(path)  # before the openings are chosen: a FIFO, a device or a read-only
            # folder is refused at once
        prefixes = [()] + balanced_openings(rules_object, openings, plies=opening_plies, seed=seed, judge=judge)
        if path is not None:
            texts = [opening_text(rules_object, moves) for moves in prefixes]
            stream = checkpoints.start(path, checkpoints.header(rules_object.spec, specs, run, texts))
    result = TournamentResult(
        rules_object.spec, specs, games, prefixes,
        {"games": games, "jobs": jobs, "cluster": cluster, **run,
         "sprt": None if sprt is None else asdict(sprt), "checkpoint": None if path is None else str(path),
         "resumed_games": len(done), "checkpoint_problems": problems},
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


def _recover(path: Path, game: Game, specs: tuple[str, str], run: dict[str, Any], games: int
             ) -> tuple[list[tuple[Move, ...]], checkpoints.Recovery]:
    """The openings, and the recovery of the checkpoint at ``path`` (its valid records under the cap, its
    problems)."""
    header, _ = checkpoints.read_header(path)
    checkpoints.check_same_run(path, header, game.spec, specs, run)
    try:
        prefixes = [parse_opening(game, texts) for texts in header["openings"]]
    except RulesError as error:
        raise checkpoints.CheckpointError(f"{path} lists an opening that is not a legal line of "
                                          f"{game.title}: {error}") from None
    return prefixes, checkpoints.recover(path, checkpoints.RunShape(games, len(prefixes), run["max_plies"]))


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
         stream: RecordWriter | None, progress: ProgressHook | None) -> None:
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
            try:
                checkpoints.append(stream, record)
            except OSError as error:
                raise CheckpointWriteError(stream.path, error, len(result.records)) from None
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



# -- the command line --------------------------------------------------------------------------------------------
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
    parser = options.parser()
    played = [0]
    try:
        args = parser.parse_args(argv)
        if len(args.engine) != 2:
            raise UsageError(f"give exactly two --engine options (got {len(args.engine)}), "
                              "e.g. --engine alphabeta:depth=8 --engine random")
    except UsageError as error:
        print(f"{parser.format_usage()}stonecave compare: error: {error}", file=sys.stderr)
        return 2
    try:
        game = parse_game_spec(args.game)
        for flag, path in (("--csv", args.csv), ("--json", args.json), ("--checkpoint", args.checkpoint),
                           ("--resume", args.resume)):
            if path is not None and not path.strip():
                raise ValueError(f"{flag} needs a file name")
            folder = Path(os.path.abspath(path)).parent if path else None  # abspath: a symlink loop cannot raise
            if folder is not None and flag != "--resume" and not guarded_files.is_folder(folder):
                raise ValueError(f"cannot write {path}: the folder {folder} does not exist")
        if args.cluster is not None and not args.cluster.strip():
            raise ValueError("--cluster needs a scheduler address (tcp://host:8786) or 'local'")
        games = args.games if args.games is not None else SPRT_GAME_CAP if args.sprt else 100
        if args.sprt is not None and games % 2:
            raise ValueError(f"--games {games}: an SPRT plays game pairs, so the cap must be even")
        shown = None if args.quiet else _progress_line(sys.stderr)

        def progress(done: int, total: int, partial: TournamentResult) -> None:
            played[0] = done  # for the message should the run be interrupted
            if shown is not None:
                shown(done, total, partial)
        if args.sprt is not None and not args.quiet:
            print(f"SPRT {args.sprt.describe()}, A = {args.engine[0]}, B = {args.engine[1]}, "
                  f"at most {games} games", file=sys.stderr)
        if args.openings and args.resume is None and not args.quiet:
            print(f"choosing {args.openings} balanced opening(s) of {args.opening_plies} plies...", file=sys.stderr)
        result = compare(
            game, args.engine[0], args.engine[1], games=games, jobs=args.jobs, cluster=args.cluster,
            sprt=args.sprt, checkpoint=args.resume or args.checkpoint, resume=args.resume is not None,
            openings=args.openings, opening_plies=args.opening_plies, judge=args.judge, seed=args.seed,
            time_limit=args.time_limit, progress=progress,
            notify=lambda message: print(f"stonecave compare: warning: {message}", file=sys.stderr),
        )
        if shown is not None and sys.stderr.isatty():
            sys.stderr.write("\n")
    except (RulesError, EngineError, ValueError) as error:
        print(f"stonecave compare: error: {error}", file=sys.stderr)
        return 2
    except CheckpointWriteError as error:
        print(f"\nstonecave compare: error: could not write the checkpoint {error.path} ({error.reason}); the run "
              f"stopped with {error.recorded} game(s) recorded in it and no summary; once it can be written, "
              f"continue with --resume {error.path}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        saved = args.resume or args.checkpoint
        done = f"after {played[0]} game(s)"
        if saved is not None and checkpoints.has_header(Path(saved)):
            where = f"every finished game is in {saved}: continue with --resume {saved}"
        else:
            where = "nothing was saved (no checkpoint)" if saved is None else f"{saved} was not started"
        print(f"\nstonecave compare: interrupted {done}; {where}", file=sys.stderr)
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
