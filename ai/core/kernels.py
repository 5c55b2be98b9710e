"""The compiled kernels behind the ``ai.fast`` kernel protocol (``ai.fast.Kernel``), one class per game.

Each wraps one kernel of the extension (``ai.core._core``): positions are ``bytes`` (the C position, seen
from the side to move), which are hashable, so the protocol's ``key`` is the position itself.  Besides the
protocol's ``encode``, ``children``, ``evaluate``, ``best_leaf`` and ``key``, a compiled kernel offers
``new_table(megabytes)`` (a transposition table in C memory) and ``make_run(table, budget, poll)``, the
compiled search that ``ai.search.PVSEngine`` drives one iteration at a time.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ai.core as core
from ai.evaluators import Evaluator, ZeroEvaluator
from ai.evaluators.sowing import SowingEvaluator
from ai.fast import best_child
from rules import Game, Move, State

if TYPE_CHECKING:
    from rules.hus import Hus, HusState
    from rules.kalah import Kalah, KalahState
    from rules.magnetic_cave import CaveState, MagneticCave
    from rules.oware import Oware, OwareState


def cancel_flag(budget: Any) -> bytearray | None:
    """The C-readable flag of the budget's cancel token (``ai.base.CancelToken.flag``), if any."""
    token = getattr(budget, "cancel", None)
    return None if token is None else token.flag


def deadline_of(budget: Any) -> float | None:
    """The earlier of the budget's deadline and its cancel token's (``time.perf_counter`` instants)."""
    if budget is None:
        return None
    deadlines = [d for d in (budget.deadline, getattr(budget.cancel, "deadline", None)) if d is not None]
    return min(deadlines) if deadlines else None


class CompiledKernel:
    """What every compiled kernel shares: the protocol's plain methods and the search hooks."""

    compiled = True
    margins = False

    def __init__(self, game: Game, evaluator: Evaluator, margins: bool = False) -> None:
        self.game = game
        self.evaluator = evaluator
        self.margins = margins
        self.core: Any = None

    def key(self, position: bytes) -> bytes:
        return position

    def children(self, position: bytes) -> list[tuple]:
        return self.core.children(position)

    def evaluate(self, position: bytes) -> float:
        return self.core.evaluate(position)

    def best_leaf(self, position: bytes, beta: float) -> tuple[float, Move | None, int]:
        return best_child(self, position, beta)

    def new_table(self, megabytes: float) -> Any:
        return core.require().Table(megabytes)

    def history(self, state: State) -> list[int] | None:
        """Keys of the positions before ``state`` that the rules look back on (none for most games)."""
        return None

    def make_run(self, table: Any, budget: Any, poll: int, state: State | None = None) -> "CompiledRun":
        """The compiled search of one root (``poll`` is C's own: the clock is read every few hundred nodes)."""
        core.runs_started += 1
        run = core.require().Run(
            self.core, table,
            deadline=deadline_of(budget),
            max_nodes=None if budget is None else budget.max_nodes,
            cancel_flag=cancel_flag(budget),
            history=None if state is None else self.history(state),
            deeper=getattr(budget, "deeper_cutoffs", False),
        )
        return CompiledRun(self, run)


class CompiledRun:
    """``ai.search._Run``'s interface over a compiled ``Run``: the iterations run in C without the GIL."""

    __slots__ = ("kernel", "run")

    def __init__(self, kernel: CompiledKernel, run: Any) -> None:
        self.kernel = kernel
        self.run = run

    def root(self, root: bytes, depth: int, alpha: float = -float("inf"),
             beta: float = float("inf")) -> tuple[float, int, bool]:
        """(score, best move, resolved); every compiled kernel's move is an int (a pit or a cell)."""
        return self.run.root(root, depth, alpha, beta)

    @property
    def nodes(self) -> int:
        return self.run.nodes

    @property
    def partial_move(self) -> int | None:
        return self.run.partial_move

    @property
    def partial_score(self) -> float:
        return self.run.partial_score

    @property
    def partial_depth(self) -> int:
        return self.run.partial_depth

    def principal_variation(self, root: bytes, move: Move, depth: int) -> tuple:
        """The best line, read from the table's moves (at most ``depth`` moves, stopping at a repetition)."""
        line, position, seen = [move], root, {root}
        while len(line) < depth:
            child = next((c[1] for c in self.kernel.children(position) if c[0] == line[-1]), None)
            if child is None or child in seen:
                break
            following = self.run.table_move(child)
            if following is None:
                break
            seen.add(child)
            line.append(following)
            position = child
        return tuple(line)


