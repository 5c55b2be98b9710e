"""One Solitaire Mancala puzzle in progress, independent of the window: the deal, the rounds, undo, the outcome.

The puzzle screen asks the session what the position is and tells it what was played; the session never
draws and never waits.  It knows what is honest to say about the result:

- ``lewis``: a cleared board is won (48 stored is par, a perfect game); the last stone into an empty hole is
  lost.
- ``dose``: no deal can be cleared (docs/rules/solitaire.md point 6), so the result is the stones stored against par:
  46, or the level's proven best, or less once an exhaustive search has proven that the position allows no more.
  Storing par ends the puzzle as a perfect game; the player may also end it at any time with the score as it
  stands (stones stored are never lost), and the rules end it on a loss or a repetition.

A result counts for the records only when the player played every round (hints are allowed; a round the
computer played while watching is not the player's).

Undo and redo follow ``game.session``'s rule (one round at a time, the decision to end counting as one);
what was undone is kept for redo (a new round clears it, the same round replays it).  A puzzle in
progress saves in the common format of ``game.savegame``: the one seat is ``human``, or ``engine SPEC`` when
the computer played any round (so a loaded game the computer helped with is never recorded as the player's).
Loading finds the puzzle again from the deal: a level with the same holes, else the seeded deal, else a
"saved deal" of its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, cast

from ai.base import SearchResult
from game import savegame

from game.records import PuzzleResult, RecordsStore, deal_key
from game.savegame import SavedGame, SaveError, Seat
from game.session import Session
from levels.solitaire import Level, load_levels
from rules.solitaire import CEILING, Round, Solitaire, SolitaireState, random_deal


@dataclass(frozen=True)
class Puzzle:
    """What is being played: a level from ``levels/solitaire`` or a random deal from a seed."""

    key: str
    title: str
    variant: str
    holes: tuple[int, ...]
    level: Level | None = None
    seed: int | None = None

    @classmethod
    def from_level(cls, level: Level) -> Puzzle:
        return cls(level.id, level.name, level.variant, level.holes, level=level)

    @classmethod
    def from_seed(cls, variant: str, seed: int) -> Puzzle:
        return cls(deal_key(variant, seed), f"Deal {seed}", variant, random_deal(seed), seed=seed)

    @property
    def par(self) -> int:
        """The best result known for the deal: the level's proven best, else the variant's ceiling."""
        if self.level is not None and self.level.best <= CEILING[self.variant]:
            return self.level.best
        return CEILING[self.variant]


@dataclass(frozen=True)
class Verdict:
    """How a finished puzzle is announced: a headline, a line of detail, and whether it is a perfect game."""

    headline: str
    detail: str
    perfect: bool
    won: bool | None
    """True/False under lewis (won or lost); None under dose, where no deal can be won."""


class PuzzleSession(Session[SolitaireState, Round]):
    """The rounds of one puzzle, who played them, and the end: a ``Session`` with one human seat, so undo and
    redo take back and replay one round at a time (``game.session``'s rule), whoever played it.  Its save
    names the engine that helped, so it is written with ``saved_as(engine)``."""

    def __init__(self, puzzle: Puzzle) -> None:
        game = Solitaire(variant=puzzle.variant)
        super().__init__(game, (Seat(),), game.deal(puzzle.holes), puzzle.seed)
        self.game: Solitaire = game
        self.puzzle = puzzle
        self.by_computer: list[bool | None] = []
        """For each round played, whether the computer played it (None: not known, a round loaded from a save
        the computer helped with, which names no round)."""
        self.undone_by_computer: list[bool | None] = []
        """For each round in ``undone``, whether the computer first played it."""
        self.ended_here = False
        """The player chose to end a dose game with the score as it stands."""
        self.proven: tuple[int, int] | None = None
        """(rounds played, most stones storable) when a search proved the most that position allows."""

    # -- the position -----------------------------------------------------------------------------------------
    @property
    def state(self) -> SolitaireState:
        return self.states[-1]

    @property
    def rounds(self) -> int:
        return len(self.moves)

    @property
    def legal_moves(self) -> tuple[Round, ...]:
        return () if self.is_over else self.game.legal_moves(self.state)

    @property
    def is_over(self) -> bool:
        """The rules ended the game, the player ended it, or (dose) nothing more can be stored."""
        state = self.state
        if self.game.is_terminal(state) or self.ended_here:
            return True
        return not self.game.is_lewis and state.stored >= CEILING["dose"]

    @property
    def par(self) -> int:
        """What a perfect game stores: the puzzle's par, lowered when a search proved the start allows less."""
        if self.proven is not None and self.proven[0] == 0:
            return min(self.puzzle.par, self.proven[1])
        return self.puzzle.par

    @property
    def still_possible(self) -> int | None:
        """The most stones the current position allows, when a search proved it for this very position."""
        if self.proven is not None and self.proven[0] == self.rounds:
            return self.proven[1]
        return None

    @property
    def assisted(self) -> bool:
        """True when the computer played (or may have played: a loaded save it helped with) any round."""
        return any(flag is not False for flag in self.by_computer)

    # -- playing ----------------------------------------------------------------------------------------------
    def play(self, move: Round, by_computer: bool | None = False) -> tuple[SolitaireState, SolitaireState]:
        """Play a round (IllegalMoveError if it is not legal); returns (before, after)."""
        replaying = bool(self.undone) and self.undone[-1] == move
        before, after = super().play(move)
        self.by_computer.append(by_computer)
        if replaying:
            self.undone_by_computer.pop()  # the round taken back, played again: the rest can still be redone
        else:
            self.undone_by_computer.clear()
        return before, after

    def _replay(self, move: Round) -> None:
        self.play(move, by_computer=self.undone_by_computer[-1])

    def can_undo(self) -> bool:
        return super().can_undo() or self.ended_here

    def can_redo(self) -> bool:
        return super().can_redo() and not self.is_over

    @property
    def next_redo_by_computer(self) -> bool | None:
        """Whether the computer first played the round redo would replay (None: not known)."""
        return self.undone_by_computer[-1] if self.undone_by_computer else False

    def undo(self) -> int:
        """Take back the last round (or the decision to end here); the number taken back (0: nothing)."""
        if self.ended_here:
            self.ended_here = False
            return 1
        taken = super().undo()
        for _ in range(taken):
            self.undone_by_computer.append(self.by_computer.pop())
        return taken

    def restart(self) -> None:
        """Back to the deal; every round played can be redone."""
        while self.moves:
            self.undo()
        self.ended_here = False

    def end_here(self) -> None:
        """End a dose game with the stones stored so far (nothing stored can be lost)."""
        if self.game.is_lewis:
            raise ValueError("under lewis the game ends by clearing the board or by a loss")
        self.ended_here = True

    def note_search(self, result: SearchResult) -> None:
        """An exhaustive search that reached no goal proves the most this position allows."""
        if result.exhaustive and not result.info.get("solved") and result.info.get("target") is not None:
            self.note_proof(int(result.score))

    def note_proof(self, most: int) -> None:
        """An exhaustive search proved that the current position allows at most ``most`` stones in all."""
        self.proven = (self.rounds, most)

    # -- saving -----------------------------------------------------------------------------------------------
    def saved_as(self, engine: str) -> SavedGame:
        """The game as ``game.savegame`` writes it; ``engine`` names the seat when the computer played a round."""
        seat = Seat(engine) if self.assisted else Seat()
        return SavedGame(self.game, (seat,), self.states[0], tuple(self.moves), self.puzzle.seed)

    @classmethod
    def from_saved(cls, saved: SavedGame, levels: Iterable[Level] = ()) -> PuzzleSession:  # type: ignore[override]
        """The session a save holds (SaveError when it is not a Solitaire Mancala deal played from its start)."""
        game = saved.game
        if not isinstance(game, Solitaire):
            raise SaveError(f"this is a save of {game.title}, not Solitaire Mancala")
        start = cast(SolitaireState, saved.start)  # a Solitaire game's save starts from a Solitaire position
        if start != game.deal(start.holes):
            raise SaveError("the start is not a deal (stones already stored or a hole already chosen)", field_name="start")
        puzzle = find_puzzle(game.variant, start.holes, saved.seed, levels)
        session = cls(puzzle)
        # The save names the engine that helped, not which rounds it played: those rounds are "not known".
        helped = None if not saved.seats[0].is_human else False
        for move in saved.moves:
            session.play(cast(Round, move), by_computer=helped)
        return session

    # -- the end ----------------------------------------------------------------------------------------------
    def result(self) -> PuzzleResult:
        state = self.state
        return PuzzleResult(state.stored, self.rounds, cleared=not any(state.holes))

    def record_in(self, records: RecordsStore) -> tuple[str, str]:
        """Record the finished game's result in ``records`` when the player played every round: (what to say
        about the record, a problem writing it or "")."""
        if self.assisted:
            played = self.by_computer.count(True)
            if None in self.by_computer:
                return "Not recorded: the computer helped with this game before it was saved.", ""
            return f"Not recorded: the computer played {played} of the {self.rounds} rounds.", ""
        key = self.puzzle.key
        best_before = records.best(key)
        problem = ""
        try:
            improved = records.record(key, self.result())
        except OSError as error:
            improved = False
            problem = f"Could not save the record to {records.path}: {error.strerror or error}"
        best = records.best(key)
        if improved:
            return ("A new best for this puzzle!" if best_before else "Your first result here, recorded."), problem
        return (f"Your best here: {best.describe(self.par)}." if best else ""), problem

    def verdict(self) -> Verdict:
        """What to say about the game as it stands (meant for a finished game)."""
        state, rounds = self.state, self.rounds
        stored = state.stored
        outcome = self.game.outcome(state)
        reason = outcome.reason.value if outcome is not None else ""
        if self.game.is_lewis:
            if not any(state.holes):
                return Verdict("Won: the board is clear!", f"All 48 stones stored in {rounds} rounds, "
                               "a perfect game.", True, True)
            why = reason or "the game ended"
            return Verdict(f"Lost: {stored} of 48 stored", f"The game ended because {why} after {rounds} "
                           "rounds. Undo to try another way; once undone, Watch shows how the computer would go "
                           "on.", False, False)
        par = self.par
        note = "Under the source rules no deal can be cleared: 46 is a perfect game."
        if stored >= par:
            return Verdict(f"Perfect game: {stored} stored!", f"Par is {par} and you reached it in {rounds} "
                           f"rounds. {note}", True, None)
        if self.ended_here and self.by_computer[-1:] == [True]:
            why = "the computer's line ended here: nothing more can be stored (proven)"
        elif self.ended_here:
            why = "you ended the game here"
        else:
            why = f"the game ended because {reason}" if reason else "nothing more can be stored"
        return Verdict(f"{stored} stored, par {par}", f"{why[0].upper() + why[1:]} after {rounds} rounds. {note}",
                       False, None)


def find_puzzle(variant: str, holes: tuple[int, ...], seed: int | None, levels: Iterable[Level] = ()) -> Puzzle:
    """The puzzle whose deal this is: a level with these holes, else the seeded deal, else a saved deal."""
    holes = tuple(holes)
    for level in levels:
        if level.variant == variant and tuple(level.holes) == holes:
            return Puzzle.from_level(level)
    if seed is not None and tuple(random_deal(seed)) == holes:
        return Puzzle.from_seed(variant, seed)
    text = ",".join(map(str, holes))
    return Puzzle(f"saved:{variant}:{text}", f"Saved deal {text}", variant, holes)


def read_puzzle(path: Path) -> PuzzleSession:
    """The puzzle in progress saved at ``path`` (SaveError, OSError or ValueError saying why it cannot be)."""
    return PuzzleSession.from_saved(savegame.load(path, expect_game="solitaire"), load_levels()[0])


def describe_error(error: Exception) -> str:
    """An error's message for the screen (an OSError's reason without its number)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
