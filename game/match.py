"""One game in progress, independent of the window: the rules, the seats, the moves, undo and redo.

The view asks the match what the position is and tells it what was played; the match never draws and never
waits.  Undo goes back to the last position where a human was to move (so a move against the computer is
taken back together with the computer's answer); redo replays what was undone.  ``saved`` gives the common
save format's ``SavedGame`` and ``from_saved`` continues one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from game.savegame import SavedGame, Seat
from rules import Game, Move, Outcome, State


@dataclass
class Match:
    """The moves of one game and the seats that play it."""

    game: Game
    seats: tuple[Seat, ...]
    start: State
    seed: int | None = None
    moves: list[Move] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    redo_moves: list[Move] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.states:
            states = [self.start]
            for move in self.moves:
                states.append(self.game.apply(states[-1], move))
            self.states = states

    @classmethod
    def new(cls, game: Game, seats: tuple[Seat, ...], seed: int | None = None) -> Match:
        return cls(game, tuple(seats), game.initial_state(seed=seed), seed)

    @classmethod
    def from_saved(cls, saved: SavedGame) -> Match:
        return cls(saved.game, tuple(saved.seats), saved.start, saved.seed, list(saved.moves), list(saved.states))

    @property
    def saved(self) -> SavedGame:
        return SavedGame(self.game, self.seats, self.start, tuple(self.moves), self.seed)

    # -- the position -----------------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def to_move(self) -> int:
        return self.game.to_move(self.state)

    @property
    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        return self.game.legal_moves(self.state)

    def seat(self, player: int) -> Seat:
        return self.seats[player]

    @property
    def is_human_turn(self) -> bool:
        return not self.is_over and self.seats[self.to_move].is_human

    @property
    def has_human(self) -> bool:
        return any(seat.is_human for seat in self.seats)

    # -- playing ----------------------------------------------------------------------------------------------
    def play(self, move: Move) -> tuple[State, State]:
        """Play ``move`` (IllegalMoveError if it is not legal); returns (before, after).  Clears redo."""
        before = self.state
        after = self.game.apply(before, move)
        self.moves.append(move)
        self.states.append(after)
        if self.redo_moves and self.redo_moves[-1] == move:
            self.redo_moves.pop()
        else:
            self.redo_moves.clear()
        return before, after

    def can_undo(self) -> bool:
        return bool(self.moves)

    def undo(self) -> int:
        """Take moves back to the previous position where a human was to move (one move in hot-seat or when
        only computers play).  Returns the number of moves taken back."""
        if not self.moves:
            return 0
        count = 0
        while self.moves:
            self.redo_moves.append(self.moves.pop())
            self.states.pop()
            count += 1
            if not self.has_human or self.seats[self.to_move].is_human:
                break
        return count

    def can_redo(self) -> bool:
        return bool(self.redo_moves)

    def redo(self) -> Move | None:
        """The next undone move, played again (None when there is nothing to redo)."""
        if not self.redo_moves:
            return None
        move = self.redo_moves[-1]
        self.play(move)
        return move

    def move_list(self) -> list[str]:
        """Each move as the player typed it, prefixed by the mover's name initial (S/N)."""
        lines = []
        for number, (before, move) in enumerate(zip(self.states, self.moves), start=1):
            who = self.game.player_names[self.game.to_move(before)]
            lines.append(f"{number:>3}. {who[0]} {self.game.format_move(before, move)}")
        return lines
