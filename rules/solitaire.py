"""Solitaire Mancala, the solitaire mode of the DOSE 2015 Mancala game (rules SR001-SR006).

Source: ``docs/rules/sources/solitaire-and-kalah-dose2015.txt``; every decision made in ``docs/rules/solitaire.md``:

- Board (SR001)::

      store01  hole01 hole02 hole03 hole04 hole05 hole06  store02
               hole07 hole08 hole09 hole10 hole11 hole12

  Clockwise ring: hole01..hole06, (store02), hole12..hole07, (store01), hole01; anti-clockwise the reverse.
- Deal (SR002): 48 stones, one in every hole, then each of the other 36 thrown into a uniformly random hole
  (from the seed, so a seed names a deal).  ``deal(holes)`` starts from given hole counts (level files).
- A round (SR003, SR004): the player selects a hole (only before the first round; later rounds start where
  the last one ended) and a direction; every stone of the hole is sown one per hole from the next hole on.
  Stores are skipped, except when exactly one stone remains in hand right after dropping into a row-end hole
  (hole06 or hole07 clockwise, hole01 or hole12 anti-clockwise): that stone goes into the adjacent store, the
  round ends and the next round starts from that end hole.  Otherwise the next round starts where the last
  stone fell.
- Variant ``dose`` (default): the store step above is forced, and a single stone *picked up* from an end hole
  is not a drop, so it goes past the store.  No deal can be won and at most 46 stones can be stored
  (docs/rules/solitaire.md point 6, checked exhaustively by the tests); the score is the number of stones stored.
- Variant ``lewis``: whenever one stone is in hand at a row end (after a drop there, or picked up alone from
  that end hole going that way) the player may set it aside into the store or keep sowing.  After setting
  aside a picked-up stone the end hole is empty and the player selects any non-empty hole.
- End (SR005, SR006): the last stone of a round falls into an empty hole (the emptied starting hole counts as
  empty after a full lap): lost.  No stone in any hole: won.  A round-start position (every hole and the
  selected hole) that repeats ends the game with the score as it stands.

A move is a :class:`Round`; as text ``cw``, ``ccw``, ``3 cw`` (hole 3, when the hole is free to choose) and,
under ``lewis``, ``cw aside`` to set the last stone aside when the chance comes.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import NamedTuple

from rules.base import Game, IllegalMoveError, NotationError, Outcome, Param, PositionError, Reason, clip
from rules.events import Lap, LapKind, MoveEvents, Place
from rules.sowing import check_seeds, parse_count, parse_counts, read_fields

HOLES = 12
STONES = 48
CEILING = {"dose": 46, "lewis": 48}
"""The most stones a game can store under each variant (dose: docs/rules/solitaire.md point 6)."""

CW, CCW = "cw", "ccw"
DIRECTIONS = (CW, CCW)

# Hole indices are 0..11 for hole01..hole12.  For each direction: the next hole, and for the two row-end holes
# the store that follows them (0 = store01, 1 = store02).
_NEXT = {
    CW: (1, 2, 3, 4, 5, 11, 0, 6, 7, 8, 9, 10),
    CCW: (6, 0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 5),
}
_END_STORE = {
    CW: {5: 1, 6: 0},  # hole06 -> store02, hole07 -> store01
    CCW: {0: 0, 11: 1},  # hole01 -> store01, hole12 -> store02
}

Holes = tuple[int, ...]
Position = tuple[Holes, "int | None"]
"""A round-start position: the 12 hole counts and the selected hole index (None = free choice)."""


class Round(NamedTuple):
    """One round: the hole (a number 1..12, only when the player is free to choose, else None), the direction
    (``"cw"`` or ``"ccw"``) and, under ``lewis``, whether to set the last stone aside when the chance comes."""

    hole: int | None
    direction: str
    set_aside: bool = False


@dataclass(frozen=True, slots=True)
class SolitaireState:
    """A Solitaire Mancala position.

    ``selected`` is the index (0..11) of the hole the next round starts from, or None when the player is free
    to choose.  ``seen`` holds the round-start positions met since the last stone was stored (a position with
    more stones on the board can never come back), which is what the repetition rule needs.  ``end`` is the
    reason a lost or repeated game ended; a cleared board needs no flag.
    """

    board: Holes
    store_counts: tuple[int, int]
    selected: int | None
    seen: tuple[Position, ...] = ()
    end: Reason | None = None

    @property
    def holes(self) -> Holes:
        """hole01..hole12 (docs/rules/solitaire.md's canonical order)."""
        return self.board

    @property
    def stores(self) -> tuple[int, int]:
        """(store01, store02)."""
        return self.store_counts

    @property
    def stored(self) -> int:
        """Stones stored so far: the score."""
        return self.store_counts[0] + self.store_counts[1]

    @property
    def left(self) -> int:
        """Stones still in the holes."""
        return sum(self.board)

    @property
    def position(self) -> Position:
        """The round-start position the repetition rule compares."""
        return self.board, self.selected


def sow(board: Holes, start: int, direction: str, set_aside: bool, lewis: bool) -> tuple[list[int], int, int | None, bool]:
    """Sow hole ``start`` in ``direction``; return (board after, last hole, store used or None, lost).

    Under ``dose`` the store step is forced whenever it arises and never taken for a picked-up stone; under
    ``lewis`` it is taken exactly when ``set_aside`` is true and the chance arises.  The caller checks that a
    requested set-aside is possible (``can_set_aside``).
    """
    cells = list(board)
    hand = cells[start]
    cells[start] = 0
    ends = _END_STORE[direction]
    nxt = _NEXT[direction]
    pos = start
    if hand == 1 and lewis and set_aside and pos in ends:
        return cells, pos, ends[pos], False
    while True:
        pos = nxt[pos]
        cells[pos] += 1
        hand -= 1
        if hand == 0:
            return cells, pos, None, cells[pos] == 1
        if hand == 1 and pos in ends and (set_aside or not lewis):
            return cells, pos, ends[pos], False


def can_set_aside(board: Holes, start: int, direction: str) -> bool:
    """True when sowing ``start`` in ``direction`` has one stone in hand at a row end (lewis's choice)."""
    ends = _END_STORE[direction]
    hand = board[start]
    if hand == 1:
        return start in ends
    # The stone before last falls ``hand - 1`` holes along the ring from ``start``: walk there.
    nxt = _NEXT[direction]
    pos = start
    for _ in range((hand - 2) % HOLES + 1):
        pos = nxt[pos]
    return pos in ends


class Solitaire(Game[SolitaireState, Round]):
    """Solitaire Mancala under the ``dose`` (source) or ``lewis`` (winnable) variant."""

    name = "solitaire"
    title = "Solitaire Mancala"
    num_players = 1
    player_names = ("Player",)
    params = (
        Param("variant", str, "dose", "dose: the source rules (46 is perfect); lewis: setting aside is a choice",
              choices=("dose", "lewis")),
    )
    examples = ({}, {"variant": "lewis"})

    def __init__(self, **parameters: object) -> None:
        super().__init__(**parameters)
        self.variant: str = self._parameters["variant"]
        self.is_lewis = self.variant == "lewis"
        self.ceiling = CEILING[self.variant]

    # -- starting positions -----------------------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> SolitaireState:
        """A random deal of 48 stones, at least one per hole; the same seed gives the same deal."""
        return self.deal(random_deal(seed))

    def deal(self, holes: tuple[int, ...] | list[int]) -> SolitaireState:
        """The start of a game from given hole counts (hole01..hole12), the player free to choose a hole."""
        holes = tuple(holes)
        if len(holes) != HOLES or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in holes):
            raise NotationError(f"a deal is 12 non-negative hole counts (hole01..hole12), not {holes!r}")
        return SolitaireState(holes, (0, 0), None)

    # -- protocol ---------------------------------------------------------------------------------------------
    def to_move(self, state: SolitaireState) -> int:
        return 0

    def is_terminal(self, state: SolitaireState) -> bool:
        return state.end is not None or not any(state.board)

    def outcome(self, state: SolitaireState) -> Outcome | None:
        if state.end is not None:
            return Outcome(None, state.end, (state.stored,))
        if not any(state.board):
            return Outcome(0, Reason.BOARD_CLEARED, (state.stored,))
        return None

    def legal_moves(self, state: SolitaireState) -> tuple[Round, ...]:
        """Holes in number order (when free), clockwise before anti-clockwise, keep sowing before set aside."""
        if self.is_terminal(state):
            return ()
        board = state.board
        starts = [state.selected] if state.selected is not None else [i for i in range(HOLES) if board[i]]
        moves = []
        for start in starts:
            hole = None if state.selected is not None else start + 1
            for direction in DIRECTIONS:
                moves.append(Round(hole, direction, False))
                if self.is_lewis and can_set_aside(board, start, direction):
                    moves.append(Round(hole, direction, True))
        return tuple(moves)

    def apply(self, state: SolitaireState, move: Round) -> SolitaireState:
        start = self._check(state, move)
        cells, last, store, lost = sow(state.board, start, move.direction, move.set_aside, self.is_lewis)
        board = tuple(cells)
        if lost:
            return SolitaireState(board, state.store_counts, last, state.seen + (state.position,),
                                  Reason.LAST_STONE_IN_EMPTY_HOLE)
        if store is not None:
            stores = (state.store_counts[0] + (store == 0), state.store_counts[1] + (store == 1))
            selected = last if board[last] else None
            # A stone was stored: no earlier round-start position can come back, so the history restarts.
            return SolitaireState(board, stores, selected)
        seen = state.seen + (state.position,)
        end = Reason.REPETITION if (board, last) in seen else None
        return SolitaireState(board, state.store_counts, last, seen, end)

    def material(self, state: SolitaireState) -> int:
        return sum(state.board) + state.stored

    def key(self, state: SolitaireState) -> tuple:
        """Holes, stores and selected hole: the history and the end flag are left out."""
        return state.board, state.store_counts, state.selected

    def _check(self, state: SolitaireState, move: object) -> int:
        """The index of the hole ``move`` starts from, or IllegalMoveError saying why it cannot be played."""
        if not isinstance(move, Round):
            raise IllegalMoveError(f"a Solitaire move is a Round(hole, direction, set_aside), not {move!r}")
        if self.is_terminal(state):
            raise IllegalMoveError("the game is over; no round can be played")
        if move.direction not in DIRECTIONS:
            raise IllegalMoveError(f"direction must be 'cw' or 'ccw', not {move.direction!r}")
        if state.selected is not None:
            if move.hole is not None and move.hole != state.selected + 1:
                raise IllegalMoveError(
                    f"this round starts from hole{state.selected + 1:02d}, where the last one ended, "
                    f"not hole{move.hole:02d}")
            start = state.selected
        else:
            if isinstance(move.hole, bool) or not isinstance(move.hole, int) or not 1 <= move.hole <= HOLES:
                raise IllegalMoveError(f"select a hole first: a number 1..12 with stones, not {move.hole!r}")
            start = move.hole - 1
            if not state.board[start]:
                raise IllegalMoveError(f"hole{move.hole:02d} is empty; select a hole with stones")
        if move.set_aside:
            if not self.is_lewis:
                raise IllegalMoveError("under dose setting aside is not a choice: the store step happens by itself")
            if not can_set_aside(state.board, start, move.direction):
                raise IllegalMoveError(
                    f"sowing {move.direction} from hole{start + 1:02d} never has a single stone in hand at a row "
                    "end, so there is nothing to set aside")
        return start

    def report(self, state: SolitaireState, move: Round) -> MoveEvents:
        """What ``move`` does: the holes sown (``Place(0, hole index)``), the store a stone went into (also the
        round's last drop, and ``set_aside``), and the end reason when the round lost or ended the puzzle."""
        start = self._check(state, move)
        cells, last, store, lost = sow(state.board, start, move.direction, move.set_aside, self.is_lewis)
        drops = []
        nxt = _NEXT[move.direction]
        pos = start
        for _ in range(state.board[start] - (store is not None)):
            pos = nxt[pos]
            drops.append(Place(0, pos))
        stored = None if store is None else Place(0, store, store=True)
        if stored is not None:
            drops.append(stored)
        picked = Place(0, start)
        stones = state.board[start]
        outcome = self.outcome(self.apply(state, move))
        return MoveEvents(0, picked, stones, (Lap(LapKind.FIRST, ((picked, stones),), tuple(drops)),),
                          end_reason=None if outcome is None else outcome.reason, set_aside=stored)

    # -- moves as text ----------------------------------------------------------------------------------------
    def format_move(self, state: SolitaireState, move: Round) -> str:
        text = move.direction if move.hole is None else f"{move.hole} {move.direction}"
        return text + " aside" if move.set_aside else text

    def parse_move(self, state: SolitaireState, text: str) -> Round:
        """Read ``cw``, ``ccw``, ``3 cw``, ``hole03 ccw``, ``cw aside`` (lewis) and check the round is legal."""
        legal = self.legal_moves(state)
        valid = ", ".join(self.format_move(state, m) for m in legal) or "none (the game is over)"
        hole, direction, aside = None, None, False
        for token in text.lower().replace(",", " ").split():
            token = token.strip()
            number = re.fullmatch(r"(?:hole)?0*([0-9]{1,6})", token)  # ASCII digits only, as every console
            if number:
                hole = int(number.group(1))
            elif token in ("cw", "clockwise", "c"):
                direction = CW
            elif token in ("ccw", "acw", "anticlockwise", "anti-clockwise", "counterclockwise", "a"):
                direction = CCW
            elif token in ("aside", "set-aside", "store", "s"):
                aside = True
            elif token in ("keep", "sow"):
                aside = False
            else:
                raise NotationError(f"{clip(text.strip())!r}: cannot read {clip(token)!r}; legal rounds: {valid}")
        if direction is None:
            raise NotationError(f"{clip(text.strip())!r}: give a direction (cw or ccw); legal rounds: {valid}")
        if state.selected is not None and hole == state.selected + 1:
            hole = None  # naming the hole the round must start from anyway is fine
        move = Round(hole, direction, aside)
        if move not in legal:
            try:
                self._check(state, move)
            except IllegalMoveError as error:
                raise IllegalMoveError(f"{error}; legal rounds: {valid}") from None
            raise IllegalMoveError(f"{clip(text.strip())!r} is not a legal round here; legal rounds: {valid}")
        return move

    def parse_label(self, state: SolitaireState, text: str) -> Round:
        """The notation is already the player's (holes 1..12): ``parse_move``."""
        return self.parse_move(state, text)

    def describe_move(self, state: SolitaireState, move: Round) -> str:
        events = self.report(state, move)
        word = "clockwise" if move.direction == CW else "anti-clockwise"
        text = f"hole{events.picked.number if events.picked else 0:02d} ({events.seeds}) {word}"
        if events.set_aside is not None:
            text += f", a stone into store{events.set_aside.number:02d}"
        elif events.end_reason is Reason.LAST_STONE_IN_EMPTY_HOLE:
            text += f", last stone into empty hole{events.last.number if events.last else 0:02d}: lost"
        else:
            text += f", ends in hole{events.last.number if events.last else 0:02d}"
        return text

    # -- bounds of a position read from a file -------------------------------------------------------------
    def check_position(self, state: SolitaireState) -> None:
        """12 holes and 2 stores holding the 48 stones, no more stored than the variant's ceiling, a selected
        hole with stones in it, and remembered round starts with as many stones on the board as now (the
        history restarts whenever a stone is stored), at most ``max_moves`` of them."""
        check_seeds("Solitaire Mancala", state.board + tuple(state.store_counts), HOLES + 2, STONES,
                    "the holes and stores")
        if state.stored > self.ceiling:
            raise PositionError(f"stores: {state.stored} stones stored, but the {self.variant} rules store at most "
                                f"{self.ceiling}")
        selected = state.selected
        if selected is not None and (isinstance(selected, bool) or selected not in range(HOLES) or not state.board[selected]):
            raise PositionError(f"select: {selected!r} is not a hole with stones; expected one of them or free")
        if len(state.seen) > self.max_moves:
            raise PositionError(f"seen: {len(state.seen)} round starts remembered, more than the {self.max_moves} "
                                "rounds a game may last")
        for board, _select in state.seen:
            if len(board) != HOLES or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in board) \
                    or sum(board) != state.left:
                raise PositionError(f"seen: a round start with {clip(repr(board))} stones; every remembered one has "
                                    f"{state.left} on the board in 12 holes, as now (none was stored since)")

    # -- notation ---------------------------------------------------------------------------------------------
    def to_text(self, state: SolitaireState) -> str:
        """``holes=a,..,f/g,..,l stores=s1,s2 select=N|free`` plus ``seen=`` history and ``end=``."""
        text = f"holes={_format_holes(state.board)} stores={state.store_counts[0]},{state.store_counts[1]} " \
               f"select={_format_select(state.selected)}"
        if state.seen:
            text += " seen=" + ";".join(".".join(map(str, b)) + "@" + _format_select(s) for b, s in state.seen)
        if state.end is not None:
            text += " end=" + _END_WORDS[state.end]
        return text

    def from_text(self, text: str) -> SolitaireState:
        fields = read_fields(text, ("holes", "stores", "select"), ("seen", "end"))
        board = _parse_holes("holes", fields["holes"])
        stores = parse_counts("stores", fields["stores"], 2)
        selected = _parse_select("select", fields["select"])
        if selected is not None and not board[selected]:
            raise NotationError(f"select: hole{selected + 1:02d} is empty; select a hole with stones or 'free'")
        seen: list[Position] = []
        for item in filter(None, fields.get("seen", "").split(";")):
            counts, sep, select = item.partition("@")
            if not sep:
                raise NotationError(f"seen: expected counts@hole entries split by ';', got {item!r}")
            seen.append((parse_counts("seen", counts.replace(".", ","), HOLES), _parse_select("seen", select)))
        end = None
        if "end" in fields:
            words = {word: reason for reason, word in _END_WORDS.items()}
            if fields["end"] not in words:
                raise NotationError(f"end: expected one of {', '.join(words)}, got {fields['end']!r}")
            end = words[fields["end"]]
        return SolitaireState(board, (stores[0], stores[1]), selected, tuple(seen), end)

    def render(self, state: SolitaireState) -> str:
        """The board as the source document draws it, the hole the next round starts from marked ``*``."""
        def cell(i: int) -> str:
            mark = "*" if state.selected == i and not self.is_terminal(state) else " "
            return f" {mark}{state.board[i]:>2} "

        top = "".join(f" h{i + 1:02d} " for i in range(6))
        bottom = "".join(f" h{i + 1:02d} " for i in range(6, 12))
        lines = [
            "store01 " + top + " store02",
            f"  [{state.store_counts[0]:>2}]  " + "".join(cell(i) for i in range(6)) + f"  [{state.store_counts[1]:>2}]",
            " " * 8 + "".join(cell(i) for i in range(6, 12)),
            " " * 8 + bottom,
        ]
        if not self.is_terminal(state):
            where = "free choice of hole" if state.selected is None else f"next round from hole{state.selected + 1:02d}"
            lines.append(f"stored {state.stored}, {state.left} left; {where}")
        return "\n".join(lines)


_END_WORDS = {Reason.LAST_STONE_IN_EMPTY_HOLE: "lost", Reason.REPETITION: "repetition"}


def random_deal(seed: int | None) -> Holes:
    """48 stones in 12 holes, one in each, then 36 thrown one by one into uniformly random holes."""
    rng = random.Random(seed)
    holes = [1] * HOLES
    for _ in range(STONES - HOLES):
        holes[rng.randrange(HOLES)] += 1
    return tuple(holes)


def _format_holes(board: Holes) -> str:
    return ",".join(map(str, board[:6])) + "/" + ",".join(map(str, board[6:]))


def _parse_holes(field: str, value: str) -> Holes:
    rows = value.split("/")
    if len(rows) != 2:
        raise NotationError(f"{field}: expected hole01..hole06 and hole07..hole12 split by '/', got {value!r}")
    return parse_counts(field, rows[0], 6) + parse_counts(field, rows[1], 6)


def _format_select(selected: int | None) -> str:
    return "free" if selected is None else str(selected + 1)


def _parse_select(field: str, value: str) -> int | None:
    if value == "free":
        return None
    return parse_count(field, value, minimum=1, maximum=HOLES) - 1
