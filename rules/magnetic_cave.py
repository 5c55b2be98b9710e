"""Magnetic Cave: build a bridge of five bricks across a cave whose left and right walls are magnets.

Source: ``docs/rules/sources/magnetic-cave.txt`` (Concordia COMP 472 project, 2012); every decision made in
``docs/rules/magnetic-cave.md``:

- An 8x8 board, columns A..H from left to right, rows 1..8 from bottom to top; it starts empty.
- Black (player 0, ■) moves first, then White (player 1, □) and Black alternate.
- A brick may go on an empty cell that touches the left or right wall (column A or H) or a brick of either
  colour directly to its left or right.  Each row therefore fills inwards from both walls and the legal moves
  are the leftmost and rightmost empty cells of each row (one move when a row has a single empty cell).
  Vertical neighbours do not hold a brick: there is no gravity, only the walls' magnetism.
- Five or more bricks of one colour in a row, column or diagonal win at once (six or more win too).
- A full board with no winner is a tie.

Representation.  A cell is an int ``row * 8 + column`` (A1 = 0, H1 = 7, A2 = 8, ..., H8 = 63) and a move is
the cell it fills.  A position keeps one bitboard (an int, bit ``cell`` set) per colour, the player to move
and the winner, found incrementally from the last brick only by counting both ways along four directions.
``CaveState.cells`` gives the 64 cells row by row from row 1 (0 empty, 1 Black, 2 White) for outside readers.

Legal moves come in a fixed order: ascending cell index, that is row 1 first and, within a row, the left end
before the right end.

Notation: ``rows=<row 8>/<row 7>/.../<row 1> move=B`` with each row written A..H as ``.`` (empty), ``B``
(Black) or ``W`` (White), top row first so the text reads like the picture, and ``move`` ``B`` or ``W``.
The start is ``rows=......../......../......../......../......../......../......../........ move=B``.
``from_text`` checks what a position needs to be playable: each row's empty cells form one unbroken run,
Black has as many bricks as White (Black to move) or one more (White to move), and a line of five belongs to
the player who just moved and ends the game with a single last brick.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

from rules.base import Game, IllegalMoveError, NotationError, Outcome, Player, PositionError, Reason
from rules.events import MoveEvents, Place
from rules.sowing import read_fields

SIZE = 8
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
COLUMN_A = sum(1 << (row * SIZE) for row in range(SIZE))
COLUMN_H = COLUMN_A << (SIZE - 1)
WALLS = COLUMN_A | COLUMN_H
NOT_A = FULL ^ COLUMN_A
NOT_H = FULL ^ COLUMN_H
WIN_LENGTH = 5
COLUMN_LETTERS = "ABCDEFGH"
BRICK_LETTERS = ("B", "W")
BRICK_SYMBOLS = ("■", "□")
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""(row step, column step): horizontal, vertical, diagonal up-right, diagonal up-left."""

Cell = int
PACKED_ROW = re.compile(r"[BW]*\.*[BW]*")
"""A written row whose empty cells form one run: bricks from the left wall, empties, bricks from the right."""
PACKED_BYTES = frozenset(
    ((1 << left) - 1) | ((0xFF << (SIZE - right)) & 0xFF)
    for left in range(SIZE + 1)
    for right in range(SIZE + 1 - left)
)
"""Row occupancies (bit = column) that are packed against the walls, the full row included."""


def cell_name(cell: Cell) -> str:
    """``"D7"`` for cell 51: column letter then row number."""
    return f"{COLUMN_LETTERS[cell % SIZE]}{cell // SIZE + 1}"


def _ray(cell: Cell, row_step: int, column_step: int) -> tuple[int, ...]:
    """Bit masks of the up to four cells beyond ``cell`` in one direction (enough to decide five)."""
    row, column = divmod(cell, SIZE)
    bits = []
    for _ in range(WIN_LENGTH - 1):
        row += row_step
        column += column_step
        if not (0 <= row < SIZE and 0 <= column < SIZE):
            break
        bits.append(1 << (row * SIZE + column))
    return tuple(bits)


def _rays(cell: Cell) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    pairs = []
    for row_step, column_step in DIRECTIONS:
        forward = _ray(cell, row_step, column_step)
        backward = _ray(cell, -row_step, -column_step)
        if len(forward) + len(backward) + 1 >= WIN_LENGTH:  # lines too short for five are left out
            pairs.append((forward, backward))
    return tuple(pairs)


RAYS = tuple(_rays(cell) for cell in range(CELLS))
"""Per cell, per direction long enough for five: (cells ahead, cells behind) as bit masks, nearest first."""


