"""Search kernels: what a tree search needs of a game, in the cheapest form the game allows.

A kernel turns a rules state into a *position* that is its own transposition-table key, and answers three
questions about a position: its children, its heuristic score, and nothing else (finished games never become
positions: a child that ends the game comes back with its exact score instead).

- ``GameKernel`` works for every game through the rules protocol (``legal_moves``, ``apply``, ``outcome``)
  and an evaluator.  Its positions are the rules states themselves, keyed by ``game.key``.
- Game-specific kernels (``ai.fast.kalah``) pack a position into one int seen from the side to move and sow
  with a few integer operations; each is cross-checked against its rules module by ``tests/ai/test_ai_fast.py``.

``kernel_for(game, evaluator, margins)`` picks the fastest kernel that computes exactly what ``GameKernel``
would (the same children in the same order, the same scores).
"""
from __future__ import annotations

import importlib
from typing import Any, Hashable, Protocol, TypeVar

from ai import games
from ai.evaluators import Evaluator, evaluator_for, final_margin, final_score
from rules import Game, Move, State

Position = Hashable
Child = tuple  # (move, child position or None, same_mover: bool, final score or None)
P = TypeVar("P")
"""One kernel's position type: an int (the packed Python kernels), bytes (the compiled ones), a state."""
P_contra = TypeVar("P_contra", contravariant=True)


class Expands(Protocol[P_contra]):
    """What a depth-1 search needs of a kernel whose positions are of type ``P_contra``."""

    def children(self, position: P_contra) -> list[Child]: ...

    def evaluate(self, position: P_contra) -> float: ...


class Kernel(Protocol):
    """The interface the adversary searches use."""

    game: Game

    def encode(self, state: State) -> Position:
        """The position of a non-terminal rules state."""

    def children(self, position: Position) -> list[Child]:
        """``(move, child, same_mover, final)`` for each legal move, in the rules' move order.

        ``same_mover`` is True when the mover moves again (Kalah's extra turn): the child's score is then
        not negated.  When the move ends the game, ``child`` is None and ``final`` is its exact score from the
        mover's point of view; otherwise ``final`` is None.
        """

    def evaluate(self, position: Position) -> float:
        """The heuristic score of a non-terminal position, from the side to move."""

    def best_leaf(self, position: Position, beta: float) -> tuple[float, Move | None, int]:
        """A depth-1 search: (best child score, its move, children evaluated), stopping at ``beta``."""

    def key(self, position: Position) -> Hashable:
        """The transposition-table key of a position."""


class Run(Protocol):
    """One search of one root, one iteration per ``root`` call: what ``ai.search.PVSEngine`` drives.

    ``ai.search._Run`` is the Python one (over any ``Kernel``); a compiled kernel's ``make_run`` gives the C
    one (``ai.core.kernels.CompiledRun``).  Both return the same values at a fixed depth.
    """

    nodes: int
    partial_move: Move | None
    """The best root move proven so far in the iteration under way (played if the clock cuts it short)."""
    partial_score: float
    partial_depth: int

    def root(self, root: Position, depth: int) -> tuple[float, Move, bool]:
        """Search ``root`` to ``depth``: (score, best move, resolved), or raise ``SearchAborted``."""

    def principal_variation(self, root: Position, move: Move, depth: int) -> tuple:
        """The best line from ``root`` starting with ``move``, as far as the table knows it."""


class CompiledKernelProtocol(Kernel, Protocol):
    """A kernel on the compiled core: a table in C memory and a search run in C without the GIL."""

    compiled: bool

    def new_table(self, megabytes: float) -> Any:
        """A transposition table of ``megabytes`` (``ai.core._core.Table``)."""

    def make_run(self, table: Any, budget: Any, poll: int, state: State | None = None) -> Run:
        """The search of one root; ``state`` gives the rules' history the kernel looks back on (Oware)."""


