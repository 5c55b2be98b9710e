"""``stonecave solve``: the exact value of a Kalah start (or of a position in the game's notation).

    stonecave solve kalah:pits=6,seeds=4[,empty_capture=false] [--position TEXT] [--folder DIR] [--no-pv]
                    [--memory MB] [--table-seeds N] [--no-build] [--checkpoint FILE] [--checkpoint-minutes M]
                    [--prover auto|board|pvs] [--deepening] [--pv-seconds S] [--guess V]

Before any work it states its plan in one line: the endgame tables it uses (built into the settings folder
when missing: their size and time are stated first; it never waits for an answer, so it runs the same with
no terminal), the transposition table's size and the checkpoint.  The default prover (``pvs``,
``ai.kalah_solve``) runs MTD(f) with the engines' PVS; ``--prover board`` (``ai.kalah_solver``) runs MTD(f)
null-window tests over boards with depth-free bounds and can checkpoint.  Each reports its progress, then the
value for the side to move and a principal variation.  With ``--checkpoint FILE`` the board prover saves its table and bounds every
``--checkpoint-minutes`` and when stopped, and starts from the file when it exists: a killed proof resumes.
Pits are numbered as on the board and in the console: 1..n from the mover's left.

Every option is checked before anything is allocated: ``--memory`` is a number of MB from 1 to half this
machine's memory (default: sized to the game, ``ai.kalah_solve.default_memory``), written with the digits 0-9;
a ``--position`` must be one the variant can reach (``Game.check_position``).  Ctrl-C stops the proof within a
fraction of a second (the search runs in a thread and polls a cancel flag) and says what was proved so far.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, TypeVar

NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?", re.ASCII)
"""A size or time on the command line: digits 0-9, an optional decimal part (no exponent, sign or nan)."""
T = TypeVar("T")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="stonecave solve", description="Prove a Kalah position's value.")
    parser.add_argument("game", help="e.g. kalah:pits=6,seeds=4 or kalah:pits=6,seeds=4,empty_capture=false")
    parser.add_argument("--position", default=None, help="a position in the game's text notation (default: the start)")
    parser.add_argument("--folder", type=Path, default=None, help="the tables' folder (default: the settings folder)")
    parser.add_argument("--no-tables", action="store_true", help="search without the endgame tables")
    parser.add_argument("--no-pv", action="store_true", help="print the value only, not a principal variation")
    parser.add_argument("--no-proof", action="store_true",
                        help="prove from nothing even where the opening proof shipped with StoneCave holds the "
                             "position (Kalah(6,4): its start and the openings after it)")
    parser.add_argument("--memory", default=None, metavar="MB",
                        help="transposition table in MB (default: sized to the game, 1024 for Kalah(6,4))")
    parser.add_argument("--deepening", action="store_true",
                        help="prove by iterative deepening to a resolved iteration instead of MTD(f) null-window tests")
    parser.add_argument("--pv-seconds", default="300", metavar="SECONDS",
                        help="stop proving the principal variation's moves after this long (default 300)")
    parser.add_argument("--prover", choices=("auto", "board", "pvs"), default="auto",
                        help="pvs: the engines' PVS prover (the faster on games of up to 40 seeds); board: MTD(f) "
                             "over boards, resumable with --checkpoint (the one that proves Kalah(6,4) and (6,5)); "
                             f"auto (default): board above {BOARD_ABOVE} seeds, else pvs")
    parser.add_argument("--table-seeds", default=None, metavar="N",
                        help="endgame tables of 0..N seeds (default: planned for the game's size, 0..20 for "
                             "Kalah(6,4))")
    parser.add_argument("--no-build", action="store_true", help="use only the tables already in the folder")
    parser.add_argument("--checkpoint", type=Path, default=None, metavar="FILE",
                        help="save the proof there now and then (board prover), and resume from it if it exists")
    parser.add_argument("--checkpoint-minutes", default="10", metavar="M",
                        help="minutes between checkpoints (default 10)")
    parser.add_argument("--guess", default=None, metavar="V",
                        help="the board prover's first test: is the value (the side to move's final margin) at least "
                             "V? (default: from shallow searches; a published value to confirm, say; a wrong guess "
                             "costs time, never a wrong value)")
    parser.add_argument("--threads", default=None, metavar="N",
                        help="searchers on the board prover's table at once (default: this machine's cores, at "
                             "most 2)")
    return parser


BOARD_ABOVE = 40
"""``--prover auto`` takes the board prover for games of more seeds than this (Kalah(6,4) and up: it proves their
starts, where the PVS prover did not within 280 s after three moves of Kalah(6,4)), the PVS prover up to it (the
faster on Kalah(6,3): 0.4 s and 2.1 s after the tables, against 1.5 s and 3.5 s; BENCHMARKS.md)."""


class OptionError(ValueError):
    """A bad option or position: the message says what is wrong and what would be right."""


def parse_number(option: str, text: str, low: float, high: float, unit: str, why_high: str = "") -> float:
    """``text`` as a number from ``low`` to ``high`` written with the digits 0-9; OptionError otherwise."""
    shown = _shown(text)
    if NUMBER.fullmatch(text) is None:
        raise OptionError(f"{option} is a number of {unit} from {low:g} to {high:,.0f}{why_high}, written with the "
                          f"digits 0-9, not {shown!r}")
    value = float(text)
    if not low <= value <= high:
        raise OptionError(f"{option} is a number of {unit} from {low:g} to {high:,.0f}{why_high}, not {shown}")
    return value


def _shown(text: str) -> str:
    """An option's value as a message quotes it: at most 20 characters."""
    return text if len(text) <= 20 else text[:17] + "..."