class CompiledKalahKernel(CompiledKernel):
    """Kalah (any pits and seeds, both capture rules) with a sowing or zero evaluator."""

    @staticmethod
    def supports(game: Game, evaluator: Evaluator, margins: bool = False) -> bool:
        return game.name == "kalah" and isinstance(evaluator, (SowingEvaluator, ZeroEvaluator))

    game: Kalah

    def __init__(self, game: Kalah, evaluator: Evaluator, margins: bool = False) -> None:
        super().__init__(game, evaluator, margins)
        sowing = evaluator if isinstance(evaluator, SowingEvaluator) else None
        self.core = core.require().KalahCore(
            game.pits, game.empty_capture, margins,
            0.0 if sowing is None else sowing.side, 0.0 if sowing is None else sowing.mobility, sowing is None,
            0.0 if sowing is None else sowing.extra_turns, 0.0 if sowing is None else sowing.endgame,
        )

    def accepts(self, state: KalahState) -> bool:
        return max(self.game.key(state)) <= 65535

    def encode(self, state: KalahState) -> bytes:
        return self.core.pack(self.game.key(state))

    def decode(self, position: bytes, to_move: int = 0) -> KalahState:
        from rules.kalah import KalahState

        fields = self.core.unpack(position)
        n1 = self.game.pits + 1
        ring = fields if to_move == 0 else fields[n1:] + fields[:n1]
        return KalahState(ring, to_move)


OWARE_ZERO, OWARE_SOWING, OWARE_OWARE = 0, 1, 2
"""The evaluator kinds of ``_core.OwareCore`` (oware.pxi)."""


class CompiledOwareKernel(CompiledKernel):
    """Oware abapa (every grand slam rule, any seeds, limit, repetition and sowing rule) with an
    Oware, store-only or zero evaluator.  A position is the board seen from the side to move and the moves
    since the last capture; the boards seen since that capture reach the search through ``history``."""

    @staticmethod
    def supports(game: Game, evaluator: Evaluator, margins: bool = False) -> bool:
        from ai.evaluators.oware import OwareEvaluator

        return game.name == "oware" and not margins and isinstance(
            evaluator, (OwareEvaluator, SowingEvaluator, ZeroEvaluator))

    game: Oware

    def __init__(self, game: Oware, evaluator: Evaluator, margins: bool = False) -> None:
        from ai.evaluators.oware import OwareEvaluator

        super().__init__(game, evaluator, margins)
        banked = (0.0, 0, False)
        if isinstance(evaluator, OwareEvaluator):
            kind, weights = OWARE_OWARE, (evaluator.side, evaluator.mobility, evaluator.vulnerable)
            banked = (evaluator.banked, evaluator.banked_seeds, evaluator.table_leaves)
        elif isinstance(evaluator, SowingEvaluator):
            kind, weights = OWARE_SOWING, (evaluator.side, evaluator.mobility, 0.0)
        else:
            kind, weights = OWARE_ZERO, (0.0, 0.0, 0.0)
        self.core = core.require().OwareCore(
            game.seeds, game.skip_start, game.grand_slam == "capture", game.no_capture_limit, game.repetition,
            kind, *weights, game.grand_slam == "forbidden", *banked,
        )

    def accepts(self, state: OwareState) -> bool:
        return state.since_capture <= 65535 or not self.game.no_capture_limit

    def _pack(self, pits: tuple[int, ...], stores: tuple[int, int], to_move: int, counter: int) -> bytes:
        own, other = (pits[:6], pits[6:]) if to_move == 0 else (pits[6:], pits[:6])
        return self.core.pack(own, stores[to_move], other, stores[1 - to_move], min(counter, 65535))

    def encode(self, state: OwareState) -> bytes:
        return self._pack(state.pits, state.stores, state.to_move, state.since_capture)

    def decode(self, position: bytes, to_move: int = 0, seen: frozenset[int] = frozenset()) -> OwareState:
        """The rules state of a position given who is to move and the boards seen (the position has neither)."""
        from rules.oware import OwareState

        own, own_store, other, other_store, counter = self.core.unpack(position)
        if to_move == 0:
            return OwareState(own + other, (own_store, other_store), 0, counter, seen)
        return OwareState(other + own, (other_store, own_store), 1, counter, seen)

    def children(self, position: bytes, history: list[int] | None = None) -> list[tuple]:
        """The protocol's children; ``history`` (from ``history(state)``) lets a repetition of a board seen
        before ``position`` end the game as the rules say."""
        return self.core.children(position, history)

    def history(self, state: OwareState) -> list[int]:  # type: ignore[override]  # the Oware kernel gets Oware states
        """The keys of the boards ``state`` has seen since the last capture, laid out as the search's line.

        The rules keep those boards as a set, without who was to move or their counters; any board equal to
        one of them repeats it, whoever moves.  So each is written in the frame of the side to move, at an
        even distance from the root (a key that never matches fills the odd places), with the counter the
        kernel's repetition test expects at that distance (see ``oware_repeats`` in oware.pxi).
        """
        boards = sorted(state.seen)
        step, counter = self.core.counter_step, state.since_capture
        keys: list[int] = []
        for index, board in enumerate(boards):
            distance = 2 * (len(boards) - index)
            pits = tuple(board.to_bytes(12, "little"))
            plain = self.core.key(self._pack(pits, state.stores, state.to_move, 0))
            keys += [(plain + (counter - distance) * step) % (1 << 64), 0]
        return keys


