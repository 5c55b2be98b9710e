"""One game in progress, for every screen and the console: the rules, the seats, every position so far, undo
and redo, saving, and the verdict.  It never draws, never waits and never searches.

The undo rule, the same for every seating (hot-seat, against the computer, computers only, a puzzle):

* **Undo** goes back to the latest earlier position where a human is to move, so a move against the computer
  is taken back together with the computer's answer, and a hot-seat or puzzle move alone.  With no human
  seated it takes back one move.  When no earlier position has a human to move (the computer opened and it is
  now the human's first turn) there is nothing to undo.
* **Redo** is its mirror: it replays the undone moves up to the next position where a human is to move (one
  move with no human seated).
* Playing the move that redo would replay keeps the rest of what was undone; any other move forgets it.

A save needs only the start and the moves (``saved``, ``from_saved``, ``save``; ``game.savegame`` writes and
reads the file); ``is_unsaved`` tells whether leaving would lose anything.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic

from game import savegame
from game.savegame import SavedGame, Seat
from rules import Game, Outcome
from rules.base import MoveT, StateT


@dataclass
class Session(Generic[StateT, MoveT]):
    """The moves of one game, the seats that play it and what was undone (typed by the game's state and move:
    ``Session[SolitaireState, Round]``; a screen that serves every game holds a ``Session[Any, Any]``)."""

    game: Game[StateT, MoveT]
    seats: tuple[Seat, ...]
    start: StateT
    seed: int | None = None
    moves: list[MoveT] = field(default_factory=list)
    states: list[StateT] = field(default_factory=list)
    undone: list[MoveT] = field(default_factory=list)
    """The moves taken back, the next one to redo last."""
    saved_moves: tuple[MoveT, ...] | None = None
    """The moves as last saved or loaded (None: never), to tell whether leaving would lose anything."""
    path: Path | None = None
    """Where the game was last saved or loaded from."""
    slot: str | None = None
    """Its slot among the games in progress (``game.autosave``): given at its first move, kept on resume."""

    def __post_init__(self) -> None:
        self.seats = tuple(self.seats)
        if not self.states:
            states = [self.start]
            for move in self.moves:
                states.append(self.game.apply(states[-1], move))
            self.states = states

    @classmethod
    def new(cls, game: Game[Any, Any], seats: tuple[Seat, ...], seed: int | None = None) -> Session[Any, Any]:
        return cls(game, tuple(seats), game.initial_state(seed=seed), seed)

    @classmethod
    def from_saved(cls, saved: SavedGame, path: Path | None = None) -> Session[Any, Any]:
        """Continue a saved game; ``path`` is the file it came from (the game then counts as saved)."""
        moves: list[Any] = list(saved.moves)  # a save holds any game's moves and states
        states: list[Any] = list(saved.states)
        start: Any = saved.start
        return cls(saved.game, tuple(saved.seats), start, saved.seed, moves, states,
                   saved_moves=tuple(moves) if path is not None else None, path=path)

    @property
    def saved(self) -> SavedGame:
        return SavedGame(self.game, self.seats, self.start, tuple(self.moves), self.seed)

    def save(self, path: str | Path) -> None:
        """Write the game to ``path`` (OSError or ValueError when it cannot); it then counts as saved there."""
        savegame.save(path, self.saved)
        self.saved_moves = tuple(self.moves)
        self.path = Path(path)

    @property
    def is_unsaved(self) -> bool:
        return self.saved_moves != tuple(self.moves)

    # -- the position -----------------------------------------------------------------------------------------
    @property
    def state(self) -> StateT:
        return self.states[-1]

    @property
    def to_move(self) -> int:
        return self.game.to_move(self.state)

    @property
    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    @property
    def outcome(self) -> Outcome | None:
        """The verdict: None while the game goes on."""
        return self.game.outcome(self.state)

    @property
    def legal_moves(self) -> tuple[MoveT, ...]:
        return self.game.legal_moves(self.state)

    def seat(self, player: int) -> Seat:
        return self.seats[player]

    @property
    def is_human_turn(self) -> bool:
        return self._is_human_turn_at(len(self.states) - 1)

    @property
    def has_human(self) -> bool:
        return any(seat.is_human for seat in self.seats)

    def has_moved(self, player: int) -> bool:
        return any(self.game.to_move(state) == player for state in self.states[:-1])

    def _is_human_turn_at(self, index: int) -> bool:
        state = self.states[index]
        return not self.game.is_terminal(state) and self.seats[self.game.to_move(state)].is_human

    # -- playing ----------------------------------------------------------------------------------------------
    def play(self, move: MoveT) -> tuple[StateT, StateT]:
        """Play ``move`` (IllegalMoveError if it is not legal); returns (before, after).  The move redo would
        replay keeps the rest of the undone moves; any other move forgets them."""
        before = self.state
        after = self.game.apply(before, move)
        self.moves.append(move)
        self.states.append(after)
        if self.undone and self.undone[-1] == move:
            self.undone.pop()
        else:
            self.undone.clear()
        return before, after

    def _undo_target(self) -> int | None:
        """The index in ``states`` that undo goes back to (see the module's rule), None when there is none."""
        if not self.moves:
            return None
        if not self.has_human:
            return len(self.states) - 2
        return next((i for i in range(len(self.states) - 2, -1, -1) if self._is_human_turn_at(i)), None)

    def can_undo(self) -> bool:
        return self._undo_target() is not None

    def undo(self) -> int:
        """Take moves back by the module's rule; returns the number of moves taken back (0: nothing to undo)."""
        target = self._undo_target()
        if target is None:
            return 0
        taken = self.moves[target:]
        del self.moves[target:]
        del self.states[target + 1:]
        self.undone.extend(reversed(taken))
        return len(taken)

    def can_redo(self) -> bool:
        return bool(self.undone)

    @property
    def next_redo(self) -> MoveT | None:
        """The move redo would replay first (None when there is nothing to redo)."""
        return self.undone[-1] if self.can_redo() else None

    def redo(self) -> list[MoveT]:
        """Replay undone moves by the module's rule; returns them (empty: nothing to redo)."""
        replayed: list[MoveT] = []
        while self.can_redo():
            move = self.undone[-1]
            self._replay(move)
            replayed.append(move)
            if self.is_over or not self.has_human or self.is_human_turn:
                break
        return replayed

    def _replay(self, move: MoveT) -> None:
        """Play an undone move again (a subclass adds what it records beside the move)."""
        self.play(move)

    def move_list(self) -> list[str]:
        """Each move as the player typed it, prefixed by the mover's name initial (S/N)."""
        lines = []
        for number, (before, move) in enumerate(zip(self.states, self.moves), start=1):
            who = self.game.player_names[self.game.to_move(before)]
            lines.append(f"{number:>3}. {who[0]} {self.game.move_label(before, move)}")
        return lines