def check_position(game: Any, state: Any) -> None:
    """The position is one the variant can reach (``Game.check_position``: the seeds it conserves, counts of at
    least 0), so nothing is allocated or searched for a board the game cannot hold; OptionError otherwise."""
    from rules import RulesError

    try:
        game.check_position(state)
    except (RulesError, ValueError) as error:
        raise OptionError(f"--position: {error}") from None


def interruptible(work: Callable[[], T], cancel: Any, tick: Callable[[], None] | None = None) -> tuple[T | None, bool]:
    """``work()`` in a thread while this one waits for Ctrl-C: the first Ctrl-C sets ``cancel`` (the compiled
    search polls its flag every few hundred nodes) and waits for ``work`` to return.  (its result, whether
    Ctrl-C was pressed); an exception in ``work`` is raised here.  ``tick()`` is called every 0.05 s meanwhile."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as error:  # raised again in the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=run, name="solve", daemon=True)
    thread.start()
    interrupted = False
    while thread.is_alive():
        try:
            thread.join(0.05)
            if tick is not None:
                tick()
        except KeyboardInterrupt:
            interrupted = True
            cancel.cancel()
    if "error" in outcome and not (interrupted and type(outcome["error"]).__name__ == "SearchAborted"):
        raise outcome["error"]
    return outcome.get("value"), interrupted


def main(argv: list[str]) -> int:
    """The command; a Ctrl-C outside the proof or build (while loading, or a second one) ends it with a word."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("\nstonecave solve: stopped by Ctrl-C; nothing was proved after that point", file=sys.stderr)
        return 130


def _main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    import ai.core

    if ai.core.module() is None:
        print(f"stonecave solve: the prover runs on the compiled core, which is missing: {ai.core.status().why}",
              file=sys.stderr)
        return 1
    try:
        game, state, memory, pv_seconds = _checked(args)
    except OptionError as error:
        print(f"stonecave solve: {error}", file=sys.stderr)
        return 2
    if game.is_terminal(state):
        print(f"the game is over: {game.outcome(state)}")
        return 0
    if not args.no_proof:
        answered = from_opening_proof(game, state, not args.no_pv)
        if answered is not None:
            return answered
    if args.prover == "board" and not args.deepening:
        from game.solve_board import solve_boards

        return solve_boards(args, game, state, memory, pv_seconds)
    return _solve(args, game, state, memory, pv_seconds)


def from_opening_proof(game: Any, state: Any, with_pv: bool) -> int | None:
    """The value read from the opening proof shipped for ``game`` (``ai.kalah_proofs``), when it holds ``state``
    exactly: printed with where it comes from and how to prove it from nothing (``--no-proof``); 0.  None when
    it does not (or the file is damaged, which is said): the proof runs."""
    from ai.kalah_proofs import DATA, PROOF_FILES, ProofError, proof_for

    try:
        proof = proof_for(game)
    except ProofError as error:
        print(f"stonecave solve: the shipped opening proof is not used ({error}); proving from nothing",
              file=sys.stderr)
        return None
    if proof is None:
        return None
    entry = proof.lookup(state)
    if entry is None:
        return None
    mover = "South" if game.to_move(state) == 0 else "North"
    if not entry.exact:                      # the build kept a lower bound here: the prover finds the value
        print(f"the opening proof shipped with StoneCave holds at least {entry.value:+d} for {mover} here (pit "
              f"{game.move_label(state, entry.move)} keeps it; the exact value cost its build too much): proving "
              "the exact value", flush=True)
        return None
    print(f"value: {entry.value:+d} for {mover} (the side to move) with best play; best move: pit "
          f"{game.move_label(state, entry.move)}")
    print(f"read from the opening proof shipped with StoneCave (ai/{DATA.name}/{PROOF_FILES[game.spec]}, "
          f"{len(proof):,} positions, checked when read; rebuilt by python -m ai.kalah_proofs build); "
          f"--no-proof proves it from nothing", flush=True)
    if with_pv:
        line = proof_line(proof, state)
        labels, position = [], state
        for move in line:
            labels.append(game.move_label(position, move))
            position = game.apply(position, move)
        ending = "to the end of the game" if game.is_terminal(position) else f"first {len(line)} moves, as far as " \
                 "the proof goes; --no-proof proves the rest"
        print(f"principal variation ({ending}; pits numbered 1..{game.pits} from each mover's left): "
              + " ".join(labels))
    return 0


