"""Hus, the mancala game of McGill's COMP 424 project (winter 2016), as the course's reference code plays it.

Source: ``docs/rules/sources/hus-comp424.txt`` and the course's ``HusBoardState.java`` (authoritative for the board
geometry and the start); every decision made in ``docs/rules/hus.md``:

- Board: 4 rows of 16.  Each player owns 32 pits, numbered in their own ring: 0..15 along the outer row from
  the owner's left to right, then 16..31 along the inner row from right to left.  Sowing goes from pit ``i`` to
  pit ``(i + 1) % 32`` of the sower's own ring; nobody ever sows into the opponent's pits.
- Start: 2 seeds in pits 0..23 of both players (48 each, 96 in all).  South moves first.
- A legal move is a pit of the mover holding 2 or more seeds whose sowing ends within ``lap_limit`` laps.
- Laps.  The seeds of the chosen pit are sown from the next pit on: that is lap 1.  When the last seed of a
  lap lands in pit ``e``:

  * ``e`` was empty before that seed: the move ends;
  * else, if ``e`` is an inner pit (16..31), it is not the first turn, and the opponent's inner pit ``47 - e``
    (opponent's numbering) holds seeds: *capture*.  The seeds of the opponent's inner pit ``47 - e`` and outer
    pit ``e - 16`` are taken and sown from the pit after ``e`` (``e`` keeps its own seeds);
  * otherwise *relay*: all seeds of ``e`` are picked up and sown from the pit after ``e``.

  Every capture or relay sowing is one more lap.  "Was empty" is judged when the last seed lands, so a lap of
  32 or more seeds that ends in its own (emptied) starting pit ends the move only if that pit had received no
  earlier seed of the same lap -- exactly the reference code's ``board[end] > 1`` test.
- First turn: while no full turn has been completed (``turn == 0``, i.e. the first move of each player),
  nothing can be captured; a would-be capture is a relay.
- Lap limit (parameter ``lap_limit``, default 200): a move that would need lap ``lap_limit + 1`` is not legal
  and is left out of ``legal_moves``.  The reference code cancels the game in that case; docs/rules/hus.md makes the
  move illegal instead.  A move may end on lap ``lap_limit`` itself.
- End: a player who has no legal move on their turn loses (this includes a player whose every pit of 2+
  seeds would exceed the lap limit).  Otherwise, the game is a draw once ``turn_limit`` turns (default 5000;
  a turn is one move of each player) have been completed: after North's 5000th move, i.e. after ply 10,000,
  with South to move.  The no-move loss is checked first, as in the reference code.  (The reference code
  tests ``turn_number > 5000`` and so draws two plies later, after ply 10,002; ``turn_limit=5001`` gives
  that behaviour.)
- Hus has no stores: ``HusState.stores`` is always None.  ``Outcome.scores`` are the seeds on each side.

Speed.  A Hus move can relay for dozens of laps and there are ~16 moves per position, and deciding whether a
move is legal means playing it (the lap limit).  So a move is played on two plain 32-int lists in place,
whole rounds of 32 seeds by arithmetic, and the rules object keeps a small first-in-first-out cache from a
state to its children: ``legal_moves`` plays every candidate once and the following ``apply`` calls on that
state (a search expanding the node) are dictionary look-ups.  ``random_playout`` is the allocation-free hot
loop for rollouts and benchmarks.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Hashable

from rules.base import Game, IllegalMoveError, Outcome, Param, Player, PositionError, Reason
from rules.events import Capture, Lap, LapKind, MoveEvents, Place
from rules.sowing import SIDE_LETTERS, check_seeds, check_side, format_sides, parse_pit_label, parse_count, parse_side, parse_sides, read_fields

RING = 32
"""Pits per player."""
WIDTH = 16
"""Pits per row."""
START_PITS = 24
"""Pits 0..23 of each player hold seeds at the start."""
START_SEEDS = 2
_CACHE_SIZE = 512
"""States whose children the rules object remembers (a depth-first search needs one per level)."""


@dataclass(frozen=True, slots=True)
class HusState:
    """A Hus position: both rings, the player to move and the number of completed turns.

    ``pits`` is docs/rules/hus.md's canonical 64-tuple: South's 32 pits in South's numbering, then North's 32 in
    North's numbering.  ``turn`` counts completed turns (one move of each player), like the reference code's
    ``turn_number``: it goes up after each of North's moves.  It decides the first-turn rule and the draw.
    """

    pits: tuple[int, ...]
    to_move: Player
    turn: int = 0

    @property
    def stores(self) -> None:
        """Hus has no stores (present so code written for Kalah and Oware can ask)."""
        return None

    @property
    def ply(self) -> int:
        """Moves played since the start (South always moves first)."""
        return 2 * self.turn + self.to_move

    def side(self, player: Player) -> tuple[int, ...]:
        """The 32 pits of ``player`` in that player's own numbering."""
        return self.pits[RING * player : RING * player + RING]