class CompiledHusKernel(CompiledKernel):
    """Hus (any lap and turn limit) with a Hus or zero evaluator; positions of up to 255 seeds."""

    @staticmethod
    def supports(game: Game, evaluator: Evaluator, margins: bool = False) -> bool:
        from ai.evaluators.hus import HusEvaluator

        return game.name == "hus" and isinstance(evaluator, (HusEvaluator, ZeroEvaluator))

    game: Hus

    def __init__(self, game: Hus, evaluator: Evaluator, margins: bool = False) -> None:
        from ai.evaluators.hus import HusEvaluator

        super().__init__(game, evaluator, margins)
        hus = evaluator if isinstance(evaluator, HusEvaluator) else None
        weights = (0.0, 0.0, 0.0) if hus is None else (hus.mobility, hus.exposure, hus.inner)
        self.core = core.require().HusCore(game.lap_limit, game.turn_limit, margins, hus is None, *weights)

    def accepts(self, state: HusState) -> bool:
        return sum(state.pits) <= 255

    def encode(self, state: HusState) -> bytes:
        player = state.to_move
        own, other = state.pits[32 * player: 32 * player + 32], state.pits[32 - 32 * player: 64 - 32 * player]
        return self.core.pack(own, other, 2 * state.turn + player)

    def decode(self, position: bytes, to_move: int | None = None) -> HusState:
        """The rules state of a position (the ply says who is to move)."""
        from rules.hus import HusState

        own, other, ply = self.core.unpack(position)
        player = ply & 1
        return HusState(own + other if player == 0 else other + own, player, ply >> 1)