def proof_line(proof: Any, state: Any) -> list[int]:
    """A line of best play from ``state`` read from ``proof`` alone: the proving side's proven move (an entry
    whose exact value cost the build too much holds a lower bound, at least the value the line keeps, so its
    move keeps that value too), and for the opponent a reply that leaves the proving side least (every reply's
    exact value is in the proof, or the game ends); it stops where the proof does (a leaf, a bound among the
    replies, or a board the endgame tables hold)."""
    game = proof.game
    prover = game.to_move(state)

    def value(position: Any) -> int | None:
        """``position``'s value for the proving side, from the proof alone (None: not held)."""
        if game.is_terminal(position):
            return int(game.outcome(position).margin(prover))
        if game.to_move(position) == prover:
            held = proof.lookup(position)
            return held.value if held is not None and held.exact else None
        values = [value(game.apply(position, move)) for move in game.legal_moves(position)]
        return None if None in values else min(v for v in values if v is not None)

    line: list[int] = []
    position = state
    while not game.is_terminal(position):
        if game.to_move(position) == prover:
            held = proof.lookup(position)
            if held is None:
                break
            move = held.move
        else:
            replies = [(value(game.apply(position, move)), move) for move in game.legal_moves(position)]
            if any(found is None for found, _ in replies):
                break
            move = min(replies, key=lambda reply: (reply[0], reply[1]))[1]
        line.append(move)
        position = game.apply(position, move)
    return line


def _checked(args: argparse.Namespace) -> tuple[Any, Any, float, float]:
    """The game, the position, the table's MB and the PV's seconds, each checked; OptionError otherwise."""
    import rules
    from ai.kalah_solve import default_memory
    from ai.kalah_solver import default_megabytes
    from ai.search import machine_megabytes
    from rules import RulesError
    from rules.kalah import Kalah

    try:
        game = rules.parse_game_spec(args.game)
        if not isinstance(game, Kalah):
            raise OptionError(f"solve proves Kalah positions, not {game.name}")
        state = game.initial_state() if args.position is None else game.from_text(args.position)
    except (RulesError, ValueError) as error:
        raise OptionError(str(error)) from None
    check_position(game, state)
    limit = machine_megabytes() / 2
    total = 2 * game.pits * game.seeds
    if args.prover == "auto":
        args.prover = "board" if total > BOARD_ABOVE and not args.deepening else "pvs"
    board = args.prover == "board" and not args.deepening
    if args.memory is None:
        memory = default_megabytes(game, machine_megabytes()) if board else default_memory(game)
    else:
        memory = parse_number("--memory", args.memory, 1, limit, "MB", " (half this machine's memory)")
    pv_seconds = parse_number("--pv-seconds", args.pv_seconds, 0, 86_400, "seconds")
    args.table_seeds = None if args.table_seeds is None else int(parse_number(
        "--table-seeds", args.table_seeds, 0, min(total, 40), "seeds", " (the game's seeds, at most 40)"))
    args.checkpoint_minutes = parse_number("--checkpoint-minutes", args.checkpoint_minutes, 0.01, 10_000, "minutes")
    if args.checkpoint is not None and not board:
        raise OptionError("--checkpoint is for the board prover: add --prover board (and no --deepening)")
    if args.threads is not None and not board:
        raise OptionError("--threads is for the board prover: add --prover board (and no --deepening)")
    if args.guess is not None:
        if not board:
            raise OptionError("--guess is for the board prover: add --prover board (and no --deepening)")
        if re.fullmatch(r"[+-]?[0-9]{1,4}", args.guess) is None or abs(int(args.guess)) > total:
            raise OptionError(f"--guess is a whole number of seeds from -{total} to +{total} (the side to move's "
                              f"final margin, such as 12 or -4), not {_shown(args.guess)!r}")
        args.guess = int(args.guess)
    cores = os.cpu_count() or 1
    args.threads = min(2, cores) if args.threads is None else int(parse_number(
        "--threads", args.threads, 1, cores, "threads", " (this machine's cores)"))
    return game, state, min(memory, limit), pv_seconds