def _sow_move(mine: list[int], theirs: list[int], pit: int, can_capture: bool, lap_limit: int) -> int:
    """Play the move from ``pit`` on the mover's ring ``mine`` (opponent's ring ``theirs``) in place.

    Returns the number of laps, or -1 when the move needs more than ``lap_limit`` laps (the lists are then
    left half-played; callers work on copies).  This is the hot loop: no allocation, one seed at a time only
    for the part of a lap below one whole round of 32.
    """
    hand = mine[pit]
    mine[pit] = 0
    laps = 0
    while True:
        laps += 1
        if laps > lap_limit:
            return -1
        if hand >= RING:
            rounds, hand = divmod(hand, RING)
            for x in range(RING):
                mine[x] += rounds
            if not hand:  # the lap ends in its own starting pit
                end = pit
            else:
                end = pit + hand
        else:
            end = pit + hand
        if end < RING:
            for x in range(pit + 1, end + 1):
                mine[x] += 1
        else:
            for x in range(pit + 1, RING):
                mine[x] += 1
            end -= RING
            for x in range(end + 1):
                mine[x] += 1
        # ``end == pit`` with hand 0 after whole rounds: the last seed was the last round's, already counted.
        if mine[end] == 1:
            return laps
        if can_capture and end >= WIDTH and theirs[47 - end]:
            hand = theirs[47 - end] + theirs[end - WIDTH]
            theirs[47 - end] = 0
            theirs[end - WIDTH] = 0
        else:
            hand = mine[end]
            mine[end] = 0
        pit = end


