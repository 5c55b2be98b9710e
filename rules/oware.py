"""Oware, abapa variation, as set by the Durham 2015 coursework.

Source: ``docs/rules/sources/oware-abapa.html``; every decision made in ``docs/rules/oware.md``.

Board.  Two rows of six houses; the canonical ``pits`` tuple is South's houses 0..5 then North's 0..5, each in
its owner's numbering, which is also the counter-clockwise *ring* (ring index ``6 * player + house``; the
house opposite ring index ``j`` is ``11 - j``).  ``stores`` is (South's score house, North's).  A move is the
house number 0..5 relative to the mover.  South moves first.

Rules as implemented (the defaults are docs/rules/oware.md exactly):

- Sowing: all seeds of the chosen house go one per house counter-clockwise, never into a score house.  The
  starting house is skipped, so with 12 or more seeds it stays empty (``skip_start``; false gives the
  variant where it receives seeds on later laps).
- Capture: if the last seed lands in an opponent's house and brings it to 2 or 3, those seeds are captured,
  then the previous house (clockwise), and so on while it is an opponent's house holding 2 or 3.  The chain
  stops at the first other count or at the mover's own side; it never wraps round.
- Grand slam, a move whose captures would leave the opponent's side empty (``grand_slam``):
  ``no-capture`` (default) - the move is legal and captures nothing; ``capture`` - it captures as usual;
  ``forbidden`` - it is illegal unless every legal move is a grand slam, in which case it captures nothing.
- Feeding: when all the opponent's houses are empty at the start of the mover's turn, only moves that put at
  least one seed on the opponent's side are legal (house ``h`` with at least ``6 - h`` seeds).
- End of the game.  Checked on every position, in this order of precedence (the first that holds names the
  reason); a finished position is kept as it stood and ``outcome`` applies the end rule to it:

  1. ``MAJORITY``: a player has captured more than half the seeds (25 of 48): they win; exactly half each
     (24-24) is a draw.  Scores are the score houses.
  2. ``REPETITION`` (``repetition``): the 12 houses and both score houses equal a position that occurred
     earlier, whoever was to move.  Each player captures the seeds on their own side; the higher score wins.
  3. ``NO_CAPTURE_LIMIT``: ``no_capture_limit`` (default 100; 0 = none) consecutive moves without a capture
     have been played.  The score houses as they stand decide; seeds on the board count for nobody.
  4. ``CANNOT_FEED``: the opponent of the player to move has no seeds and no move of the player to move
     reaches them.  The player to move captures the seeds on their own side (so both sides' seeds go to
     their owners, as with repetition), which ends the game.  This is checked when that player's turn
     begins, i.e. on the position right after the previous move, so the position is final at once.
  5. ``NO_LEGAL_MOVE``: the player to move has no seeds.  Unreachable under the default rules (sowing never
     takes seeds from the opponent, a grand slam captures nothing and a starving player is always fed), it
     can follow a grand slam with ``grand_slam=capture`` or come from a hand-written position; the opponent
     then captures the seeds on their own side.

  Since rules 1-3 are checked first, a move that reaches the no-capture limit (or repeats a position) ends
  the game by that rule even if the next player could not feed: the game ended before that turn began.
  Under the default grand slam rule no capture can empty the board (the last seeds would all be the
  opponent's), so a 24-24 draw comes from rules 2 and 4, which give each player their own seeds.

History.  The state carries what the end rules need: ``since_capture`` (moves since the last capture, the
no-capture counter) and ``seen``, the boards of every position since the last capture before the current
one.  A capture changes the score houses, so no earlier position can recur and ``seen`` is emptied; between
captures the score houses are fixed, so a board alone identifies a position.  A board key is the 12 house
counts as bytes, ``int.from_bytes(bytes(pits), "little")``, written in the notation as 24 hex digits
(two per house, South 0..5 then North 0..5).

Notation: ``pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S since_capture=0 seen=-`` (``seen`` lists the
history boards in sorted order, ``-`` when empty).  ``since_capture`` and ``seen`` may be omitted when
reading (0 and none).
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Iterator

from rules.base import (Game, IllegalMoveError, NotationError, PositionError, Outcome, Param, ParameterError, Player, Reason, clip,
                        read_whole_number)
from rules.events import Capture, Lap, LapKind, MoveEvents, Place
from rules.sowing import SIDE_LETTERS, check_seeds, check_side, format_sides, parse_pit_label, parse_count, parse_side, parse_sides, read_fields, render_two_rows

HOUSES = 6
"""Houses per side."""
RING = 2 * HOUSES
GRAND_SLAM_RULES = ("no-capture", "capture", "forbidden")
SIDE_MASKS = (
    int.from_bytes(bytes([255] * HOUSES + [0] * HOUSES), "little"),
    int.from_bytes(bytes([0] * HOUSES + [255] * HOUSES), "little"),
)
"""Bit masks of each side's houses in a board key."""
_NO_LIMIT = 1 << 62