def completes_five(bits: int, cell: Cell) -> bool:
    """True when the bricks ``bits`` (which include ``cell``) hold five or more in a line through ``cell``.

    The incremental win test: only the lines through the last brick can have changed.
    """
    for forward, backward in RAYS[cell]:
        count = 1
        for bit in forward:
            if not bits & bit:
                break
            count += 1
        for bit in backward:
            if not bits & bit:
                break
            count += 1
        if count >= WIN_LENGTH:
            return True
    return False


def legal_mask(occupied: int) -> int:
    """Bitboard of the empty cells a brick may go on: touching a wall or a brick to the left or right."""
    held = ((occupied << 1) & NOT_A) | ((occupied >> 1) & NOT_H)
    return (FULL ^ occupied) & (WALLS | held)


def mask_cells(mask: int) -> tuple[Cell, ...]:
    """The cells of a bitboard in ascending order."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return tuple(cells)


@dataclass(frozen=True, slots=True)
class CaveState:
    """A Magnetic Cave position: a bitboard per colour, the player to move and the winner (None if none yet)."""

    black: int
    white: int
    to_move: Player
    winner: Player | None = None

    @property
    def occupied(self) -> int:
        """Bitboard of every brick."""
        return self.black | self.white

    @property
    def bricks(self) -> tuple[int, int]:
        """(Black's bricks, White's bricks) on the board."""
        return self.black.bit_count(), self.white.bit_count()

    def at(self, cell: Cell) -> int:
        """0 for an empty cell, 1 for a Black brick, 2 for a White brick."""
        bit = 1 << cell
        return 1 if self.black & bit else 2 if self.white & bit else 0

    @property
    def cells(self) -> tuple[int, ...]:
        """The 64 cells row by row from row 1 (A1, B1, ..., H1, A2, ..., H8): 0 empty, 1 Black, 2 White."""
        return tuple(self.at(cell) for cell in range(CELLS))

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The board as 8 rows of 8 cells (row 1 first, each from column A), same values as ``cells``."""
        cells = self.cells
        return tuple(cells[row * SIZE : (row + 1) * SIZE] for row in range(SIZE))