class CompiledCaveKernel(CompiledKernel):
    """Magnetic Cave with the threat, simple (``windows``) or zero evaluator.

    ``forced`` (by default for the threat evaluator, as ``ai.fast.kernel_for`` picks ``CaveKernel`` for it)
    gives ``ai.fast.magnetic_cave.CaveKernel``'s children, forced moves played at once, and its endgame
    solver in front of the search; otherwise the rules' children (``ai.fast.GameKernel``).  Positions are the
    16 bytes of CaveKernel's int position ``mine | theirs << 64`` (``int.from_bytes(position, "little")``).
    """

    @staticmethod
    def supports(game: Game, evaluator: Evaluator, margins: bool = False) -> bool:
        from ai.evaluators.magnetic_cave import ThreatEvaluator, WindowEvaluator

        return game.name == "magnetic-cave" and isinstance(evaluator, (ThreatEvaluator, WindowEvaluator, ZeroEvaluator))

    game: MagneticCave

    def __init__(self, game: MagneticCave, evaluator: Evaluator, margins: bool = False,
                 forced: bool | None = None) -> None:
        from ai.evaluators import WIN
        from ai.evaluators import magnetic_cave as cave
        from ai.fast import magnetic_cave as fast_cave

        super().__init__(game, evaluator, margins)
        threat = isinstance(evaluator, cave.ThreatEvaluator)
        self.threat = threat
        self.forced = threat if forced is None else forced
        self.win = 1.0 if margins else WIN + 1.0
        """The score of a won game (``CaveKernel.win``, ``final_score`` or ``final_margin`` of a five)."""
        self.loss = -self.win
        kind = 0 if threat else 1 if isinstance(evaluator, cave.WindowEvaluator) else 2
        self.core = core.require().CaveCore(
            self.forced, kind, self.win, fast_cave.ATTACK, fast_cave.DEFEND, cave.SIMPLE_VALUE,
            cave.THREAT_NEXT, cave.THREAT_LATER, cave.THREAT_BLOCK, cave.WIN_NEXT, cave.LOSS_NEXT,
        )
        self.root: tuple[int, int] | None = None
        self.root_position: bytes | None = None
        self._root_moves: frozenset[int] | None = None
        self.encode(game.initial_state())

    # -- positions --------------------------------------------------------------------------------------------
    def encode(self, state: CaveState) -> bytes:
        """The position of ``state``, which also becomes the root: the evaluation skips the windows dead there
        and plays for its side to move (``ai.evaluators.evaluator_for``), as ``CaveKernel.encode``."""
        from ai.evaluators import evaluator_for
        from ai.evaluators import magnetic_cave as cave

        if (state.black, state.white) != self.root:
            self.root = (state.black, state.white)
            playing = evaluator_for(self.evaluator, self.game, state)
            tables = getattr(playing, "tables", None)
            self.core.set_root(
                state.black, state.white, None if tables is None else tables(0), None if tables is None else tables(1)
            )
        self.core.set_zugzwang(cave.ZUGZWANG)  # read at each search, as the Python evaluation reads it at each call
        self.core.set_vcf(*cave.vcf_settings(self.evaluator))  # the leaves' threat search (ai.cave_threats)
        mine, theirs = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
        self.root_position = self.core.pack(mine, theirs)
        self.root_moves = None
        return self.root_position

    def decode(self, position: bytes, to_move: int = 0) -> CaveState:
        """The rules state of a position, given who is to move (for tests and tools)."""
        from rules.magnetic_cave import CaveState

        mine, theirs = self.core.unpack(position)
        return CaveState(mine, theirs, 0) if to_move == 0 else CaveState(theirs, mine, 1)

    def accepts(self, state: CaveState) -> bool:
        return True

    @property
    def root_moves(self) -> frozenset[int] | None:
        """The root's moves the search may choose from (None: all), as ``CaveKernel.root_moves``."""
        return self._root_moves

    @root_moves.setter
    def root_moves(self, moves: frozenset[int] | None) -> None:
        self._root_moves = moves
        if self.root_position is not None:
            self.core.set_root_moves(self.root_position, moves)

    def perft(self, position: bytes, depth: int) -> int:
        """Positions ``depth`` plies ahead by the rules' plain moves (no forced-move pruning)."""
        return self.core.perft(position, depth)

    # -- search -----------------------------------------------------------------------------------------------
    def make_run(self, table: Any, budget: Any, poll: int, state: State | None = None) -> Any:
        """The compiled search; with forced children and the threat evaluator, behind the exact endgame solver
        (``ai.cave_endgame.EndgameRun``) as ``CaveKernel.make_run``."""
        core.runs_started += 1
        run = CaveCompiledRun(self, core.require().CaveRun(
            self.core, table,
            deadline=deadline_of(budget),
            max_nodes=None if budget is None else budget.max_nodes,
            cancel_flag=cancel_flag(budget),
            deeper=getattr(budget, "deeper_cutoffs", False),
        ))
        if not (self.forced and self.threat):
            return run
        return CompiledEndgameRun(self, run, budget)


class CaveCompiledRun(CompiledRun):
    """The compiled cave search, whose node count the endgame solver in front adds its own nodes to."""

    __slots__ = ()

    @property
    def nodes(self) -> int:
        return self.run.nodes

    @nodes.setter
    def nodes(self, value: int) -> None:
        self.run.nodes = value


