"""What a move did, in one shape for every game: ``MoveEvents``, which each game's ``report(state, move)`` returns.

The console's messages and the window's animation read the same record, so neither needs to know which game it
is: the pit picked, every seed's drop in order (lap by lap, so Hus's relays are laps too), what was captured and
where it went, whether the mover plays again, and why the game ended if it did.

Places.  A ``Place`` names a pit (or hole, or cell) the way the rules number it: its ``owner`` and its 0-based
``index`` in that owner's numbering (docs/rules/'s canonical order), or one of the stores.  ``Place.number`` is
the number a player sees (index + 1: each player's pits counted 1..n counter-clockwise from the player's own
leftmost pit); ``str(place)`` is that number, or ``store`` for a store.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from rules.base import Player, Reason


@dataclass(frozen=True, slots=True)
class Place:
    """A pit, hole or cell (``store`` false) or a store (``store`` true) on the board.

    A pit is ``index`` 0.. in ``owner``'s own numbering.  A store belongs to ``owner`` (Kalah, Oware; index 0);
    Solitaire Mancala's two stores are ``Place(0, 0, True)`` (store01) and ``Place(0, 1, True)`` (store02).
    """

    owner: Player
    index: int
    store: bool = False

    @property
    def number(self) -> int:
        """The number a player sees: ``index + 1`` (pits 1..n, holes 1..12; Solitaire's store01 and store02)."""
        return self.index + 1

    def __str__(self) -> str:
        return "store" if self.store else str(self.number)


class LapKind(enum.Enum):
    """Why a lap of sowing started."""

    FIRST = "first"
    """The seeds of the chosen pit."""
    RELAY = "relay"
    """The seeds of the pit where the previous lap ended (Hus)."""
    CAPTURE = "capture"
    """The seeds taken from the opponent's pits opposite the previous lap's end, sown on (Hus)."""


@dataclass(frozen=True, slots=True)
class Lap:
    """One lap of a move: the places emptied to start it (with their seeds), then one drop per seed, in order."""

    kind: LapKind
    taken: tuple[tuple[Place, int], ...]
    drops: tuple[Place, ...]

    @property
    def seeds(self) -> int:
        """Seeds sown in this lap."""
        return sum(count for _, count in self.taken)

    @property
    def end(self) -> Place:
        """Where the lap's last seed fell."""
        return self.drops[-1]


@dataclass(frozen=True, slots=True)
class Capture:
    """Seeds lifted from ``taken`` (place, seeds) after sowing, and where they went: a store, or None when they
    are sown on as the next lap (Hus)."""

    taken: tuple[tuple[Place, int], ...]
    store: Place | None

    @property
    def seeds(self) -> int:
        return sum(count for _, count in self.taken)


@dataclass(frozen=True, slots=True)
class MoveEvents:
    """What one move did, for messages and animation; every game's ``report(state, move)`` returns one.

    ``picked`` is the pit (hole, cell) the move starts from and ``seeds`` what it held; ``laps`` are the
    sowings in order (one for Kalah, Oware and Solitaire Mancala; Hus relays and captures add more; none for a
    brick game); ``captures`` what was lifted after sowing.  ``end_reason`` is set when the move ended the
    game.  The rule flags are False where a game does not have the rule.
    """

    player: Player
    picked: Place | None
    seeds: int
    laps: tuple[Lap, ...] = ()
    captures: tuple[Capture, ...] = ()
    extra_turn: bool = False
    """The mover moves again (Kalah's last seed in the own store), the game not over."""
    end_reason: Reason | None = None
    grand_slam: bool = False
    """Oware: the move would take every seed on the opponent's side (captured only under ``grand_slam=capture``)."""
    fed: bool = False
    """Oware: the opponent had no seeds and this move gave them some."""
    set_aside: Place | None = None
    """Solitaire Mancala: the store the round's last stone went into, else None."""

    @property
    def drops(self) -> tuple[Place, ...]:
        """Every seed's drop over the whole move, in order."""
        return tuple(place for lap in self.laps for place in lap.drops)

    @property
    def last(self) -> Place | None:
        """Where the move's last seed fell (None for a move that sows nothing)."""
        return self.laps[-1].end if self.laps and self.laps[-1].drops else None

    @property
    def captured(self) -> int:
        """Seeds captured over the whole move."""
        return sum(capture.seeds for capture in self.captures)

    @property
    def lap_count(self) -> int:
        return len(self.laps)

    @property
    def relays(self) -> int:
        return sum(1 for lap in self.laps if lap.kind is LapKind.RELAY)

    @property
    def game_over(self) -> bool:
        return self.end_reason is not None
