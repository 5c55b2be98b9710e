"""The fastest exact Kalah solver here: MTD(f) over the compiled null-window tests of ``kalah_solver.pxi``.

A position's value is its stores' difference plus the value of its board (the pits alone), and the board is
what the compiled solver searches: every transposition entry holds bounds on a board's value that stay true
for ever, so the tests of MTD(f) build on each other, a principal variation is read off a warm table, and a
proof stopped part way (Ctrl-C, a node limit, a kill after a checkpoint) resumes where it was: a checkpoint is
the table and the bounds proved so far, written atomically.

``Solver.solve`` runs the tests; ``new_table`` allocates a table (pages zeroed by the system as they are first
touched); ``save_checkpoint`` / ``load_checkpoint`` keep a proof across processes.  Every checkpoint is
written and read through ``guarded/`` (atomically; only a regular file, copied into memory, its size checked
against its header before the table is read), so a damaged or hostile one is refused with one line.
"""
from __future__ import annotations

import json
import mmap
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from guarded import binary
from guarded.files import FileProblem
from rules.kalah import Kalah, KalahState

BUCKET_BYTES = 64
"""A probe reads one bucket of four 16-byte entries."""
CHECKPOINT_FORMAT = 2
"""2: the table's entries are sealed for threads sharing it (a check word); a format-1 table reads as empty."""
MAGIC = b"stonecave-kalah-proof\n"


def table_bytes(megabytes: float) -> int:
    """The largest power of two of buckets within ``megabytes`` MB of 2^20 bytes (at least one bucket)."""
    buckets = 1
    while buckets * 2 * BUCKET_BYTES <= megabytes * (1 << 20):
        buckets *= 2
    return buckets * BUCKET_BYTES


def new_table(megabytes: float) -> Any:
    """A zeroed table of ``table_bytes(megabytes)`` bytes; the system zeroes each page on first touch, so an
    unused part costs nothing."""
    return binary.anonymous_buffer(table_bytes(megabytes))


def default_megabytes(game: Kalah, machine_megabytes: float) -> float:
    """The table a proof of ``game`` gets unless told otherwise: 1,024 MB for 48 seeds (Kalah(6,4)), twice as
    much for every 4 seeds more and half for every 4 fewer, at least 16 MB and at most two fifths of the machine's
    memory and 8,192 MB (Kalah(6,5), 60 seeds: 8 GB, as it was proved in 41 minutes).  Pages are zeroed as the
    proof first touches them, so a small game's table stays small."""
    seeds = 2 * game.pits * game.seeds
    return max(16.0, min(1024.0 * 2 ** ((seeds - 48) / 4), machine_megabytes * 0.4, 8192.0))


