"""The game protocol every StoneCave game implements.

A game is a stateless *rules object* that carries its variant parameters and knows how to start, read, move
and end a position.  Positions are frozen, hashable values, so they can be dictionary keys, cross threads
without copying, and make undo a list of past states.

The protocol fits two-player zero-sum games (Kalah, Oware, Hus, Magnetic Cave) and one-player puzzles
(Solitaire Mancala) alike: a puzzle has ``num_players == 1`` and its ``to_move`` is always 0.
"""
from __future__ import annotations

import enum
import random
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Hashable, TypeVar

if TYPE_CHECKING:
    from rules.events import MoveEvents

Player = int
"""0 is South / Black / the solitaire player and moves first; 1 is North / White."""

StateT = TypeVar("StateT", bound=Hashable)
"""A game's position type (``KalahState``, ``CaveState``...): ``Game[StateT, MoveT]`` is typed by it."""

MoveT = TypeVar("MoveT", bound=Hashable)
"""A game's move type: ``int`` (a pit or cell index) for most games, ``Round`` for Solitaire Mancala."""

Move = Hashable
"""A move of a game not known statically (code written for every game, such as the engines); a rules class
names its own type through ``Game[StateT, MoveT]``."""

State = Hashable
"""A position of a game not known statically; each game module defines its own frozen state class."""


class RulesError(ValueError):
    """Base class of the errors the rules raise about bad input."""


class IllegalMoveError(RulesError):
    """A move that is well formed but not legal in this position; the message says why."""


class NotationError(RulesError):
    """Text that is not a valid position or move in the game's notation; the message says what was expected."""


class PositionError(RulesError):
    """A well-formed position this variant can never reach: seeds that are not the variant's, a count out of
    range, a history longer than the game allows.  Raised by ``Game.check_position`` on what a file says."""


class ParameterError(RulesError):
    """An unknown game, an unknown parameter or a parameter value out of range."""


MOST_MOVES = 1_000_000
"""The most moves a game of a variant with no tighter proven bound may last (``Game.max_moves``)."""

WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")
"""How every StoneCave console, notation and save reads a number: ASCII digits 0-9 only, no sign, no spaces, at
most nine of them.  ``٣``, ``３``, ``²``, ``+3``, ``-0`` and a line of 5,000 digits are not numbers."""


def clip(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (with ``...``), for quoting a player's input in a message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_whole_number(text: str) -> int | None:
    """``text`` (spaces around ignored) as a whole number under the one rule of ``WHOLE_NUMBER``, or None."""
    stripped = text.strip()
    return int(stripped) if WHOLE_NUMBER.fullmatch(stripped) else None


class Reason(enum.Enum):
    """Why a game ended.  Shared by all games so tools can tabulate results across games."""

    SIDE_EMPTY = "a side ran out of seeds"
    MAJORITY = "a player captured more than half the seeds"
    CANNOT_FEED = "the opponent could not be fed"
    REPETITION = "a position repeated"
    NO_CAPTURE_LIMIT = "too many moves without a capture"
    NO_LEGAL_MOVE = "the player to move had no legal move"
    TURN_LIMIT = "the turn limit was reached"
    FIVE_IN_A_ROW = "five in a row"
    BOARD_FULL = "the board is full"
    BOARD_CLEARED = "every hole was emptied"
    LAST_STONE_IN_EMPTY_HOLE = "the last stone fell into an empty hole"
    NO_MOVE_LEFT = "no move is left"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: the winner (None for a draw or a lost puzzle), why, and final scores.

    ``scores`` has one entry per player (two-player games) or a single entry for a puzzle (stones stored).
    For a puzzle, ``winner`` is 0 when the puzzle was solved and None otherwise.
    """

    winner: Player | None
    reason: Reason
    scores: tuple[int, ...]

    def utility(self, player: Player) -> float:
        """+1 for a win, -1 for a loss, 0 for a draw, from ``player``'s point of view."""
        if self.winner is None:
            return 0.0
        return 1.0 if self.winner == player else -1.0

    def margin(self, player: Player) -> int:
        """Final score of ``player`` minus the opponent's (two-player games); the score itself for a puzzle."""
        if len(self.scores) == 1:
            return self.scores[0]
        return self.scores[player] - self.scores[1 - player]


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a game variant, declared once for the registry, the command line and the menus."""

    name: str
    kind: type
    default: Any
    description: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] | None = None

    def check(self, game: str, value: Any) -> Any:
        """Return ``value`` converted to this parameter's type, or raise ParameterError saying what is valid."""
        if self.kind is bool:
            if isinstance(value, str):
                lowered = value.strip().lower()
                if lowered in ("1", "true", "yes", "on"):
                    value = True
                elif lowered in ("0", "false", "no", "off"):
                    value = False
            if not isinstance(value, bool):
                raise ParameterError(f"{game}: {self.name} must be true or false, not {value!r}")
            return value
        if self.kind is int:
            if isinstance(value, bool):
                raise ParameterError(f"{game}: {self.name} must be a whole number, not {value!r}")
            try:
                if isinstance(value, str):
                    parsed = read_whole_number(value)
                    if parsed is None:
                        raise ValueError(value)
                    number = parsed
                else:
                    number = int(value)
            except (TypeError, ValueError, OverflowError):
                raise ParameterError(f"{game}: {self.name} must be a whole number written with the digits 0-9, "
                                     f"not {clip(repr(value))}") from None
            if isinstance(value, float) and value != number:
                raise ParameterError(f"{game}: {self.name} must be a whole number, not {value!r}")
            if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum
            ):
                raise ParameterError(
                    f"{game}: {self.name} must be from {self.minimum} to {self.maximum}, not {number}"
                )
            return number
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(choice) for choice in self.choices)
            raise ParameterError(f"{game}: {self.name} must be one of {allowed}, not {value!r}")
        return value