class MagneticCave(Game[CaveState, int]):
    """Magnetic Cave on the 8x8 board: no parameters."""

    name = "magnetic-cave"
    title = "Magnetic Cave"
    num_players = 2
    player_names = ("Black", "White")

    # -- protocol ---------------------------------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> CaveState:
        return CaveState(0, 0, 0, None)

    def to_move(self, state: CaveState) -> Player:
        return state.to_move

    def legal_moves(self, state: CaveState) -> tuple[Cell, ...]:
        if state.winner is not None:
            return ()
        return mask_cells(legal_mask(state.black | state.white))

    def is_terminal(self, state: CaveState) -> bool:
        return state.winner is not None or (state.black | state.white) == FULL

    def outcome(self, state: CaveState) -> Outcome | None:
        """A win is scored (1, 0) or (0, 1) and a tie (0, 0): games won, so ``margin`` is +1, -1 or 0."""
        if state.winner is not None:
            scores = (1, 0) if state.winner == 0 else (0, 1)
            return Outcome(state.winner, Reason.FIVE_IN_A_ROW, scores)
        if (state.black | state.white) == FULL:
            return Outcome(None, Reason.BOARD_FULL, (0, 0))
        return None

    def apply(self, state: CaveState, move: Cell) -> CaveState:
        self._check(state, move)
        bit = 1 << move
        if state.to_move == 0:
            black = state.black | bit
            return CaveState(black, state.white, 1, 0 if completes_five(black, move) else None)
        white = state.white | bit
        return CaveState(state.black, white, 0, 1 if completes_five(white, move) else None)

    def material(self, state: CaveState) -> int:
        """The turn balance: Black's bricks minus White's minus 1 if White is to move.

        Every position of a game has it 0 (Black moves first and the colours alternate, one brick per move);
        a move that placed the wrong colour or two bricks, or passed the turn without a brick, would change it.
        """
        black, white = state.bricks
        return black - white - (1 if state.to_move == 1 else 0)

    def check_position(self, state: CaveState) -> None:
        """Two disjoint 64-cell bitboards with the brick counts, packed rows and lines of five a game can make
        (``from_text``'s checks, applied to a state however it was made)."""
        black, white = state.black, state.white
        for bits in (black, white):
            if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits <= FULL:
                raise PositionError(f"a colour's bricks must be a 64-cell board, not {bits!r}")
        if black & white:
            raise PositionError("a cell holds both a Black and a White brick")
        if state.to_move not in (0, 1):
            raise PositionError(f"the side to move must be B or W, not {state.to_move!r}")
        occupied = black | white
        if any(((occupied >> (row * SIZE)) & 0xFF) not in PACKED_BYTES for row in range(SIZE)):
            raise PositionError("a row's empty cells must form one unbroken run: a row fills inwards from both walls")
        try:
            winner = _check_position(black, white, state.to_move)
        except NotationError as error:
            raise PositionError(str(error)) from None
        if winner != state.winner:
            raise PositionError(f"the winner is recorded as {state.winner!r} but the bricks say {winner!r}")

    @property
    def max_moves(self) -> int:
        """One brick a move on 64 cells."""
        return CELLS

    def key(self, state: CaveState) -> tuple[int, int]:
        """The two bitboards: the side to move and the winner follow from them."""
        return state.black, state.white

    # -- the move ---------------------------------------------------------------------------------------------
    def _check(self, state: CaveState, move: object) -> None:
        """Raise IllegalMoveError saying why ``move`` cannot be played in ``state``."""
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"a Magnetic Cave move is a cell number 0..63 (A1 = 0, H8 = 63), not {move!r}")
        if not 0 <= move < CELLS:
            raise IllegalMoveError(f"cell {move} does not exist: cells are numbered 0..63 (A1 = 0, H8 = 63)")
        if self.is_terminal(state):
            raise IllegalMoveError(f"the game is over; no brick can be placed (tried {cell_name(move)})")
        bit = 1 << move
        occupied = state.black | state.white
        if occupied & bit:
            owner = self.player_names[0 if state.black & bit else 1]
            raise IllegalMoveError(f"{cell_name(move)} already holds a {owner} brick; {self._legal_text(state)}")
        if not legal_mask(occupied) & bit:
            raise IllegalMoveError(
                f"{cell_name(move)} touches neither wall nor a brick to its left or right; {self._legal_text(state)}"
            )

    def _legal_text(self, state: CaveState) -> str:
        moves = self.legal_moves(state)
        return "legal moves: " + (", ".join(cell_name(move) for move in moves) or "none (the game is over)")

    def format_move(self, state: CaveState, move: Cell) -> str:
        return cell_name(move)

    def parse_move(self, state: CaveState, text: str) -> Cell:
        """Read a cell such as ``D7`` or ``d7`` (spaces around are ignored) and check it is legal here."""
        typed = text.strip() if isinstance(text, str) else repr(text)
        match = re.fullmatch(r"([A-Ha-h])([1-8])", typed)
        if match is None:
            raise NotationError(
                f"{typed!r} is not a cell: type a column letter A-H then a row number 1-8, e.g. D7; "
                + self._legal_text(state)
            )
        cell = (int(match.group(2)) - 1) * SIZE + COLUMN_LETTERS.index(match.group(1).upper())
        self._check(state, cell)
        return cell

    def parse_label(self, state: CaveState, text: str) -> Cell:
        """A player types the cell's name, as in the notation."""
        return self.parse_move(state, text)

    def report(self, state: CaveState, move: Cell) -> MoveEvents:
        """What placing a brick does: the cell (``picked``, owned by the mover; ``index`` the cell number) and
        how the game ended, if it did.  Nothing is sown or captured."""
        outcome = self.outcome(self.apply(state, move))
        return MoveEvents(state.to_move, Place(state.to_move, move), 0,
                          end_reason=None if outcome is None else outcome.reason)

    def describe_move(self, state: CaveState, move: Cell) -> str:
        after = self.apply(state, move)
        text = f"{self.player_names[state.to_move]} places a brick on {cell_name(move)}"
        if after.winner is not None:
            return text + ": five in a row, " + self.player_names[after.winner] + " wins"
        if self.is_terminal(after):
            return text + ": the board is full, a tie"
        return text

    def winning_line(self, state: CaveState) -> tuple[Cell, ...]:
        """The cells of the winner's lines of five or more (for highlighting); empty when nobody has won."""
        if state.winner is None:
            return ()
        bits = state.black if state.winner == 0 else state.white
        return mask_cells(_five_mask(bits))

    # -- playouts ---------------------------------------------------------------------------------------------
    def random_playout(self, state: CaveState, rng: random.Random) -> tuple[CaveState, int]:
        """Play uniformly random moves to the end; return the final state and the number of plies.

        The hot loop of random playouts (MCTS rollouts, the speed benchmark): plain ints instead of a state
        per ply, giving the same positions as repeated ``apply``.
        """
        if self.is_terminal(state):
            return state, 0
        mine, theirs = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
        player = state.to_move
        plies = 0
        rand = rng.random
        while True:
            occupied = mine | theirs
            moves = mask_cells(legal_mask(occupied))
            move = moves[int(rand() * len(moves))]
            mine |= 1 << move
            plies += 1
            if completes_five(mine, move):
                winner = player
            elif (mine | theirs) == FULL:
                winner = None
            else:
                mine, theirs = theirs, mine
                player = 1 - player
                continue
            black, white = (mine, theirs) if player == 0 else (theirs, mine)
            return CaveState(black, white, 1 - player, winner), plies

    # -- text -------------------------------------------------------------------------------------------------
    def to_text(self, state: CaveState) -> str:
        letters = (".", "B", "W")
        rows = state.rows
        written = "/".join("".join(letters[value] for value in rows[row]) for row in reversed(range(SIZE)))
        return f"rows={written} move={BRICK_LETTERS[state.to_move]}"

    def from_text(self, text: str) -> CaveState:
        fields = read_fields(text, ("rows", "move"))
        side = fields["move"].upper()
        if side not in BRICK_LETTERS:
            raise NotationError(f"move: expected B (Black) or W (White), got {fields['move']!r}")
        to_move = BRICK_LETTERS.index(side)
        rows = fields["rows"].split("/")
        if len(rows) != SIZE:
            raise NotationError(
                f"rows: expected 8 rows (row 8 first) split by '/', got {len(rows)} in {fields['rows']!r}"
            )
        black = white = 0
        for index, written in enumerate(rows):
            row = SIZE - 1 - index
            if len(written) != SIZE:
                raise NotationError(f"rows: row {row + 1} {written!r} must have 8 cells (A..H), not {len(written)}")
            for column, char in enumerate(written.upper()):
                bit = 1 << (row * SIZE + column)
                if char == "B":
                    black |= bit
                elif char == "W":
                    white |= bit
                elif char != ".":
                    raise NotationError(
                        f"rows: row {row + 1} {written!r} has {char!r} in column {COLUMN_LETTERS[column]}: "
                        "expected . (empty), B (Black) or W (White)"
                    )
            if not PACKED_ROW.fullmatch(written.upper()):
                raise NotationError(
                    f"rows: row {row + 1} {written!r} has a brick that touches neither a wall nor a brick to its "
                    "side; a row fills inwards from both walls, so its empty cells must form one unbroken run"
                )
        return CaveState(black, white, to_move, _check_position(black, white, to_move))

    def render(self, state: CaveState) -> str:
        header = "     " + " ".join(COLUMN_LETTERS)
        lines = [header]
        for row in reversed(range(SIZE)):
            cells = []
            for column in range(SIZE):
                value = state.at(row * SIZE + column)
                cells.append("." if value == 0 else BRICK_SYMBOLS[value - 1])
            lines.append(f"  {row + 1} |{' '.join(cells)}| {row + 1}")
        lines.append(header)
        outcome = self.outcome(state)
        if outcome is None:
            mover = state.to_move
            lines.append(f"  {self.player_names[mover]} ({BRICK_SYMBOLS[mover]}) to move")
        elif outcome.winner is not None:
            lines.append(f"  {self.player_names[outcome.winner]} ({BRICK_SYMBOLS[outcome.winner]}) wins: five in a row")
        else:
            lines.append("  Tie: the board is full")
        return "\n".join(lines)