class GameKernel:
    """The kernel of any two-player game, through the rules protocol and an evaluator.

    With ``margins`` true, finished games score their plain final margin (the exact solver's measure);
    otherwise ``final_score`` (a win above every heuristic score).
    """

    def __init__(self, game: Game, evaluator: Evaluator, margins: bool = False) -> None:
        self.game = game
        self.base_evaluator = evaluator
        self.evaluator = evaluator
        """The evaluator of the current search: ``evaluator_for`` the last root encoded."""
        self.margins = margins
        self._final = final_margin if margins else final_score

    def encode(self, state: State) -> State:
        """The position of ``state``, which also becomes the root the evaluation plays for."""
        self.evaluator = evaluator_for(self.base_evaluator, self.game, state)
        return state

    def children(self, position: State) -> list[Child]:
        game = self.game
        mover = game.to_move(position)
        result: list[Child] = []
        for move in game.legal_moves(position):
            child = game.apply(position, move)
            if game.is_terminal(child):
                result.append((move, None, False, self._final(game, child, mover)))
            else:
                result.append((move, child, game.to_move(child) == mover, None))
        return result

    def evaluate(self, position: State) -> float:
        return self.evaluator.evaluate(self.game, position)

    def best_leaf(self, position: State, beta: float) -> tuple[float, Move | None, int]:
        return best_child(self, position, beta)

    def key(self, position: State) -> Hashable:
        return self.game.key(position)


def best_child(kernel: Expands[P], position: P, beta: float) -> tuple[float, Move | None, int]:
    """The best child of a depth-1 node by the kernel's evaluation, stopping at the first that reaches
    ``beta``: (best score, best move, children evaluated).  ``best_leaf`` of a kernel with no faster one."""
    best, best_move, leaves = -float("inf"), None, 0
    for move, child, same, final in kernel.children(position):
        if final is None:
            leaves += 1
            value = kernel.evaluate(child) if same else -kernel.evaluate(child)
        else:
            value = final
        if value > best:
            best, best_move = value, move
            if value >= beta:
                break
    return best, best_move, leaves


def register_kernel(game_name: str, path: str, first: bool = True) -> None:
    """Add a kernel class (``module:class``) for ``game_name``, tried before the others when ``first``.

    The game's kernels are part of its registration, ``ai/games.py`` ``GameSupport.kernels``: each is built as
    ``cls(game, evaluator, margins)`` after ``cls.supports(game, evaluator, margins)`` said yes."""
    games.register_kernel(game_name, path, first)


def _kernel_class(path: str) -> Any:
    module_name, _, name = path.partition(":")
    return getattr(importlib.import_module(module_name), name)


def kernel_for(
    game: Game, evaluator: Evaluator, margins: bool = False, fast: bool = True, compiled: bool | None = None
) -> Any:
    """The fastest exact kernel for ``game`` and ``evaluator`` (``GameKernel`` when no fast one applies).

    ``compiled``: None takes a compiled kernel when the compiled core is loaded (``ai.core.status()``);
    False keeps to the pure-Python kernels; True to the compiled ones (the general kernel when none fits).
    """
    if fast:
        for path in games.support(game).kernels:
            is_compiled = path.startswith("ai.core.")
            if compiled is not None and compiled != is_compiled:
                continue
            if is_compiled:
                import ai.core

                if ai.core.module() is None:
                    continue
            cls = _kernel_class(path)
            if cls.supports(game, evaluator, margins):
                return cls(game, evaluator, margins)
    return GameKernel(game, evaluator, margins)


def kernel_holding(kernel: Any, state: State) -> Any:
    """``kernel`` when it can hold ``state``, else the general kernel with the same evaluator and scoring.

    A packed kernel is sized for its variant (Kalah's fields hold exactly the variant's seeds, Hus's at most
    254 a pit); a position from elsewhere (a hand-edited save, a test) may not fit, and such a kernel says so
    with ``accepts``.  The rules protocol holds any legal position, so the search stays exact, only slower.
    """
    accepts = getattr(kernel, "accepts", None)
    if accepts is None or accepts(state):
        return kernel
    return GameKernel(kernel.game, kernel.evaluator, getattr(kernel, "margins", False))