class Game(ABC, Generic[StateT, MoveT]):
    """A stateless rules object for one game and variant, typed by its state and move types.

    Subclasses (``class Kalah(Game[KalahState, int])``) set the class attributes and implement the abstract
    methods.  Parameters are fixed at construction; every method is a pure function of its arguments.
    """

    name: ClassVar[str]
    """Registry name, e.g. ``"kalah"``."""
    title: ClassVar[str]
    """Human name, e.g. ``"Kalah"``."""
    num_players: ClassVar[int] = 2
    params: ClassVar[tuple[Param, ...]] = ()
    player_names: ClassVar[tuple[str, ...]] = ("South", "North")
    examples: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    """Parameter sets the conformance suite runs this game under (the defaults, plus variants worth checking)."""

    def __init__(self, **parameters: Any) -> None:
        known = {param.name: param for param in self.params}
        for key in parameters:
            if key not in known:
                valid = ", ".join(known) or "none"
                raise ParameterError(f"{self.name}: unknown parameter {key!r} (valid: {valid})")
        values = {}
        for param in self.params:
            values[param.name] = param.check(self.name, parameters.get(param.name, param.default))
        self._parameters = values

    # -- identity ---------------------------------------------------------------------------------------------
    @property
    def parameters(self) -> dict[str, Any]:
        """The variant's parameter values, every parameter present."""
        return dict(self._parameters)

    @property
    def spec(self) -> str:
        """The registry name with parameters, e.g. ``kalah:pits=6,seeds=4,empty_capture=true``."""
        if not self._parameters:
            return self.name
        parts = []
        for key, value in self._parameters.items():
            parts.append(f"{key}={str(value).lower() if isinstance(value, bool) else value}")
        return f"{self.name}:{','.join(parts)}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(other) is type(self) and other._parameters == self._parameters

    def __hash__(self) -> int:
        return hash((type(self), tuple(self._parameters.items())))

    def __repr__(self) -> str:
        return f"<{self.title} {self.spec}>"

    # -- the protocol -----------------------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, seed: int | None = None) -> StateT:
        """The starting position.  Games with a random start (solitaire deals) use ``seed``; others ignore it."""

    @abstractmethod
    def to_move(self, state: StateT) -> Player:
        """The player whose turn it is (always 0 in a puzzle)."""

    @abstractmethod
    def legal_moves(self, state: StateT) -> tuple[MoveT, ...]:
        """All legal moves in a fixed order; empty when the game is over."""

    @abstractmethod
    def apply(self, state: StateT, move: MoveT) -> StateT:
        """The position after ``move``.  Raises IllegalMoveError (saying why) for an illegal move."""

    @abstractmethod
    def is_terminal(self, state: StateT) -> bool:
        """True when the game is over."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """The result of a finished game, or None while it goes on."""

    @abstractmethod
    def to_text(self, state: StateT) -> str:
        """The position as one line of the game's notation."""

    @abstractmethod
    def from_text(self, text: str) -> StateT:
        """Parse ``to_text``'s notation; raises NotationError naming what is wrong and what was expected."""

    @abstractmethod
    def material(self, state: StateT) -> int:
        """A count that no legal move changes (seeds or stones in play plus stored; cells for a brick game).

        The conformance suite checks it is conserved along every playout.
        """

    # -- bounds of a position read from a file ---------------------------------------------------------------
    def check_position(self, state: StateT) -> None:
        """Raise PositionError unless ``state`` is within what this variant allows.

        Run on every position a file gives (a save, the autosave) before anything allocates, animates or
        searches with it, so the bounds come from the game and not from the file.  The default checks the
        count every move conserves (``material``) against the start's; each game adds its own bounds.
        """
        expected = self.material(self.initial_state(seed=0))
        found = self.material(state)
        if found != expected:
            raise PositionError(f"the position's conserved count is {found}; every {self.title} position of "
                                f"this variant has {expected}")

    @property
    def max_moves(self) -> int:
        """The most moves one game of this variant can last: a proven bound where the game has one, else
        ``MOST_MOVES``.  A save listing more moves is refused before they are replayed."""
        return MOST_MOVES

    # -- moves as text ----------------------------------------------------------------------------------------
    def format_move(self, state: StateT, move: MoveT) -> str:
        """A move as a player types it (the default is ``str(move)``)."""
        return str(move)

    def parse_move(self, state: StateT, text: str) -> MoveT:
        """Read a typed move and check it is legal here.

        Raises NotationError or IllegalMoveError whose message says what a valid input would be.
        """
        text = text.strip()
        moves = self.legal_moves(state)
        for move in moves:
            if self.format_move(state, move).lower() == text.lower():
                return move
        valid = ", ".join(self.format_move(state, move) for move in moves) or "none (the game is over)"
        raise IllegalMoveError(f"{clip(text)!r} is not a legal move here; legal moves: {valid}")

    def describe_move(self, state: StateT, move: MoveT) -> str:
        """A short human description of what the move does (events such as captures), in the numbering the
        player sees; default: the move's label."""
        return self.move_label(state, move)

    # -- moves as the player sees them --------------------------------------------------------------------------
    # ``format_move`` / ``parse_move`` are the notation that saves, books and tournaments store (a sowing move
    # is the 0-based pit index there); these two are what a person reads and types: each player's pits
    # numbered 1..n counter-clockwise from that player's own leftmost pit (the index + 1).
    def move_label(self, state: StateT, move: MoveT) -> str:
        """``move`` as the player sees and types it (the default is the notation, ``format_move``)."""
        return self.format_move(state, move)

    def parse_label(self, state: StateT, text: str) -> MoveT:
        """Read a move as the player types it (``move_label``'s form) and check it is legal here.

        Raises NotationError or IllegalMoveError whose message lists the legal moves in that same form.
        """
        wanted = text.strip().lower()
        moves = self.legal_moves(state)
        for move in moves:
            if self.move_label(state, move).lower() == wanted:
                return move
        valid = ", ".join(self.move_label(state, move) for move in moves) or "none (the game is over)"
        raise IllegalMoveError(f"{clip(text.strip())!r} is not a legal move here; legal moves: {valid}")

    # -- what a move does ---------------------------------------------------------------------------------------
    def report(self, state: StateT, move: MoveT) -> MoveEvents:
        """What ``move`` does in ``state``, for messages and animation (``rules.events.MoveEvents``).

        This default knows only the mover and whether the move ends the game; the sowing games and the cave
        say more.  Raises IllegalMoveError for an illegal move.
        """
        from rules.events import MoveEvents

        after = self.apply(state, move)
        outcome = self.outcome(after)
        return MoveEvents(self.to_move(state), None, 0, end_reason=None if outcome is None else outcome.reason)

    def random_playout(self, state: StateT, rng: random.Random) -> tuple[StateT, int]:
        """Play uniformly random legal moves to the end; return the final state and the number of plies.

        This default goes through ``legal_moves`` and ``apply``; games override it with a faster loop that
        reaches the same kind of positions (MCTS rollouts and the speed benchmarks call it).
        """
        plies = 0
        while not self.is_terminal(state):
            moves = self.legal_moves(state)
            if not moves:
                break
            state = self.apply(state, moves[int(rng.random() * len(moves))])
            plies += 1
        return state, plies

    def random_walk(self, state: StateT, rng: random.Random, plies: int) -> StateT:
        """The position after ``plies`` uniformly random legal moves from ``state`` (fewer when the game ends
        first): the sample positions of tests and benchmarks."""
        for _ in range(plies):
            if self.is_terminal(state):
                break
            state = self.apply(state, rng.choice(self.legal_moves(state)))
        return state

    def render(self, state: StateT) -> str:
        """A multi-line picture of the position for the console."""
        return self.to_text(state)

    def key(self, state: StateT) -> Hashable:
        """What a transposition table should key on; by default the state itself."""
        return state

    def check_move(self, state: StateT, move: MoveT) -> None:
        """Raise IllegalMoveError unless ``move`` is legal in ``state``."""
        if self.is_terminal(state):
            raise IllegalMoveError(f"the game is over; no move can be played (tried {move!r})")
        moves = self.legal_moves(state)
        if move not in moves:
            valid = ", ".join(self.format_move(state, m) for m in moves)
            raise IllegalMoveError(f"{move!r} is not a legal move here; legal moves: {valid}")
