"""What the sowing games share: the position notation's fields and the 2x6-style console board.

Notation.  A sowing position is one line of space-separated ``key=value`` fields, for example Kalah's start::

    pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S

``pits`` lists South's pits then North's, each in its owner's numbering (docs/rules/'s canonical order), the two
sides split by ``/``; ``stores`` is ``south,north``; ``move`` is ``S`` or ``N``.  Games add fields of their own
(Oware's no-capture counter, for instance).  ``read_fields`` and the ``parse_*`` helpers turn text back into
values and raise NotationError naming the field and what was expected.
"""
from __future__ import annotations

from typing import Callable, Iterable, Protocol, Sequence

from rules.base import IllegalMoveError, NotationError, Player, PositionError, clip, read_whole_number

SIDE_LETTERS = ("S", "N")


class TwoRowPosition(Protocol):
    """A two-row sowing position with stores (Kalah's and Oware's states), as code for both reads it."""

    @property
    def pits(self) -> tuple[int, ...]:
        """South's pits then North's, each in its owner's numbering."""

    @property
    def stores(self) -> tuple[int, int]:
        """(South's store, North's store)."""


def read_fields(text: str, required: Iterable[str], optional: Iterable[str] = ()) -> dict[str, str]:
    """Split ``key=value`` fields; every required key must appear once and no unknown key may appear."""
    if not isinstance(text, str):
        raise NotationError(f"a position must be text, not {type(text).__name__}")
    required = tuple(required)
    allowed = set(required) | set(optional)
    fields: dict[str, str] = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        if not sep:
            raise NotationError(f"field {token!r} has no '=': expected key=value fields like {required[0]}=...")
        if key not in allowed:
            raise NotationError(f"unknown field {key!r}: expected the fields {', '.join(sorted(allowed))}")
        if key in fields:
            raise NotationError(f"field {key!r} appears twice")
        fields[key] = value
    missing = [key for key in required if key not in fields]
    if missing:
        raise NotationError(f"missing field {missing[0]!r} in {text!r}: expected the fields {', '.join(required)}")
    return fields


def parse_count(field: str, value: str, *, minimum: int = 0, maximum: int | None = None) -> int:
    """A non-negative whole number, with bounds, or NotationError naming the field."""
    number = read_whole_number(value)
    if number is None and value.strip().startswith("-") and read_whole_number(value.strip()[1:]) is not None:
        number = -int(value.strip()[1:])  # a negative count is a number, just out of range
    if number is None:
        raise NotationError(f"{field}: {clip(value)!r} is not a whole number (digits 0-9)")
    if number < minimum or (maximum is not None and number > maximum):
        upper = f" to {maximum}" if maximum is not None else " or more"
        raise NotationError(f"{field}: {number} is out of range (expected {minimum}{upper})")
    return number


def parse_counts(field: str, value: str, length: int) -> tuple[int, ...]:
    """``length`` comma-separated non-negative counts."""
    items = value.split(",")
    if len(items) != length:
        raise NotationError(f"{field}: expected {length} comma-separated counts, got {len(items)} in {value!r}")
    return tuple(parse_count(field, item) for item in items)


def parse_sides(field: str, value: str, per_side: int) -> tuple[int, ...]:
    """Two sides of ``per_side`` counts each, split by ``/`` (South first), as one tuple."""
    sides = value.split("/")
    if len(sides) != 2:
        raise NotationError(f"{field}: expected South's and North's counts split by '/', got {value!r}")
    return parse_counts(field, sides[0], per_side) + parse_counts(field, sides[1], per_side)