def _is_packed(occupied: int) -> bool:
    """True when every row's empty cells form one unbroken run (each row filled inwards from the walls)."""
    return all((occupied >> (row * SIZE)) & 0xFF in PACKED_BYTES for row in range(SIZE))


def _five_mask(bits: int) -> int:
    """Every brick of ``bits`` that lies in a line of five or more (a board scan, for checks and display)."""
    found = 0
    for cell in mask_cells(bits):
        for forward, backward in RAYS[cell]:
            run = 1 << cell
            for bit in forward:
                if not bits & bit:
                    break
                run |= bit
            for bit in backward:
                if not bits & bit:
                    break
                run |= bit
            if run.bit_count() >= WIN_LENGTH:
                found |= run
    return found


def _check_position(black: int, white: int, to_move: Player) -> Player | None:
    """Check the brick counts and lines of five of a position read from text; return its winner."""
    names = MagneticCave.player_names
    black_count, white_count = black.bit_count(), white.bit_count()
    if black_count - white_count != (1 if to_move == 1 else 0):
        expected = "one more brick than White" if to_move == 1 else "as many bricks as White"
        raise NotationError(
            f"with {names[to_move]} to move Black must have {expected} (Black moves first), "
            f"but Black has {black_count} and White {white_count}"
        )
    fives = (_five_mask(black), _five_mask(white))
    if fives[0] and fives[1]:
        raise NotationError("both colours have five in a row: the game ended at the first of them")
    if fives[to_move]:
        raise NotationError(
            f"{names[to_move]} has five in a row but is to move: the game ended when {names[to_move]} made it"
        )
    mover = 1 - to_move
    if not fives[mover]:
        return None
    bits = black if mover == 0 else white
    occupied = black | white
    # Some brick of the winner must be a possible last move: without it no line of five is left, and its row
    # is still packed (so the brick sat at an end of the empty run and was legal then).
    for cell in mask_cells(fives[mover]):
        bit = 1 << cell
        if not _five_mask(bits ^ bit) and _is_packed(occupied ^ bit):
            return mover
    raise NotationError(
        f"{names[mover]}'s lines of five cannot all have been made by one last brick: the game would have ended sooner"
    )
