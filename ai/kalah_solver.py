"""The fastest exact Kalah solver here: MTD(f) over the compiled null-window tests of ``kalah_solver.pxi``.

A position's value is its stores' difference plus the value of its board (the pits alone), and the board is
what the compiled solver searches: every transposition entry holds bounds on a board's value that stay true
for ever, so the tests of MTD(f) build on each other, a principal variation is read off a warm table, and a
proof stopped part way (Ctrl-C, a node limit, a kill after a checkpoint) resumes where it was: a checkpoint is
the table and the bounds proved so far, written atomically.

``Solver.solve`` runs the tests; ``new_table`` allocates a table (pages zeroed by the system as they are first
touched); ``save_checkpoint`` / ``load_checkpoint`` keep a proof across processes.
"""
from __future__ import annotations

import json
import mmap
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from rules.kalah import Kalah, KalahState

BUCKET_BYTES = 64
"""A probe reads one bucket of four 16-byte entries."""
CHECKPOINT_FORMAT = 1
MAGIC = b"stonecave-kalah-proof\n"


def table_bytes(megabytes: float) -> int:
    """The largest power of two of buckets within ``megabytes`` MB of 2^20 bytes (at least one bucket)."""
    buckets = 1
    while buckets * 2 * BUCKET_BYTES <= megabytes * (1 << 20):
        buckets *= 2
    return buckets * BUCKET_BYTES


def new_table(megabytes: float) -> mmap.mmap:
    """A zeroed table of ``table_bytes(megabytes)`` bytes; the system zeroes each page on first touch, so an
    unused part costs nothing."""
    return mmap.mmap(-1, table_bytes(megabytes))


def default_megabytes(game: Kalah, machine_megabytes: float) -> float:
    """The table a proof of ``game`` gets unless told otherwise: 1,024 MB for 48 seeds (Kalah(6,4)), twice as
    much for every 4 seeds more and half for every 4 fewer, at least 16 MB and at most an eighth of the
    machine's memory and 4,096 MB.  Pages are zeroed as the proof first touches them, so a small game's
    table stays small."""
    seeds = 2 * game.pits * game.seeds
    return max(16.0, min(1024.0 * 2 ** ((seeds - 48) / 4), machine_megabytes / 8, 4096.0))


def planned_table_seeds(game: Kalah) -> int:
    """The endgame tables a proof of ``game`` uses unless told otherwise: every layer up to the largest whose
    layers 0..it fit 32 MB and a third of the game's seeds at most (0..16 seeds for Kalah(6,4): about 3 s to build on two cores)."""
    from ai.tables import auto_seeds

    total = 2 * game.pits * game.seeds
    return min(auto_seeds(game.pits, total - 1, TABLE_BYTES), total // 3)


TABLE_BYTES = 32_000_000
"""The endgame tables' budget of a planned proof (``planned_table_seeds``)."""


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


class Solver:
    """Exact values of one Kalah variant's positions; the table is kept across calls."""

    def __init__(self, game: Kalah, tables: Any | None = None, megabytes: float = 64.0,
                 table: Any | None = None, etc: bool = True, futility: bool = True, ordering: int = 2) -> None:
        from ai.core import module

        core = module()
        if core is None:
            raise RuntimeError("the Kalah solver runs on the compiled core, which is missing")
        self.game = game
        self.table = table if table is not None else new_table(megabytes)
        self.core = core.KalahSolver(game.pits, bool(game.empty_capture), self.table, tables,
                                     etc, futility, ordering)
        self.bounds: dict[tuple[int, ...], tuple[int, int, int | None]] = {}
        """Root bounds proved so far (board value), kept by checkpoints: board -> (lower, upper, move)."""

    @property
    def nodes(self) -> int:
        return int(self.core.nodes)

    def solve(self, state: KalahState, guess: int | None = None, cancel: Any | None = None,
              progress: TestProgress | None = None, checkpoint: Callable[[], None] | None = None,
              checkpoint_nodes: int = 0, node_limit: int = 0, hint_depth: int = 0,
              checkpoint_seconds: float = 0.0) -> Proof:
        """MTD(f) to the exact value of ``state`` (not over).  ``guess``: the first test's value (default the
        stores' difference, or the middle of what is already known).  ``cancel``: a CancelToken that stops it; ``node_limit``: stop after that many nodes in all (tests use it); either way
        the Proof has ``stopped`` and the bounds so far.  ``checkpoint()`` is called every ``checkpoint_nodes``
        nodes (the running test is stopped for it and started again: its proved part is in the table) and
        when the proof stops early; ``checkpoint_seconds`` does the same by the clock.  ``hint_depth``: shallow searches of 1..that many plies first, which leave
        their best moves in the table for the tests (and give the first guess)."""
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
                               node_limit, hint_depth)
        finally:
            ticking.set()

    def _solve(self, state: KalahState, board: tuple[int, ...], stores: int, guess: int | None, cancel: Any,
               flag: bytearray, progress: TestProgress | None, checkpoint: Callable[[], None] | None,
               checkpoint_nodes: int, node_limit: int, hint_depth: int) -> Proof:
        seeds = sum(board)
        lower, upper, move = self.bounds.get(board, (-seeds, seeds, None))
        started, first_nodes = time.perf_counter(), self.nodes
        tests: list[Test] = []
        g = guess - stores if guess is not None else max(lower, min(upper, 0))
        stopped = False
        if hint_depth and board not in self.bounds:
            for depth in range(1, hint_depth + 1):
                hinted, aborted = self.core.hint(board, depth, flag, node_limit)
                if aborted:
                    break
                if guess is None:
                    g = hinted
        while lower < upper:
            g = max(lower, min(upper, g))
            gamma = g + 1 if g == lower else g
            limit = 0
            if checkpoint_nodes:
                limit = self.nodes + checkpoint_nodes
            if node_limit:
                limit = min(limit, node_limit) if limit else node_limit
            test_started, test_nodes = time.perf_counter(), self.nodes
            result, cut, aborted = self.core.test(board, gamma, flag, limit)
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