class Hus(Game[HusState, int]):
    """Hus on the 4x16 board of McGill's COMP 424, with the lap limit and the turn limit as parameters."""

    name = "hus"
    title = "Hus"
    num_players = 2
    params = (
        Param("lap_limit", int, 200, "laps a move may take; a longer move is illegal", minimum=1, maximum=100_000),
        Param("turn_limit", int, 5000, "completed turns (a move of each player) before a draw",
              minimum=1, maximum=1_000_000),
    )
    examples = ({}, {"lap_limit": 12, "turn_limit": 40})

    def __init__(self, **parameters: object) -> None:
        super().__init__(**parameters)
        self.lap_limit: int = self._parameters["lap_limit"]
        self.turn_limit: int = self._parameters["turn_limit"]
        self._cache: dict[HusState, dict[int, HusState]] = {}

    def __getstate__(self) -> dict:
        """Pickle the parameters without the children cache (it is rebuilt on demand)."""
        return {**self.__dict__, "_cache": {}}

    # -- protocol ---------------------------------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> HusState:
        side = (START_SEEDS,) * START_PITS + (0,) * (RING - START_PITS)
        return HusState(side + side, 0, 0)

    def to_move(self, state: HusState) -> Player:
        return state.to_move

    def children(self, state: HusState) -> dict[int, HusState]:
        """Every legal move of ``state`` (in pit order) with the position it leads to.

        The lap limit makes legality depend on playing the move, so this plays each candidate once and
        remembers the answer for the last few hundred states (a FIFO cache on the rules object).  The turn
        limit is not applied here: see ``legal_moves``.  The dictionary is shared: do not modify it.
        """
        cached = self._cache.get(state)
        if cached is not None:
            return cached
        player = state.to_move
        pits = state.pits
        own = RING * player
        can_capture = state.turn > 0
        limit = self.lap_limit
        next_turn = state.turn + player
        result: dict[int, HusState] = {}
        for pit in range(RING):
            if pits[own + pit] < 2:
                continue
            south = list(pits[:RING])
            north = list(pits[RING:])
            mine, theirs = (south, north) if player == 0 else (north, south)
            if _sow_move(mine, theirs, pit, can_capture, limit) >= 0:
                result[pit] = HusState(tuple(south + north), 1 - player, next_turn)
        cache = self._cache
        if len(cache) >= _CACHE_SIZE:
            try:
                del cache[next(iter(cache))]
            except (KeyError, RuntimeError, StopIteration):  # another thread evicted it first
                pass
        cache[state] = result
        return result

    def legal_moves(self, state: HusState) -> tuple[int, ...]:
        if state.turn >= self.turn_limit:
            return ()
        return tuple(self.children(state))

    def apply(self, state: HusState, move: int) -> HusState:
        self._check(state, move)
        return self.children(state)[move]

    def is_terminal(self, state: HusState) -> bool:
        return state.turn >= self.turn_limit or not self.children(state)

    def outcome(self, state: HusState) -> Outcome | None:
        scores = (sum(state.pits[:RING]), sum(state.pits[RING:]))
        if not self.children(state):
            return Outcome(1 - state.to_move, Reason.NO_LEGAL_MOVE, scores)
        if state.turn >= self.turn_limit:
            return Outcome(None, Reason.TURN_LIMIT, scores)
        return None

    def material(self, state: HusState) -> int:
        return sum(state.pits)

    def key(self, state: HusState) -> Hashable:
        """The rings seen from the side to move (own 32 first) and whether captures are still barred.

        Hus is the same game for both colours, so mirror positions share a transposition entry.  The turn
        count is left out (it matters only for the far-off draw), as python-chess leaves out move counters.
        """
        pits = state.pits
        rings = pits if state.to_move == 0 else pits[RING:] + pits[:RING]
        return rings, state.turn == 0

    # -- the move ---------------------------------------------------------------------------------------------
    def _check(self, state: HusState, move: object) -> int:
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"a Hus move is a pit number 0..{RING - 1}, not {move!r}")
        if not 0 <= move < RING:
            raise IllegalMoveError(f"pit {move} does not exist: pits are numbered 0..{RING - 1}")
        if self.is_terminal(state):
            raise IllegalMoveError(f"the game is over; no move can be played (tried pit {move})")
        moves = self.children(state)
        if move not in moves:
            seeds = state.pits[RING * state.to_move + move]
            legal = ", ".join(map(str, moves))
            if seeds < 2:
                why = f"pit {move} holds {seeds} seed{'s' if seeds != 1 else ''}; a move needs 2 or more"
            else:
                why = f"pit {move}'s sowing would not end within {self.lap_limit} laps"
            raise IllegalMoveError(f"{why}; legal moves: {legal}")
        return move

    def report(self, state: HusState, move: int) -> MoveEvents:
        """What ``move`` does in ``state``, lap by lap (for the console and the GUI's animation).

        Played seed by seed, independently of the fast path; ``apply`` gives the same final position.  A
        capture is both a ``Capture`` (the opponent's two pits, to no store) and the ``CAPTURE`` lap that sows
        those seeds on.
        """
        self._check(state, move)
        player = state.to_move
        rings = [list(state.side(0)), list(state.side(1))]
        mine, theirs = rings[player], rings[1 - player]
        can_capture = state.turn > 0
        laps: list[Lap] = []
        captures: list[Capture] = []
        kind = LapKind.FIRST
        taken: tuple[tuple[Place, int], ...] = ((Place(player, move), mine[move]),)
        hand = mine[move]
        mine[move] = 0
        pit = move
        while True:
            path = []
            for _ in range(hand):
                pit = (pit + 1) % RING
                mine[pit] += 1
                path.append(Place(player, pit))
            laps.append(Lap(kind, taken, tuple(path)))
            if mine[pit] == 1:
                break
            inner, outer = 47 - pit, pit - WIDTH
            if can_capture and pit >= WIDTH and theirs[inner]:
                kind = LapKind.CAPTURE
                taken = ((Place(1 - player, inner), theirs[inner]), (Place(1 - player, outer), theirs[outer]))
                captures.append(Capture(taken, None))
                hand = theirs[inner] + theirs[outer]
                theirs[inner] = theirs[outer] = 0
            else:
                kind = LapKind.RELAY
                taken = ((Place(player, pit), mine[pit]),)
                hand = mine[pit]
                mine[pit] = 0
        outcome = self.outcome(self.children(state)[move])
        return MoveEvents(player, Place(player, move), laps[0].seeds, tuple(laps), tuple(captures),
                          end_reason=None if outcome is None else outcome.reason)

    def move_label(self, state: HusState, move: int) -> str:
        return str(move + 1)

    def parse_label(self, state: HusState, text: str) -> int:
        """A pit as the player types it, 1..32 in the player's own ring."""

        def why(index: int) -> str:
            seeds = state.pits[RING * state.to_move + index]
            if seeds < 2:
                return f"it holds {seeds} seed{'s' if seeds != 1 else ''}; a move needs 2 or more"
            return f"its sowing would not end within {self.lap_limit} laps"

        return parse_pit_label(text, self.legal_moves(state), RING, why=why)

    def describe_move(self, state: HusState, move: int) -> str:
        events = self.report(state, move)
        who = self.player_names[events.player]
        parts = [f"{who} sows pit {events.picked} ({events.seeds} seeds)"]
        laps = events.lap_count
        parts.append(f"{laps} lap{'s' if laps != 1 else ''}")
        if events.relays:
            parts.append(f"{events.relays} relay{'s' if events.relays != 1 else ''}")
        if events.captures:
            pits = ", ".join(str(place) for capture in events.captures for place, _ in capture.taken)
            parts.append(f"captures {events.captured} seeds from {self.player_names[1 - events.player]}'s "
                         f"pits {pits}")
        parts.append(f"ends in pit {events.last}")
        if events.game_over:
            parts.append("game over")
        return ", ".join(parts)

    # -- playouts ---------------------------------------------------------------------------------------------
    def random_playout(self, state: HusState, rng: random.Random) -> tuple[HusState, int]:
        """Play uniformly random legal moves to the end; return the final state and the number of plies.

        The hot loop of rollouts and the speed benchmark: both rings are plain lists changed in place and
        no state is built until the end.  A pit is drawn at random among the mover's untried pits of 2+
        seeds and played on the lists; if it breaks the lap limit the lists are restored from a copy and the
        pit is dropped, so the move played is uniform over the legal moves.  It reaches the same positions as
        repeated ``apply``.
        """
        rings = [list(state.side(0)), list(state.side(1))]
        player = state.to_move
        turn = state.turn
        plies = 0
        limit = self.lap_limit
        turn_limit = self.turn_limit
        rand = rng.random
        while turn < turn_limit:
            mine, theirs = rings[player], rings[1 - player]
            candidates = [pit for pit in range(RING) if mine[pit] > 1]
            while candidates:
                index = int(rand() * len(candidates))
                backup_mine, backup_theirs = mine[:], theirs[:]
                if _sow_move(mine, theirs, candidates[index], turn > 0, limit) >= 0:
                    break
                mine[:] = backup_mine
                theirs[:] = backup_theirs
                candidates[index] = candidates[-1]
                candidates.pop()
            else:
                break  # no legal move: the mover has lost
            plies += 1
            turn += player
            player = 1 - player
        return HusState(tuple(rings[0] + rings[1]), player, turn), plies

    # -- bounds of a position read from a file -------------------------------------------------------------
    def check_position(self, state: HusState) -> None:
        """64 pits holding the 96 seeds of the start (Hus conserves them: captures are sown, never removed) and
        no more completed turns than the turn limit."""
        check_seeds("Hus", state.pits, 2 * RING, 2 * START_PITS * START_SEEDS, "the pits")
        check_side(state.to_move)
        turn = state.turn
        if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn <= self.turn_limit:
            raise PositionError(f"turn: {turn!r} is out of range (expected 0 to the turn limit, {self.turn_limit})")

    @property
    def max_moves(self) -> int:
        """A game is a draw after ``turn_limit`` turns of two moves each."""
        return 2 * self.turn_limit + 2

    # -- text -------------------------------------------------------------------------------------------------
    def to_text(self, state: HusState) -> str:
        return f"pits={format_sides(state.pits, RING)} move={SIDE_LETTERS[state.to_move]} turn={state.turn}"

    def from_text(self, text: str) -> HusState:
        """Read ``pits=<South's 32>/<North's 32> move=S|N turn=<completed turns>``."""
        fields = read_fields(text, ("pits", "move", "turn"))
        pits = parse_sides("pits", fields["pits"], RING)
        to_move = parse_side("move", fields["move"])
        turn = parse_count("turn", fields["turn"])
        return HusState(pits, to_move, turn)

    def render(self, state: HusState) -> str:
        """The 4x16 board as South sees it, North on top, each row labelled; the mover's pit numbers shown as
        the player sees them (1..32, ``move_label``).

        Screen columns run left to right (internal indices): North's outer row holds North 15..0, North's inner 16..31, South's
        inner 31..16, South's outer 0..15, so each column's inner pits face each other (South ``e`` opposite
        North ``47 - e``).
        """
        over = self.is_terminal(state)
        mover = None if over else state.to_move
        south, north = state.side(0), state.side(1)
        rows = (
            ("N outer", 1, tuple(range(15, -1, -1))),
            ("N inner", 1, tuple(range(16, 32))),
            ("S inner", 0, tuple(range(31, 15, -1))),
            ("S outer", 0, tuple(range(16))),
        )
        lines = [f"{'':9}{self.player_names[1]}{' (to move)' if mover == 1 else ''}"]
        for label, owner, order in rows:
            counts = south if owner == 0 else north
            row = f"{label:<9}" + "".join(f"[{counts[pit]:>2}]" for pit in order)
            numbers = (f"{'  pit':<9}" + "".join(f" {pit + 1:>2} " for pit in order)).rstrip()
            if owner == mover == 1:
                lines += [numbers, row]
            elif owner == mover == 0:
                lines += [row, numbers]
            else:
                lines.append(row)
        lines.append(f"{'':9}{self.player_names[0]}{' (to move)' if mover == 0 else ''}")
        lines.append(f"{'':9}turn {state.turn}")
        return "\n".join(lines)