def check_seeds(title: str, counts: Sequence[object], length: int, total: int, where: str) -> None:
    """PositionError unless ``counts`` (every pit and store of a position) are ``length`` whole numbers of at
    least 0 adding up to ``total``, the seeds the variant conserves; ``where`` says what holds them."""
    if len(counts) != length:
        raise PositionError(f"{where}: {len(counts)} counts, but {title} has {length}")
    for count in counts:
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise PositionError(f"{where}: {clip(repr(count))} is not a count of seeds (a whole number, 0 or more)")
    found = sum(counts)  # type: ignore[arg-type]
    if found != total:
        raise PositionError(f"{where} hold {found} seeds in all, but {title} always has exactly {total} "
                            "(no move adds or removes one)")


def check_side(to_move: object) -> None:
    """PositionError unless ``to_move`` is South (0) or North (1)."""
    if to_move not in (0, 1) or isinstance(to_move, bool):
        raise PositionError(f"the side to move must be S or N, not {clip(repr(to_move))}")


def format_sides(pits: Sequence[int], per_side: int) -> str:
    """The inverse of ``parse_sides``."""
    south = ",".join(map(str, pits[:per_side]))
    north = ",".join(map(str, pits[per_side:]))
    return f"{south}/{north}"


def parse_pit_label(text: str, legal: Sequence[int], per_side: int, noun: str = "pit",
                    why: Callable[[int], str] | None = None) -> int:
    """Read a pit as a player types it (1..``per_side``, the player's own numbering) into the 0-based move.

    ``legal`` are the legal moves (0-based); ``why(index)`` may say why a pit that exists cannot be played.
    Every error names what was typed, what is valid and the legal moves, all in the player's numbering.
    """
    valid = ", ".join(str(move + 1) for move in legal) or "none (the game is over)"
    number = read_whole_number(text) if isinstance(text, str) else None
    if number is None:
        typed = clip(text.strip()) if isinstance(text, str) else repr(text)
        raise NotationError(f"{typed!r} is not a {noun} number: type one of your {noun}s 1..{per_side}; "
                            f"legal moves: {valid}")
    if not 1 <= number <= per_side:
        raise IllegalMoveError(f"{noun} {number} does not exist: your {noun}s are numbered 1..{per_side}; "
                               f"legal moves: {valid}")
    if number - 1 not in legal:
        reason = why(number - 1) if why is not None and legal else ""
        raise IllegalMoveError(f"{noun} {number} cannot be played{': ' + reason if reason else ' here'}; "
                               f"legal moves: {valid}")
    return number - 1


def parse_side(field: str, value: str) -> Player:
    """``S`` or ``N`` to a player number."""
    if value not in SIDE_LETTERS:
        raise NotationError(f"{field}: expected S or N, got {value!r}")
    return SIDE_LETTERS.index(value)


def render_two_rows(
    pits: Sequence[int],
    stores: tuple[int, int] | None,
    to_move: Player | None,
    names: Sequence[str] = ("South", "North"),
) -> str:
    """A console picture of a two-row board as South sees it, with each side's pit numbers as its player sees
    them (1..n from that player's own left).

    North's pits run right to left along the top (its own left is South's right), South's left to right along
    the bottom; North's store is at the left, South's at the right.
    """
    per_side = len(pits) // 2
    south, north = pits[:per_side], pits[per_side:]
    cell = lambda count: f"[{count:>2}]"  # noqa: E731 - a tiny formatter
    label = lambda number: f" {number:>2} "  # noqa: E731
    margin = " " * 6
    north_labels = margin + "".join(label(i + 1) for i in reversed(range(per_side)))
    north_row = margin + "".join(cell(north[i]) for i in reversed(range(per_side)))
    south_row = margin + "".join(cell(south[i]) for i in range(per_side))
    south_labels = margin + "".join(label(i + 1) for i in range(per_side))
    lines = [f"{margin}{names[1]}{' (to move)' if to_move == 1 else ''}", north_labels, north_row]
    if stores is not None:
        width = 4 * per_side
        lines.append(f"  {stores[1]:>2}  " + " " * width + f"  {stores[0]:<2}")
    lines += [south_row, south_labels, f"{margin}{names[0]}{' (to move)' if to_move == 0 else ''}"]
    return "\n".join(lines)