@dataclass(frozen=True, slots=True)
class OwareState:
    """An Oware position with the history its end rules need."""

    pits: tuple[int, ...]
    """South's houses 0..5 then North's houses 0..5."""
    stores: tuple[int, int]
    """Seeds captured: (South, North)."""
    to_move: Player
    since_capture: int = 0
    """Consecutive moves played without a capture (the no-capture counter)."""
    seen: frozenset[int] = frozenset()
    """Board keys of the positions since the last capture, the current one excluded (see ``board_key``)."""

    @property
    def board_key(self) -> int:
        """The 12 house counts packed into one int (one byte per house, South's house 0 lowest)."""
        return int.from_bytes(bytes(self.pits), "little")


def sowing_path(start: int, seeds: int, skip_start: bool = True) -> Iterator[int]:
    """Ring indices receiving the seeds of ring index ``start``, one per seed, in order."""
    pos = start
    for _ in range(seeds):
        pos = (pos + 1) % RING
        if skip_start and pos == start:
            pos = (pos + 1) % RING
        yield pos


@functools.lru_cache(maxsize=None)
def _sowing_tables(skip_start: bool, most: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """For each ring index and seed count up to ``most``: what sowing adds to the board key, and the last
    seed's ring index.  The board key is linear in the counts, so one addition sows a whole move."""
    deltas, lasts = [], []
    for start in range(RING):
        delta_row, last_row = [0], [start]
        for seeds in range(1, most + 1):
            change = [0] * RING
            change[start] -= seeds
            pos = start
            for pos in sowing_path(start, seeds, skip_start):
                change[pos] += 1
            delta_row.append(sum(count << (8 * i) for i, count in enumerate(change)))
            last_row.append(pos)
        deltas.append(tuple(delta_row))
        lasts.append(tuple(last_row))
    return tuple(deltas), tuple(lasts)


class Oware(Game[OwareState, int]):
    """Oware abapa; the parameters cover the points where rule sets differ."""

    name = "oware"
    title = "Oware"
    num_players = 2
    params = (
        Param("seeds", int, 4, "seeds in each house at the start", minimum=1, maximum=12),
        Param("grand_slam", str, "no-capture", "a move capturing all the opponent's seeds: no-capture, "
              "capture or forbidden", choices=GRAND_SLAM_RULES),
        Param("no_capture_limit", int, 100, "moves without a capture that end the game (0: no limit)",
              minimum=0, maximum=10_000),
        Param("repetition", bool, True, "a repeated position ends the game, each side taking its own seeds"),
        Param("skip_start", bool, True, "sowing skips the starting house on laps of 12 or more seeds"),
    )
    examples = (
        {},
        {"seeds": 3, "grand_slam": "capture", "no_capture_limit": 40},
        {"grand_slam": "forbidden", "skip_start": False, "repetition": False},
    )

    def __init__(self, **parameters: object) -> None:
        super().__init__(**parameters)
        self.seeds: int = self._parameters["seeds"]
        self.grand_slam: str = self._parameters["grand_slam"]
        self.no_capture_limit: int = self._parameters["no_capture_limit"]
        self.repetition: bool = self._parameters["repetition"]
        self.skip_start: bool = self._parameters["skip_start"]
        if not self.no_capture_limit and not self.repetition:
            raise ParameterError("oware: with no_capture_limit=0 the repetition rule is needed to end the game")
        self.total: int = RING * self.seeds
        """Seeds in play; more than half of them wins."""
        self._limit = self.no_capture_limit or _NO_LIMIT
        self._deltas, self._lasts = _sowing_tables(self.skip_start, self.total)

    # -- protocol ---------------------------------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> OwareState:
        return OwareState((self.seeds,) * RING, (0, 0), 0)

    def to_move(self, state: OwareState) -> Player:
        return state.to_move

    def material(self, state: OwareState) -> int:
        return sum(state.pits) + state.stores[0] + state.stores[1]

    def end_reason(self, state: OwareState) -> Reason | None:
        """Why the game is over in ``state`` (the module docstring's order of precedence), or None."""
        return self._end_reason(state, state.board_key if state.seen else 0)

    def _end_reason(self, state: OwareState, board: int) -> Reason | None:
        """``end_reason`` given the state's board key (which only matters when ``state.seen`` is not empty)."""
        south, north = state.stores
        total = self.total
        if 2 * south > total or 2 * north > total or 2 * south == 2 * north == total:
            return Reason.MAJORITY
        if state.seen and board in state.seen:
            return Reason.REPETITION
        if state.since_capture >= self._limit:
            return Reason.NO_CAPTURE_LIMIT
        base = HOUSES * state.to_move
        own = state.pits[base : base + HOUSES]
        if not any(state.pits[HOUSES - base : RING - base]) and not any(
            count + house >= HOUSES for house, count in enumerate(own)
        ):
            return Reason.CANNOT_FEED
        if not any(own):
            return Reason.NO_LEGAL_MOVE
        return None

    def is_terminal(self, state: OwareState) -> bool:
        return self.end_reason(state) is not None

    def outcome(self, state: OwareState) -> Outcome | None:
        reason = self.end_reason(state)
        if reason is None:
            return None
        south, north = state.stores
        if reason in (Reason.REPETITION, Reason.CANNOT_FEED, Reason.NO_LEGAL_MOVE):
            south += sum(state.pits[:HOUSES])
            north += sum(state.pits[HOUSES:])
        winner = 0 if south > north else 1 if north > south else None
        return Outcome(winner, reason, (south, north))

    def legal_moves(self, state: OwareState) -> tuple[int, ...]:
        if self.end_reason(state) is not None:
            return ()
        base = HOUSES * state.to_move
        own = state.pits[base : base + HOUSES]
        if any(state.pits[HOUSES - base : RING - base]):
            moves = [house for house in range(HOUSES) if own[house]]
        else:
            moves = [house for house in range(HOUSES) if own[house] + house >= HOUSES]
        if self.grand_slam == "forbidden":
            board = state.board_key
            fair = [house for house in moves if not self._sow(board, state.to_move, house)[3]]
            if fair:
                return tuple(fair)
        return tuple(moves)

    def apply(self, state: OwareState, move: int) -> OwareState:
        board = state.board_key
        pits = state.pits
        base = HOUSES * state.to_move
        # The common case is checked inline; anything unusual goes through _check, which explains or accepts.
        if (
            type(move) is not int
            or not 0 <= move < HOUSES
            or not pits[base + move]
            or self.grand_slam == "forbidden"
            or self._end_reason(state, board) is not None
            or (pits[base + move] + move < HOUSES and not any(pits[HOUSES - base : RING - base]))
        ):
            move = self._check(state, move)
        new_board, captured, _, _ = self._sow(board, state.to_move, move)
        return self._after(state, board, new_board, captured)

    def key(self, state: OwareState) -> int:
        """A transposition key without the history: houses and score houses seen from the side to move
        (own houses, opponent's houses, own store, opponent's store), packed into one int."""
        pits, stores = state.pits, state.stores
        if state.to_move == 0:
            values = pits + stores
        else:
            values = pits[HOUSES:] + pits[:HOUSES] + (stores[1], stores[0])
        return int.from_bytes(bytes(values), "little")

    # -- the move ---------------------------------------------------------------------------------------------
    def _sow(self, board: int, player: Player, house: int) -> tuple[int, int, tuple[int, ...], bool]:
        """Sow ``house`` of ``player`` on a board key; return (new board, seeds captured, captured ring
        indices, whether it is a grand slam).  Legality is the caller's business."""
        start = HOUSES * player + house
        seeds = (board >> (8 * start)) & 255
        sown = board + self._deltas[start][seeds]
        last = self._lasts[start][seeds]
        low = HOUSES - HOUSES * player  # the opponent's house 0
        captured, houses, after = 0, [], sown
        if low <= last < low + HOUSES:
            index = last
            while index >= low:
                count = (after >> (8 * index)) & 255
                if count != 2 and count != 3:
                    break
                after -= count << (8 * index)
                captured += count
                houses.append(index)
                index -= 1
        grand_slam = bool(captured) and not after & SIDE_MASKS[1 - player]
        if grand_slam and self.grand_slam != "capture":
            return sown, 0, (), True
        return after, captured, tuple(houses), grand_slam

    def _after(self, state: OwareState, board: int, new_board: int, captured: int) -> OwareState:
        """The state after a move took ``board`` to ``new_board`` capturing ``captured`` seeds."""
        mover = state.to_move
        pits = tuple(new_board.to_bytes(RING, "little"))
        if captured:
            stores = (state.stores[0] + captured, state.stores[1]) if mover == 0 else (
                state.stores[0], state.stores[1] + captured)
            return OwareState(pits, stores, 1 - mover)
        seen = state.seen | {board} if self.repetition else state.seen
        return OwareState(pits, state.stores, 1 - mover, state.since_capture + 1, seen)

    def _check(self, state: OwareState, move: object) -> int:
        """Return ``move`` if it is legal in ``state``; otherwise raise IllegalMoveError saying why."""
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"an Oware move is a house number 0..{HOUSES - 1}, not {move!r}")
        reason = self.end_reason(state)
        if reason is not None:
            raise IllegalMoveError(f"the game is over ({reason.value}); no move can be played")
        if not 0 <= move < HOUSES:
            raise IllegalMoveError(f"house {move} does not exist: houses are numbered 0..{HOUSES - 1}")
        legal = self.legal_moves(state)
        if move in legal:
            return int(move)  # an int subclass (IntEnum, say) becomes a plain house number
        listed = ", ".join(map(str, legal))
        player = state.to_move
        base = HOUSES * player
        opponent = self.player_names[1 - player]
        seeds = state.pits[base + move]
        if not seeds:
            raise IllegalMoveError(f"house {move} is empty; legal moves: {listed}")
        if not any(state.pits[HOUSES - base : RING - base]):
            raise IllegalMoveError(
                f"house {move} does not feed {opponent}: {opponent} has no seeds, so the move must reach "
                f"{opponent}'s side (house h needs at least {HOUSES} - h seeds); legal moves: {listed}"
            )
        raise IllegalMoveError(
            f"house {move} would capture every seed on {opponent}'s side (a grand slam), which this variant "
            f"forbids; legal moves: {listed}"
        )

    def report(self, state: OwareState, move: int) -> MoveEvents:
        """What ``move`` does in ``state``: the sowing path and which rules fired (for console and GUI)."""
        self._check(state, move)
        player = state.to_move
        start = HOUSES * player + move
        seeds = state.pits[start]
        board = state.board_key
        new_board, captured, houses, grand_slam = self._sow(board, player, move)
        after = self._after(state, board, new_board, captured)
        opponent_side = slice(HOUSES - HOUSES * player, RING - HOUSES * player)
        fed = not any(state.pits[opponent_side]) and any(after.pits[opponent_side])
        place = lambda index: Place(index // HOUSES, index % HOUSES)  # noqa: E731 - ring index to a house
        picked = place(start)
        path = tuple(sowing_path(start, seeds, self.skip_start))
        sown = (board + self._deltas[start][seeds]).to_bytes(RING, "little")  # after sowing, before any capture
        captures: tuple[Capture, ...] = ()
        if captured:
            taken = tuple((place(house), sown[house]) for house in houses)
            captures = (Capture(taken, Place(player, 0, store=True)),)
        lap = Lap(LapKind.FIRST, ((picked, seeds),), tuple(place(index) for index in path))
        return MoveEvents(player, picked, seeds, (lap,), captures, end_reason=self.end_reason(after),
                          grand_slam=grand_slam, fed=fed)

    def move_label(self, state: OwareState, move: int) -> str:
        return str(move + 1)

    def parse_label(self, state: OwareState, text: str) -> int:
        """A house as the player types it, 1..6 from the player's own left."""
        player = state.to_move
        opponent = self.player_names[1 - player]

        def why(index: int) -> str:
            if not state.pits[HOUSES * player + index]:
                return "it is empty"
            if not any(state.pits[HOUSES - HOUSES * player : RING - HOUSES * player]):
                return f"it does not reach {opponent}, who has no seeds and must be fed"
            return f"it would capture every seed on {opponent}'s side (a grand slam), which this variant forbids"

        return parse_pit_label(text, self.legal_moves(state), HOUSES, "house", why)

    def describe_move(self, state: OwareState, move: int) -> str:
        events = self.report(state, move)
        who, other = self.player_names[events.player], self.player_names[1 - events.player]
        parts = [f"{who} sows house {events.picked} ({events.seeds} seed{'s' if events.seeds != 1 else ''})"]
        if events.fed:
            parts.append(f"must feed: feeds {other}")
        if events.captured:
            parts.append(f"captures {events.captured}")
        if events.grand_slam:
            parts.append("grand slam: captures everything" if events.captured else "grand slam: no capture")
        if events.end_reason is not None:
            parts.append(f"game over: {events.end_reason.value}")
        return ", ".join(parts)

    # -- playouts ---------------------------------------------------------------------------------------------
    def random_playout(
        self, state: OwareState, rng: random.Random, trace: list[int] | None = None
    ) -> tuple[OwareState, int]:
        """Play uniformly random legal moves to the end; return the final state and the number of plies.

        The hot loop of random playouts (MCTS rollouts, the speed benchmark): the board is one int (a byte
        per house) that a whole sowing changes with one table addition.  Moves are drawn by rejection, which
        is uniform over the legal moves.  Each move played is appended to ``trace`` if given, so a test can
        replay the game with ``apply`` and compare.
        """
        if self.end_reason(state) is not None:
            return state, 0
        deltas, lasts = self._deltas, self._lasts
        south_mask, north_mask = SIDE_MASKS
        # Per player: own house 0's ring index, the opponent's, the opponent's mask, the own mask.
        sides = ((0, HOUSES, north_mask, south_mask), (HOUSES, 0, south_mask, north_mask))
        board = state.board_key
        player = state.to_move
        stores = list(state.stores)
        counter = state.since_capture
        seen = set(state.seen)
        track = self.repetition
        limit = self._limit
        total = self.total
        slam_captures = self.grand_slam == "capture"
        slam_forbidden = self.grand_slam == "forbidden"
        bits = rng.getrandbits
        plies = 0
        while True:
            base, low, opponent_mask, own_mask = sides[player]
            high = low + HOUSES
            starving = not board & opponent_mask
            while True:
                start = bits(3)  # 0..7, and 6 and 7 are drawn again: cheaper than int(random() * 6)
                if start >= HOUSES:
                    continue
                start += base
                seeds = (board >> (start << 3)) & 255
                if not seeds or (starving and seeds + start - base < HOUSES):
                    continue
                new_board = board + deltas[start][seeds]
                last = lasts[start][seeds]
                captured = 0
                if low <= last < high:
                    count = (new_board >> (last << 3)) & 255
                    if count == 2 or count == 3:
                        after = new_board
                        while True:
                            after -= count << (last << 3)
                            captured += count
                            last -= 1
                            if last < low:
                                break
                            count = (after >> (last << 3)) & 255
                            if count != 2 and count != 3:
                                break
                        if after & opponent_mask or slam_captures:
                            new_board = after
                        elif slam_forbidden and self._has_fair_move(board, player, starving, start - base):
                            continue  # an illegal grand slam: draw again
                        else:
                            captured = 0
                break
            plies += 1
            if trace is not None:
                trace.append(start - base)
            if captured:
                board = new_board
                mine = stores[player] + captured
                stores[player] = mine
                counter = 0
                seen.clear()
                player ^= 1
                if 2 * mine >= total and (2 * mine > total or 2 * stores[player] == total):
                    break
                if not board & opponent_mask:  # a captured grand slam: the player to move has no seeds
                    break
            else:
                counter += 1
                player ^= 1
                if track:
                    seen.add(board)
                    board = new_board
                    if board in seen:
                        break
                else:
                    board = new_board
                if counter >= limit:
                    break
            if not board & own_mask:
                # The previous mover has no seeds: the player to move must feed them, if they can.
                base = HOUSES * player
                if not any(((board >> ((base + h) << 3)) & 255) + h >= HOUSES for h in range(HOUSES)):
                    break
        final = OwareState(tuple(board.to_bytes(RING, "little")), (stores[0], stores[1]), player, counter,
                           frozenset(seen))
        return final, plies

    def _has_fair_move(self, board: int, player: Player, starving: bool, excluded: int) -> bool:
        """Whether ``player`` has a legal move other than ``excluded`` that is not a grand slam."""
        base = HOUSES * player
        for house in range(HOUSES):
            seeds = (board >> (8 * (base + house))) & 255
            if house == excluded or not seeds or (starving and seeds + house < HOUSES):
                continue
            if not self._sow(board, player, house)[3]:
                return True
        return False

    # -- text -------------------------------------------------------------------------------------------------
    def format_move(self, state: OwareState, move: int) -> str:
        return str(move)

    def parse_move(self, state: OwareState, text: str) -> int:
        """A house number typed by a player, checked for legality (errors say what would be valid)."""
        move = read_whole_number(text) if isinstance(text, str) else None
        if move is None:
            legal = ", ".join(map(str, self.legal_moves(state))) or "none (the game is over)"
            typed = clip(text) if isinstance(text, str) else repr(text)
            raise NotationError(
                f"{typed!r} is not a house number: type one of your houses 0..{HOUSES - 1} (legal now: {legal})"
            )
        return self._check(state, move)

    # -- bounds of a position read from a file -------------------------------------------------------------
    def check_position(self, state: OwareState) -> None:
        """Houses and score houses adding up to the variant's seeds, the no-capture counter within its limit
        and no more remembered positions than moves since the last capture."""
        check_seeds(f"Oware with {self.seeds} seeds a house", state.pits + tuple(state.stores), RING + 2,
                    self.total, "the houses and score houses")
        check_side(state.to_move)
        limit = self.no_capture_limit or self.max_moves
        since = state.since_capture
        if isinstance(since, bool) or not isinstance(since, int) or not 0 <= since <= limit:
            raise PositionError(f"since_capture: {clip(repr(since))} is out of range (expected 0 to {limit})")
        if len(state.seen) > since:
            raise PositionError(f"seen: {len(state.seen)} positions remembered but since_capture={since}; there is "
                                "at most one position per move since the last capture")

    @property
    def max_moves(self) -> int:
        """Proven with a no-capture limit: a capture takes at least 2 seeds, so at most ``total / 2`` captures,
        each after at most ``no_capture_limit`` moves without one."""
        if not self.no_capture_limit:
            return super().max_moves
        return (self.total // 2 + 1) * (self.no_capture_limit + 1)

    def to_text(self, state: OwareState) -> str:
        south, north = state.stores
        seen = ",".join(sorted(key.to_bytes(RING, "little").hex() for key in state.seen)) or "-"
        return (
            f"pits={format_sides(state.pits, HOUSES)} stores={south},{north} move={SIDE_LETTERS[state.to_move]}"
            f" since_capture={state.since_capture} seen={seen}"
        )

    def from_text(self, text: str) -> OwareState:
        fields = read_fields(text, ("pits", "stores", "move"), ("since_capture", "seen"))
        pits = parse_sides("pits", fields["pits"], HOUSES)
        stores = fields["stores"].split(",")
        if len(stores) != 2:
            raise NotationError(f"stores: expected south,north, got {fields['stores']!r}")
        south, north = (parse_count("stores", value) for value in stores)
        if sum(pits) + south + north != self.total:
            raise NotationError(
                f"pits and stores hold {sum(pits) + south + north} seeds in all; expected {self.total} "
                f"({RING} houses of {self.seeds})"
            )
        to_move = parse_side("move", fields["move"])
        limit = self.no_capture_limit or None
        since_capture = parse_count("since_capture", fields.get("since_capture", "0"), maximum=limit)
        seen = self._parse_seen(fields.get("seen", "-"), sum(pits), since_capture)
        return OwareState(pits, (south, north), to_move, since_capture, seen)

    def _parse_seen(self, value: str, on_board: int, since_capture: int) -> frozenset[int]:
        if value == "-":
            return frozenset()
        if not self.repetition:
            raise NotationError("seen: this variant has no repetition rule, so no history is kept; write seen=-")
        keys = []
        for item in value.split(","):
            try:
                raw = bytes.fromhex(item)
            except ValueError:
                raw = b""
            if len(item) != 2 * RING or len(raw) != RING:
                raise NotationError(
                    f"seen: {item!r} is not a board; expected {2 * RING} hex digits (two per house, South's "
                    f"houses 0..5 then North's), boards separated by commas, or - for none"
                )
            if sum(raw) != on_board:
                raise NotationError(
                    f"seen: board {item} holds {sum(raw)} seeds but the position has {on_board} on the board; "
                    f"positions since the last capture have the same seeds on the board"
                )
            keys.append(int.from_bytes(raw, "little"))
        if len(set(keys)) > since_capture:
            raise NotationError(
                f"seen: {len(set(keys))} positions listed but since_capture={since_capture}; "
                f"there is at most one position per move since the last capture"
            )
        return frozenset(keys)

    def render(self, state: OwareState) -> str:
        reason = self.end_reason(state)
        picture = render_two_rows(state.pits, state.stores, None if reason else state.to_move, self.player_names)
        if reason is not None:
            return f"{picture}\nGame over: {reason.value}"
        limit = f" of {self.no_capture_limit}" if self.no_capture_limit else ""
        return f"{picture}\nMoves without a capture: {state.since_capture}{limit}"