def _solve(args: argparse.Namespace, game: Any, state: Any, memory: float, pv_seconds: float) -> int:
    from ai.base import CancelToken
    from ai.kalah_solve import KalahProver, MAX_DEPTH
    from game.solve_board import prepare

    how = "iterative deepening" if args.deepening else "MTD(f) null-window tests"
    code, loaded, _ = prepare(args, game, [f"a {memory:,.0f} MB transposition table (--memory)",
                                           f"{how} with the PVS prover"])
    if code is not None:
        return code
    prover = KalahProver(game, None if loaded is None or loaded.top < 0 else loaded.tables, memory)
    started = time.perf_counter()
    last: list[Any] = []

    def label(position: Any, move: int | None) -> str:
        return "-" if move is None else game.move_label(position, move)

    def progress(iteration: Any) -> None:
        last[:] = [iteration]
        kind = "to the end " if iteration.depth >= MAX_DEPTH else f"depth {iteration.depth:5d}"
        print(f"  {kind}  bound {iteration.score:+7.2f}  move {label(state, iteration.move):>2}  "
              f"{iteration.nodes:>14,} nodes  {iteration.seconds:8.1f} s"
              + ("  (proved)" if iteration.resolved else ""), flush=True)

    cancel = CancelToken()
    mover = "South" if game.to_move(state) == 0 else "North"
    if args.deepening:
        proof, interrupted = interruptible(lambda: prover.prove(state, progress, cancel), cancel)
        if interrupted or proof is None:
            reached = f"; the last iteration reached depth {last[0].depth}" if last else ""
            print(f"\nstopped by Ctrl-C after {time.perf_counter() - started:.1f} s: not proved{reached}",
                  file=sys.stderr)
            return 130
        value, depth, nodes, seconds = proof.value, proof.depth, proof.nodes, proof.seconds
        move: int | None = proof.move
    else:
        beat = [time.perf_counter()]

        def tick() -> None:                 # a line every 30 s within a long null-window test
            now = time.perf_counter()
            if now - beat[0] >= 30:
                beat[0] = now
                print(f"  ... still proving, {now - started:.0f} s", flush=True)

        bounds, interrupted = interruptible(lambda: prover.prove_within(state, None, cancel, progress), cancel,
                                            tick)
        if interrupted or bounds is None or not bounds.is_exact:
            known = ""
            if bounds is not None and (bounds.lower > -float("inf") or bounds.upper < float("inf")):
                low = "?" if bounds.lower == -float("inf") else f"{bounds.lower:+.0f}"
                high = "?" if bounds.upper == float("inf") else f"{bounds.upper:+.0f}"
                keeps = "" if bounds.move is None else f"; pit {label(state, bounds.move)} secures {low}"
                known = f": the value for {mover} is between {low} and {high}{keeps}"
            print(f"\nstopped by Ctrl-C after {time.perf_counter() - started:.1f} s before the proof was complete"
                  f"{known}", file=sys.stderr)
            return 130
        value, depth, nodes, seconds = int(bounds.lower), prover.last_depth, bounds.nodes, bounds.seconds
        move = bounds.move
    print(f"value: {value:+d} for {mover} (the side to move) with best play; best move: pit {label(state, move)}")
    how = "null-window tests to the end of the game" if depth >= MAX_DEPTH else f"iterations up to {depth} plies"
    print(f"proved in {seconds:.1f} s, {nodes:,} nodes ({how})", flush=True)
    if args.no_pv:
        return 0
    pv, interrupted = interruptible(
        lambda: prover.principal_variation(state, value, seconds=pv_seconds, cancel=cancel), cancel)
    line, complete = pv if pv is not None else ((), False)
    labels, position = [], state
    for step in line:
        labels.append(label(position, step))
        position = game.apply(position, step)
    if interrupted:
        ending = f"first {len(line)} moves; stopped by Ctrl-C"
    else:
        ending = "to the end of the game" if complete else f"first {len(line)} moves; stopped after {pv_seconds:g} s"
    print(f"principal variation ({ending}, {time.perf_counter() - started:.1f} s in all; pits numbered 1..{game.pits} "
          f"from each mover's left): " + " ".join(labels))
    return 130 if interrupted else 0