def planned_table_seeds(game: Kalah, machine_megabytes: float | None = None) -> int:
    """The endgame tables a proof of ``game`` uses unless told otherwise.  Up to 48 seeds: every layer up to the
    largest whose layers 0..it fit 250 MB and five twelfths of the game's seeds at most (0..20 seeds for
    Kalah(6,4): 226 MB, about 22 s to build on two cores).  Measured from nothing, tables included
    (bench/bench_kalah_solve.py), the start took 42-51 s with 0..20 and 39-44 s with 0..18 by the empty-capture
    rule, but 118-149 s with 0..20 and 306-362 s with 0..18 by the standard rule, whose longer games the tables
    cut more.  Above 48 seeds the proof takes hours and the tables pay many times over: the budget doubles with
    every 2 seeds more, up to a quarter of the machine's memory (``machine_megabytes``; none given: this
    machine's), so Kalah(6,5) plans 0..28 on a machine of 24 GB (5.6 GB, 10-25 minutes to build), with which its
    start was proved in 41 minutes where 0..20 had not passed its first test in 65."""
    from ai.tables import auto_seeds

    total = 2 * game.pits * game.seeds
    if total <= 48:
        return min(auto_seeds(game.pits, total - 1, TABLE_BYTES), 5 * total // 12)
    if machine_megabytes is None:
        from ai.search import machine_megabytes as measured

        machine_megabytes = measured()
    budget = min(TABLE_BYTES * 2 ** ((total - 48) / 2), machine_megabytes * (1 << 20) / 4)
    return auto_seeds(game.pits, total - 1, int(budget))


TABLE_BYTES = 250_000_000
"""The endgame tables' budget of a planned proof of up to 48 seeds (``planned_table_seeds``)."""


def board_of(game: Kalah, state: KalahState) -> tuple[tuple[int, ...], int]:
    """(the board seen from the side to move: own pits, then the opponent's; own store minus theirs)."""
    ring = game.key(state)
    n = game.pits
    return tuple(ring[:n]) + tuple(ring[n + 1:2 * n + 1]), ring[n] - ring[2 * n + 1]


@dataclass
class Test:
    """One null-window test: is the board's value at least ``gamma``?  ``result`` >= gamma: a lower bound."""

    gamma: int
    result: int
    nodes: int
    seconds: float


@dataclass
class Proof:
    """The value of a position for the side to move (stores included), a move that secures it, and the cost."""

    value: int | None
    move: int | None
    lower: int
    upper: int
    nodes: int
    seconds: float
    tests: list[Test] = field(default_factory=list)
    stopped: bool = False

    @property
    def is_exact(self) -> bool:
        return self.lower == self.upper


TestProgress = Callable[[Test, int, int], None]
"""``progress(test, lower, upper)`` after each test (bounds on the whole value, stores included)."""


GUESS_DEPTH = 24
GUESS_NODES = 500_000
"""A proof's first guess (``Solver.solve``'s ``hint_depth`` and ``hint_nodes`` as ``stonecave solve`` sets them):
shallow searches 1, 2, ... plies deep until one takes more than ``GUESS_NODES`` nodes (a quarter of a second) or
reaches ``GUESS_DEPTH``.  At the start of Kalah(6,4) they say +8 (the value is +10) in under a second, and their
moves order the tests: the proof on one searcher took 174 M nodes instead of 378 M from the guess 0
(BENCHMARKS.md)."""
SPREAD = 0b101
"""The plies at which a second searcher of the same test searches the moves in the reverse order: the root and
two below, where a test that fails low must refute every move."""


class Solver:
    """Exact values of one Kalah variant's positions; the table is kept across calls."""

    def __init__(self, game: Kalah, tables: Any | None = None, megabytes: float = 64.0,
                 table: Any | None = None, etc: bool = True, futility: bool = True, ordering: int = 2,
                 threads: int = 1) -> None:
        from ai.core import module

        core = module()
        if core is None:
            raise RuntimeError("the Kalah solver runs on the compiled core, which is missing")
        self.game = game
        self.table = table if table is not None else new_table(megabytes)
        self.core = core.KalahSolver(game.pits, bool(game.empty_capture), self.table, tables,
                                     etc, futility, ordering)
        self.helpers = [core.KalahSolver(game.pits, bool(game.empty_capture), self.table, tables, etc, futility,
                                         ordering) for _ in range(max(1, threads) - 1)]
        """More searchers on the same table (``threads``): ``solve`` runs null-window tests of different values
        at once on them; every bound one proves is the others' (the entries are true for ever and sealed)."""
        self.bounds: dict[tuple[int, ...], tuple[int, int, int | None]] = {}
        """Root bounds proved so far (board value), kept by checkpoints: board -> (lower, upper, move)."""
        self.testing: list[int] = []
        """The values the tests running now ask about ("is the value at least this?", stores included; a value
        twice: the second searcher helps with the first's test): what a progress line within a long test says."""

    @property
    def nodes(self) -> int:
        return int(self.core.nodes) + sum(int(helper.nodes) for helper in self.helpers)

    def clear(self) -> None:
        """Forget every position proved: the solver is then what a new one on a new table would be (node for
        node), without the cost of the new table's first touches."""
        self.core.clear()
        for helper in self.helpers:
            helper.clear()
        self.bounds.clear()

    def solve(self, state: KalahState, guess: int | None = None, cancel: Any | None = None,
              progress: TestProgress | None = None, checkpoint: Callable[[], None] | None = None,
              checkpoint_nodes: int = 0, node_limit: int = 0, hint_depth: int = 0,
              checkpoint_seconds: float = 0.0, hint_nodes: int = 0) -> Proof:
        """MTD(f) to the exact value of ``state`` (not over).  ``guess``: the first test's value (default the
        stores' difference, or the middle of what is already known).  ``cancel``: a CancelToken that stops it; ``node_limit``: stop after that many nodes in all (tests use it); either way
        the Proof has ``stopped`` and the bounds so far.  ``checkpoint()`` is called every ``checkpoint_nodes``
        nodes (the running test is stopped for it and started again: its proved part is in the table) and
        when the proof stops early; ``checkpoint_seconds`` does the same by the clock.  ``hint_depth``: shallow searches of 1..that many plies first, which leave
        their best moves in the table for the tests (and give the first guess); ``hint_nodes``: none deeper after one
        that took more nodes than that.  With ``threads`` above 1 the tests run on every searcher at once."""
        game = self.game
        if game.is_terminal(state):
            raise ValueError("the game is over: nothing to prove")
        board, stores = board_of(game, state)
        flag = cancel.flag if cancel is not None else bytearray(1)
        ticking = threading.Event()
        if checkpoint is not None and checkpoint_seconds > 0:
            def tick() -> None:
                while not ticking.wait(checkpoint_seconds):
                    flag[0] = 1             # the running test stops; the loop below saves and goes on

            threading.Thread(target=tick, name="checkpoint clock", daemon=True).start()
        try:
            return self._solve(state, board, stores, guess, cancel, flag, progress, checkpoint, checkpoint_nodes,
                               node_limit, hint_depth, hint_nodes)
        finally:
            ticking.set()

    def _solve(self, state: KalahState, board: tuple[int, ...], stores: int, guess: int | None, cancel: Any,
               flag: bytearray, progress: TestProgress | None, checkpoint: Callable[[], None] | None,
               checkpoint_nodes: int, node_limit: int, hint_depth: int, hint_nodes: int = 0) -> Proof:
        seeds = sum(board)
        lower, upper, move = self.bounds.get(board, (-seeds, seeds, None))
        started, first_nodes = time.perf_counter(), self.nodes
        tests: list[Test] = []
        g = guess - stores if guess is not None else max(lower, min(upper, 0))
        stopped = False
        if hint_depth and board not in self.bounds:
            for depth in range(1, hint_depth + 1):
                before = self.nodes
                hinted, aborted = self.core.hint(board, depth, flag, node_limit)
                if aborted:
                    break
                if guess is None:
                    g = hinted
                if hint_nodes and self.nodes - before > hint_nodes:
                    break
        if self.helpers and lower < upper:
            lower, upper, move, stopped = self._together(board, stores, lower, upper, move, g, cancel, flag, tests,
                                                         progress, checkpoint, checkpoint_nodes, node_limit)
        while lower < upper and not stopped:
            g = max(lower, min(upper, g))
            gamma = g + 1 if g == lower else g
            limit = 0
            if checkpoint_nodes:
                limit = self.nodes + checkpoint_nodes
            if node_limit:
                limit = min(limit, node_limit) if limit else node_limit
            test_started, test_nodes = time.perf_counter(), self.nodes
            self.testing = [gamma + stores]
            result, cut, aborted = self.core.test(board, gamma, flag, limit)
            self.testing = []
            if aborted:
                if node_limit and self.nodes >= node_limit or cancel is not None and cancel.is_cancelled:
                    stopped = True
                    break
                flag[0] = 0                 # a checkpoint's stop (by nodes or the clock): save and go on
                if checkpoint is not None:
                    checkpoint()
                continue
            if result >= gamma:
                lower, move = result, cut
            else:
                upper = result
            g = result
            self.bounds[board] = (lower, upper, move)
            test = Test(gamma + stores, result + stores, self.nodes - test_nodes, time.perf_counter() - test_started)
            tests.append(test)
            if progress is not None:
                progress(test, lower + stores, upper + stores)
        if stopped and checkpoint is not None:
            checkpoint()
        if not stopped and move is None:
            move = self.best_move(state, lower + stores)
        value = lower + stores if lower == upper else None
        return Proof(value, move, lower + stores, upper + stores, self.nodes - first_nodes,
                     time.perf_counter() - started, tests, stopped)

    def _together(self, board: tuple[int, ...], stores: int, lower: int, upper: int, move: int | None, g: int,
                  cancel: Any, flag: bytearray, tests: list[Test], progress: TestProgress | None,
                  checkpoint: Callable[[], None] | None, checkpoint_nodes: int, node_limit: int
                  ) -> tuple[int, int, int | None, bool]:
        """MTD(f) on every searcher at once: between the bounds, two null-window tests (the guess and the one
        above it: one proves the value at least the guess, the other at most it); at a bound, the one test
        that settles it on every searcher, the helpers searching its moves from the other end.  A test whose
        answer another's result implies is stopped, and a searcher that finishes takes the next value wanted.
        Returns (lower, upper, move, stopped) on the board's value."""
        searchers = [self.core] + self.helpers
        results: queue.Queue[tuple[int, int, Any, Any, bool, float, int]] = queue.Queue()
        running: dict[int, tuple[int, bytearray, threading.Thread]] = {}     # searcher -> (gamma, stop, thread)
        stopped = pausing = False
        last_save = self.nodes

        def start(index: int, gamma: int, spread: int = 0) -> None:
            stop = bytearray(1)
            searcher = searchers[index]
            searcher.spread(spread)
            budgets = [node_limit - self.nodes] if node_limit else []
            if checkpoint_nodes:                     # the searcher stops itself when a checkpoint is due
                budgets.append(checkpoint_nodes - (self.nodes - last_save))
            limit = searcher.nodes + max(1, min(budgets)) if budgets else 0

            def run() -> None:
                began, nodes = time.perf_counter(), searcher.nodes
                result, cut, aborted = searcher.test(board, gamma, stop, limit)
                results.put((index, gamma, result, cut, aborted, time.perf_counter() - began, searcher.nodes - nodes))

            thread = threading.Thread(target=run, name=f"kalah proof test {index}", daemon=True)
            running[index] = (gamma, stop, thread)
            self.testing = sorted(value + stores for value, _, _ in running.values())
            thread.start()

        def wanted() -> list[int]:
            # At a bound the one test that settles it gets every searcher (the helpers search its moves from
            # the other end): testing the next value beside it as well made that test fight the first over
            # the table's entries, and Kalah(6,4)'s start took 42-55 s after the tables instead of 24-25 s.
            guess = max(lower, min(upper, g))
            if guess == lower:                       # the value is the lower bound or more
                values = [lower + 1]
            elif guess == upper:                     # at least the upper bound, or less
                values = [upper]
            else:                                    # at least the guess, and at most it
                values = [guess, guess + 1]
            return [value for value in values if lower < value <= upper]

        while True:
            if not pausing and not stopped:
                busy = [gamma for gamma, _, _ in running.values()]
                values = wanted()
                for gamma in values:
                    free = [index for index in range(len(searchers)) if index not in running]
                    if gamma not in busy and free:
                        start(free[0], gamma)
                        busy.append(gamma)
                for index in range(len(searchers)):       # a searcher left idle helps with the first test,
                    if index not in running and values:   # from the other end of its refutations
                        start(index, values[0], SPREAD)
            if not running:
                if not pausing:
                    break
                if checkpoint is not None:
                    checkpoint()                     # every searcher stopped: the table is still
                last_save, pausing = self.nodes, False
                flag[0] = 0
                continue
            if cancel is not None and cancel.is_cancelled or node_limit and self.nodes >= node_limit:
                stopped = True
            elif flag[0] or checkpoint_nodes and self.nodes - last_save >= checkpoint_nodes:
                pausing = True                       # the clock's or the node count's checkpoint
            if stopped or pausing:
                for _, stop, _ in running.values():
                    stop[0] = 1
            try:
                index, gamma, result, cut, aborted, seconds, nodes = results.get(timeout=0.02)
            except queue.Empty:
                continue
            running.pop(index)[2].join()
            self.testing = sorted(value + stores for value, _, _ in running.values())
            if aborted:
                if node_limit and self.nodes >= node_limit:
                    stopped = True
                elif checkpoint_nodes and self.nodes - last_save >= checkpoint_nodes:
                    pausing = True                   # its own checkpoint budget ran out
                continue                             # stopped by us (implied, a pause) or the limit
            if result >= gamma:
                if result > lower:
                    lower, move = result, cut
            else:
                upper = min(upper, result)
            g = result
            self.bounds[board] = (lower, upper, move)
            test = Test(gamma + stores, result + stores, nodes, seconds)
            tests.append(test)
            if progress is not None:
                progress(test, lower + stores, upper + stores)
            for other, stop, _ in running.values():
                if not lower < other <= upper:
                    stop[0] = 1                      # its answer is known now
        return lower, upper, move, stopped

    def at_least(self, state: KalahState, value: int, node_limit: int = 0) -> tuple[int, int] | None:
        """One null-window test that ``state`` is worth at least ``value`` to the side to move (stores
        included): the lower bound it proved (fail-soft: ``value`` or more) and a move keeping it, or None when
        ``node_limit`` more nodes (0: no limit) ran out first.  ValueError when the position is worth less."""
        board, stores = board_of(self.game, state)
        limit = self.nodes + node_limit if node_limit else 0
        result, cut, aborted = self.core.test(board, value - stores, bytearray(1), limit)
        if aborted:
            return None
        if result < value - stores:
            raise ValueError(f"the position is worth less than {value}: at most {result + stores}")
        lower = int(result) + stores
        return lower, int(cut) if cut is not None else self.best_move(state, lower)

    def best_move(self, state: KalahState, value: int) -> int:
        """A move of ``state`` whose value is at least ``value`` (the proven value): each child tested once."""
        game = self.game
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            if game.is_terminal(child):
                outcome = game.outcome(child)
                assert outcome is not None
                if outcome.margin(game.to_move(state)) >= value:
                    return move
                continue
            board, stores = board_of(game, child)
            same = game.to_move(child) == game.to_move(state)
            # the child's value from the mover's side is stores + board value (same mover) or minus it
            if same:
                result, _, _ = self.core.test(board, value - stores)
                if result >= value - stores:
                    return move
            else:
                result, _, _ = self.core.test(board, -value - stores + 1)
                if result < -value - stores + 1:
                    return move
        raise AssertionError("no move reaches the proven value")

    def principal_variation(self, state: KalahState, value: int, limit: int = 400,
                            seconds: float | None = None) -> tuple[int, ...]:
        """A line of perfect play to the end of the game, each move proved on the warm table (cut short after
        ``seconds``, checked between moves)."""
        game = self.game
        line: list[int] = []
        mover = game.to_move(state)
        margin = value
        deadline = None if seconds is None else time.perf_counter() + seconds
        while not game.is_terminal(state) and len(line) < limit:
            if deadline is not None and time.perf_counter() > deadline:
                return tuple(line)
            move = self.best_move(state, margin)
            line.append(move)
            before = game.to_move(state)
            state = game.apply(state, move)
            if not game.is_terminal(state) and game.to_move(state) != before:
                margin = -margin
        outcome = game.outcome(state)
        if outcome is not None and outcome.margin(mover) != value:
            raise AssertionError("the principal variation does not reach the proven value")
        return tuple(line)


class BoardProver:
    """The board solver behind the prover's interface (``prove_within``, as ``ai.kalah_solve.KalahProver``): what
    the Perfect level proves with.  It is the faster of the two on the positions Perfect meets after its opening
    proof (``bench/bench_perfect.py provers``), and it is the solver the opening proofs' leaves are measured
    with (``ai.kalah_proofs``), so a leaf it was shown to prove in a fraction of a second is proved here too."""

    HINT_DEPTH = 8
    """Shallow searches that give the first guess and the move order when no value is known beforehand."""
    POLL_SECONDS = 0.003

    def __init__(self, game: Any, tables: Any | None = None, memory: float = 64.0) -> None:
        if not isinstance(game, Kalah):
            raise ValueError(f"the board prover solves Kalah, not {game.name}")
        self.solver = Solver(game, tables, megabytes=memory)
        self.last_depth = 0
        """The plies of the last proof: to the end of the game, as far as the interface goes."""

    def prove_within(self, state: KalahState, deadline: float | None, cancel: Any | None = None,
                     guess: float | None = None) -> Any:
        """MTD(f) to the end of the game until ``deadline`` (``time.perf_counter``) or ``cancel``: the bounds on
        the value for the side to move proved so far, and a move that secures the lower one (None until a
        lower bound is proved)."""
        from ai.base import CancelToken
        from ai.kalah_solve import Bounds

        token = CancelToken()
        done = threading.Event()

        def watch() -> None:
            while not done.wait(self.POLL_SECONDS):
                if (deadline is not None and time.perf_counter() >= deadline
                        or cancel is not None and cancel.is_cancelled):
                    token.cancel()
                    return

        watcher = None
        if deadline is not None or cancel is not None:
            watcher = threading.Thread(target=watch, name="proof clock", daemon=True)
            watcher.start()
        try:
            proof = self.solver.solve(state, None if guess is None else int(round(guess)), token,
                                      hint_depth=0 if guess is not None else self.HINT_DEPTH)
        finally:
            done.set()
            if watcher is not None:
                watcher.join()
        self.last_depth = 0 if proof.stopped else 250
        return Bounds(float(proof.lower), float(proof.upper), proof.move, proof.nodes, proof.seconds)


def save_checkpoint(path: Path, solver: Solver, info: dict[str, Any]) -> None:
    """The table and the root bounds in ``path``, written atomically and durably (``guarded.binary``: a kill
    never leaves half a checkpoint).  ``info`` names what is proved (game, position) for ``load_checkpoint``
    to check."""
    header = dict(info, format=CHECKPOINT_FORMAT, table_bytes=len(solver.table), nodes=solver.nodes,
                  bounds=[[list(board), low, high, move] for board, (low, high, move) in solver.bounds.items()])
    raw = json.dumps(header).encode()
    binary.write_atomically(path, MAGIC + len(raw).to_bytes(8, "little") + raw, memoryview(solver.table))


class CheckpointError(ValueError):
    """A checkpoint that is not one, or is for another proof: the message says which."""


HEADER_LIMIT = 1 << 24
"""Largest checkpoint header read (the bounds of the positions proved: a few KB)."""


def _head(path: Path, count: int) -> binary.Snapshot:
    """The first ``count`` bytes of the checkpoint through ``guarded.binary``; CheckpointError otherwise."""
    try:
        return binary.read_head(path, count)
    except FileNotFoundError:
        raise CheckpointError(f"{path}: there is no checkpoint there") from None
    except FileProblem as problem:
        raise CheckpointError(f"{path} {problem}") from None


def _parse_header(path: Path, data: bytes | bytearray | memoryview | mmap.mmap) -> dict[str, Any]:
    """The header at the start of ``data`` (the magic, its length, the JSON); CheckpointError when it is not
    a checkpoint, or a damaged one."""
    start = len(MAGIC) + 8
    if bytes(data[:len(MAGIC)]) != MAGIC:
        raise CheckpointError(f"{path} is not a StoneCave Kalah proof checkpoint")
    size = int.from_bytes(data[len(MAGIC):start], "little")
    if len(data) < start or not 0 < size < HEADER_LIMIT:
        raise CheckpointError(f"{path}: a damaged checkpoint header")
    if len(data) < start + size:
        raise CheckpointError(f"{path} is cut short inside its header")
    try:
        header = json.loads(bytes(data[start:start + size]))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise CheckpointError(f"{path}: a damaged checkpoint header (not JSON)") from None
    if not isinstance(header, dict) or header.get("format") != CHECKPOINT_FORMAT:
        raise CheckpointError(f"{path}: a checkpoint of another format")
    header["_offset"] = start + size
    return header


def read_checkpoint_header(path: Path) -> dict[str, Any]:
    """The checkpoint's header (what it proves, its table's size), the table not read; CheckpointError."""
    first = _head(path, len(MAGIC) + 8).data
    assert first is not None
    if bytes(first[:len(MAGIC)]) != MAGIC:
        raise CheckpointError(f"{path} is not a StoneCave Kalah proof checkpoint")
    size = int.from_bytes(first[len(MAGIC):], "little")
    if len(first) < len(MAGIC) + 8 or not 0 < size < HEADER_LIMIT:
        raise CheckpointError(f"{path}: a damaged checkpoint header")
    data = _head(path, len(MAGIC) + 8 + size).data
    assert data is not None
    return _parse_header(path, data)


def _bounds(path: Path, header: dict[str, Any]) -> dict[tuple[int, ...], tuple[int, int, int | None]]:
    """The header's root bounds, each checked: [board (ints), lower, upper, move or null]."""
    bounds: dict[tuple[int, ...], tuple[int, int, int | None]] = {}
    entries = header.get("bounds", [])
    if not isinstance(entries, list):
        raise CheckpointError(f"{path}: a damaged checkpoint header (bounds)")
    for entry in entries:
        if (not isinstance(entry, list) or len(entry) != 4 or not isinstance(entry[0], list)
                or not all(type(x) is int for x in entry[0] + entry[1:3])
                or not (entry[3] is None or type(entry[3]) is int) or entry[1] > entry[2]):
            raise CheckpointError(f"{path}: a damaged checkpoint header (bounds)")
        bounds[tuple(entry[0])] = (entry[1], entry[2], entry[3])
    return bounds


def load_checkpoint(path: Path, game: Kalah, tables: Any | None,
                    expect: dict[str, Any], threads: int = 1) -> tuple[Solver, dict[str, Any]]:
    """A solver whose table and bounds are the checkpoint's; CheckpointError when it is for another proof
    (``expect``'s keys must match) or damaged.  The file is copied into memory whole (``guarded.binary``)
    only when its size is the one its header gives, and its header is read again from that copy, so a file
    changed between the two reads is refused."""
    header = read_checkpoint_header(path)
    for key, value in expect.items():
        if header.get(key) != value:
            raise CheckpointError(f"{path} is a checkpoint of {key} {header.get(key)!r}, not {value!r}")
    size = header.get("table_bytes")
    if type(size) is not int or size < BUCKET_BYTES or size & (size - 1) or size % BUCKET_BYTES:
        raise CheckpointError(f"{path}: a damaged checkpoint header (table size)")
    bounds = _bounds(path, header)
    offset = header["_offset"]
    try:
        snapshot = binary.read_binary(path, offset + size)
    except FileNotFoundError:
        raise CheckpointError(f"{path}: the checkpoint went away while it was read") from None
    except FileProblem as problem:
        raise CheckpointError(f"{path} {problem}") from None
    if snapshot.data is None or snapshot.size != offset + size:
        shape = "cut short" if snapshot.size < offset + size else "too long"
        raise CheckpointError(f"{path} is {shape}: {snapshot.size:,} bytes, not {offset + size:,}")
    if _parse_header(path, snapshot.data) != header:
        raise CheckpointError(f"{path} changed while it was read")
    solver = Solver(game, tables, table=memoryview(snapshot.data)[offset:], threads=threads)
    solver.bounds.update(bounds)
    return solver, header