class _IntPositions:
    """A compiled cave kernel seen with ``CaveKernel``'s int positions (what ``EndgameRun`` reads)."""

    def __init__(self, kernel: CompiledCaveKernel) -> None:
        self.kernel = kernel
        self.win = kernel.win
        self.threat_search = bool(getattr(kernel.evaluator, "root_vcf", False))
        """Whether ``EndgameRun`` runs the threat-space search at the root (``ThreatEvaluator.root_vcf``)."""

    def children(self, position: int) -> list[tuple]:
        return [
            (move, None if child is None else int.from_bytes(child, "little"), same, final)
            for move, child, same, final in self.kernel.children(position.to_bytes(16, "little"))
        ]

    def vcf(self, mine: int, theirs: int, fours: int, nodes: int) -> bool:
        """A win by continuous fours for the mover (``ai.cave_threats.vcf_win``, compiled)."""
        return self.kernel.core.vcf(mine, theirs, fours, nodes)

    @property
    def root_moves(self) -> frozenset[int] | None:
        return self.kernel.root_moves

    @root_moves.setter
    def root_moves(self, moves: frozenset[int] | None) -> None:
        self.kernel.root_moves = moves


class CompiledEndgameSolver:
    """``ai.cave_endgame.EndgameSolver``'s interface over the compiled solver (``ai/core/cave_endgame.pxi``):
    the same values, found without the GIL (the move named may differ where several keep the value: the
    compiled solver orders quiet moves by its history of cut-offs); the clock and the cancel flag are read in
    C (``deadline``, ``cancel_flag``), and ``poll`` (a Python callback) is called at the start of each
    ``solve``."""

    def __init__(self, poll: Any = None, max_nodes: int | None = None, table: Any = None) -> None:
        self.core = core.require().EndgameCore(table)
        self.poll = poll
        self.max_nodes = max_nodes
        self.deadline: float | None = None
        """A ``time.perf_counter`` instant at which a solve stops (SearchAborted), or None."""
        self.cancel_flag: bytearray | None = None

    @property
    def nodes(self) -> int:
        return self.core.nodes

    def solve(self, mine: int, theirs: int, alpha: int = -1, beta: int = 1,
              max_nodes: int | None = None) -> tuple[int, int | None]:
        limit = max_nodes if max_nodes is not None else self.max_nodes
        if self.poll is not None:  # every call polls, as the Python solver's
            self.poll()
        return self.core.solve(mine, theirs, alpha, beta, limit, self.deadline, self.cancel_flag)

    def value(self, mine: int, theirs: int, max_nodes: int | None = None) -> int:
        return self.solve(mine, theirs, max_nodes=max_nodes)[0]

    def winning_move(self, mine: int, theirs: int, max_nodes: int | None = None) -> int | None:
        value, move = self.solve(mine, theirs, 0, 1, max_nodes=max_nodes)
        return move if value >= 1 else None


def _endgame_run_class() -> type:
    import time

    import ai.cave_endgame as endgame
    from ai.cave_endgame import EndgameRun

    class CompiledEndgameRun(EndgameRun):
        """``EndgameRun`` with the compiled solver in front of the compiled search (the solver reads the root as
        CaveKernel's int); the solver's share of the clock and the cancel flag are handed to C."""

        def __init__(self, kernel: CompiledCaveKernel, inner: Any, budget: Any) -> None:
            super().__init__(_IntPositions(kernel), inner, budget)
            self.compiled_solver = CompiledEndgameSolver()
            self.solver = self.compiled_solver

        def _solve(self, root: bytes | int):  # bytes from the compiled run, an int from EndgameRun itself
            budget = self.budget
            seconds = budget.seconds
            # EndgameRun._solve's own stop, read again here for C: at most SOLVE_SHARE of the time left
            share = endgame.SOLVE_SHARE
            stop = None if seconds is None else time.perf_counter() + share * max(0.0, seconds - budget.elapsed())
            token_deadline = getattr(budget.cancel, "deadline", None)
            deadlines = [d for d in (stop, token_deadline) if d is not None]
            self.compiled_solver.deadline = min(deadlines) if deadlines else None
            self.compiled_solver.cancel_flag = cancel_flag(budget)
            return super()._solve(int.from_bytes(root, "little") if isinstance(root, bytes) else root)

    return CompiledEndgameRun


def CompiledEndgameRun(kernel: CompiledCaveKernel, inner: Any, budget: Any) -> Any:
    """The compiled cave search behind the compiled endgame solver (``ai.cave_endgame`` imported on first use)."""
    global _COMPILED_ENDGAME_RUN
    if _COMPILED_ENDGAME_RUN is None:
        _COMPILED_ENDGAME_RUN = _endgame_run_class()
    return _COMPILED_ENDGAME_RUN(kernel, inner, budget)


_COMPILED_ENDGAME_RUN: type | None = None