def save_checkpoint(path: Path, solver: Solver, info: dict[str, Any]) -> None:
    """The table and the root bounds in ``path`` (written beside it, then renamed: a kill never leaves half
    a checkpoint).  ``info`` names what is proved (game, position) for ``load_checkpoint`` to check."""
    header = dict(info, format=CHECKPOINT_FORMAT, table_bytes=len(solver.table), nodes=solver.nodes,
                  bounds=[[list(board), low, high, move] for board, (low, high, move) in solver.bounds.items()])
    raw = json.dumps(header).encode()
    temporary = path.with_name(path.name + ".part")
    with open(temporary, "wb") as out:
        out.write(MAGIC + len(raw).to_bytes(8, "little") + raw)
        out.write(memoryview(solver.table))
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


class CheckpointError(ValueError):
    """A checkpoint that is not one, or is for another proof: the message says which."""


def read_checkpoint_header(path: Path) -> dict[str, Any]:
    """The checkpoint's header (what it proves, its table's size), the table not read; CheckpointError."""
    try:
        with open(path, "rb") as source:
            magic = source.read(len(MAGIC))
            if magic != MAGIC:
                raise CheckpointError(f"{path} is not a StoneCave Kalah proof checkpoint")
            size = int.from_bytes(source.read(8), "little")
            if not 0 < size < 1 << 24:
                raise CheckpointError(f"{path}: a damaged checkpoint header")
            header = json.loads(source.read(size))
    except (OSError, ValueError, UnicodeDecodeError) as error:
        if isinstance(error, CheckpointError):
            raise
        raise CheckpointError(f"{path}: cannot read the checkpoint ({error})") from None
    if not isinstance(header, dict) or header.get("format") != CHECKPOINT_FORMAT:
        raise CheckpointError(f"{path}: a checkpoint of another format")
    header["_offset"] = len(MAGIC) + 8 + size
    return header


def load_checkpoint(path: Path, game: Kalah, tables: Any | None, expect: dict[str, Any]) -> tuple[Solver, dict[str, Any]]:
    """A solver whose table and bounds are the checkpoint's; CheckpointError when it is for another proof
    (``expect``'s keys must match) or damaged."""
    header = read_checkpoint_header(path)
    for key, value in expect.items():
        if header.get(key) != value:
            raise CheckpointError(f"{path} is a checkpoint of {key} {header.get(key)!r}, not {value!r}")
    size = header.get("table_bytes")
    if not isinstance(size, int) or size < BUCKET_BYTES or size & (size - 1):
        raise CheckpointError(f"{path}: a damaged checkpoint header")
    if os.path.getsize(path) != header["_offset"] + size:
        raise CheckpointError(f"{path} is cut short: {os.path.getsize(path):,} bytes, not {header['_offset'] + size:,}")
    table = mmap.mmap(-1, size)
    with open(path, "rb") as source:
        source.seek(header["_offset"])
        view = memoryview(table)
        done = 0
        while done < size:
            got = source.readinto(view[done:done + (64 << 20)])
            if not got:
                raise CheckpointError(f"{path} is cut short")
            done += got
        view.release()
    solver = Solver(game, tables, table=table)
    for board, low, high, move in header.get("bounds", []):
        solver.bounds[tuple(board)] = (low, high, move)
    return solver, header
