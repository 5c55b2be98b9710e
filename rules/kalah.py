"""Kalah, the adversary mode of the DOSE 2015 Mancala game (rules of play-mancala.com).

Source: ``docs/rules/sources/solitaire-and-kalah-dose2015.txt``; every decision made in ``docs/rules/kalah.md``:

- Parameters: ``pits`` per side (default 6), ``seeds`` per pit (default 4), ``empty_capture`` (default true).
- Sowing is counter-clockwise from the next pit, through the mover's own store, never the opponent's store.
  Laps are possible and the emptied pit receives seeds on later laps.
- The last seed in the mover's store gives the mover another move.
- The last seed in one of the mover's own pits that was empty before it landed (the emptied starting pit
  counts as empty after a full lap) captures that seed and the opposite pit's seeds.  With ``empty_capture``
  false nothing is captured when the opposite pit is empty.
- The game ends as soon as, after any move, either side's pits are all empty; each player then adds the seeds
  on their own side to their own store.  More seeds in store wins; equal is a draw.

Internally a position is the *ring*: South's pits 0..n-1, South's store, North's pits 0..n-1, North's store.
``KalahState.pits`` and ``.stores`` give the canonical view of docs/rules/kalah.md (South's pits then North's;
(south, north)).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from rules.base import Game, IllegalMoveError, NotationError, Outcome, Param, Player, Reason
from rules.events import Capture, Lap, LapKind, MoveEvents, Place
from rules.sowing import check_seeds, check_side, format_sides, parse_pit_label, parse_count, parse_side, parse_sides, read_fields, render_two_rows, SIDE_LETTERS


@dataclass(frozen=True, slots=True)
class KalahState:
    """A Kalah position: the ring of pits and stores, and the player to move."""

    ring: tuple[int, ...]
    to_move: Player

    @property
    def size(self) -> int:
        """Pits per side."""
        return len(self.ring) // 2 - 1

    @property
    def pits(self) -> tuple[int, ...]:
        """South's pits 0..n-1 then North's pits 0..n-1 (docs/rules/kalah.md's canonical order)."""
        n = self.size
        return self.ring[:n] + self.ring[n + 1 : 2 * n + 1]

    @property
    def stores(self) -> tuple[int, int]:
        """(South's store, North's store)."""
        n = self.size
        return self.ring[n], self.ring[2 * n + 1]


class Kalah(Game[KalahState, int]):
    """Kalah with ``pits`` pits per side, ``seeds`` seeds per pit, and the empty-capture choice."""

    name = "kalah"
    title = "Kalah"
    num_players = 2
    params = (
        Param("pits", int, 6, "pits per side", minimum=1, maximum=12),
        Param("seeds", int, 4, "seeds in each pit at the start", minimum=1, maximum=12),
        Param("empty_capture", bool, True, "capture the last seed alone when the opposite pit is empty"),
    )
    examples = ({}, {"pits": 3, "seeds": 3}, {"empty_capture": False}, {"pits": 4, "seeds": 12})

    def __init__(self, **parameters: object) -> None:
        super().__init__(**parameters)
        n = self._parameters["pits"]
        self.pits: int = n
        self.seeds: int = self._parameters["seeds"]
        self.empty_capture: bool = self._parameters["empty_capture"]
        self._ring_length = 2 * n + 2
        # Per player: ring index of pit 0, of the own store, of the opponent's store.
        self._first = (0, n + 1)
        self._store = (n, 2 * n + 1)
        # next_index[player][i]: where the seed after ring index i goes, skipping the opponent's store.
        self._next = tuple(
            tuple(self._step(i, player) for i in range(self._ring_length)) for player in (0, 1)
        )

    def _step(self, index: int, player: Player) -> int:
        following = (index + 1) % self._ring_length
        if following == self._store[1 - player]:
            following = (following + 1) % self._ring_length
        return following

    # -- protocol ---------------------------------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> KalahState:
        n, s = self.pits, self.seeds
        return KalahState((s,) * n + (0,) + (s,) * n + (0,), 0)

    def to_move(self, state: KalahState) -> Player:
        return state.to_move

    def legal_moves(self, state: KalahState) -> tuple[int, ...]:
        first = self._first[state.to_move]
        ring = state.ring
        if self.is_terminal(state):
            return ()
        return tuple(i for i in range(self.pits) if ring[first + i])

    def is_terminal(self, state: KalahState) -> bool:
        n = self.pits
        ring = state.ring
        return not any(ring[:n]) or not any(ring[n + 1 : 2 * n + 1])

    def outcome(self, state: KalahState) -> Outcome | None:
        if not self.is_terminal(state):
            return None
        south, north = state.stores
        n = self.pits
        # A position given by notation may have seeds left on one side: they go to their owner.
        south += sum(state.ring[:n])
        north += sum(state.ring[n + 1 : 2 * n + 1])
        winner = 0 if south > north else 1 if north > south else None
        return Outcome(winner, Reason.SIDE_EMPTY, (south, north))

    def apply(self, state: KalahState, move: int) -> KalahState:
        ring, player = self._sow(state, move)[:2]
        return KalahState(ring, player)

    def material(self, state: KalahState) -> int:
        return sum(state.ring)

    def key(self, state: KalahState) -> tuple[int, ...]:
        """The ring seen from the side to move (own pits and store first): colour-free, so positions that
        are mirror images share one transposition entry."""
        n1 = self.pits + 1
        ring = state.ring
        return ring if state.to_move == 0 else ring[n1:] + ring[:n1]

    # -- bounds of a position read from a file -------------------------------------------------------------
    def check_position(self, state: KalahState) -> None:
        """Every pit and store a count of at least 0, adding up to ``2 * pits * seeds`` (Kalah conserves them)."""
        check_seeds(f"Kalah with {self.pits} pits of {self.seeds} seeds", state.ring, self._ring_length,
                    2 * self.pits * self.seeds, "the pits and stores")
        check_side(state.to_move)

    @property
    def max_moves(self) -> int:
        """Proven: a move either adds to a store (at most ``T`` times, ``T`` the seeds) or, sowing only on the
        mover's side, lowers the sum of every seed's distance to its owner's store (at most ``T * pits``)."""
        total = 2 * self.pits * self.seeds
        return (total + 1) * (total * self.pits + 1)

    # -- the move ---------------------------------------------------------------------------------------------
    def _check(self, state: KalahState, move: object) -> int:
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"a Kalah move is a pit number 0..{self.pits - 1}, not {move!r}")
        if self.is_terminal(state):
            raise IllegalMoveError("the game is over; no move can be played")
        if not 0 <= move < self.pits:
            raise IllegalMoveError(f"pit {move} does not exist: pits are numbered 0..{self.pits - 1}")
        if not state.ring[self._first[state.to_move] + move]:
            legal = ", ".join(map(str, self.legal_moves(state)))
            raise IllegalMoveError(f"pit {move} is empty; legal moves: {legal}")
        return move

    def _sow(self, state: KalahState, move: int, record: bool = False) -> tuple:
        """Play ``move``; return (new ring, next player, extra_turn, captured, capture_pit, game_over, path)."""
        self._check(state, move)
        player = state.to_move
        n = self.pits
        board = list(state.ring)
        start = self._first[player] + move
        seeds = board[start]
        board[start] = 0
        nxt = self._next[player]
        opponent_store = self._store[1 - player]
        path: list[int] = []
        # Whole laps of 2n+1 seeds put one seed everywhere but the opponent's store; sow the rest one by one
        # (always at least one, so the last seed's pit is known).
        laps = (seeds - 1) // (2 * n + 1)
        if laps:
            for i in range(self._ring_length):
                if i != opponent_store:
                    board[i] += laps
            seeds -= laps * (2 * n + 1)
            if record:
                lap = []
                i = start
                for _ in range(2 * n + 1):
                    i = nxt[i]
                    lap.append(i)
                path.extend(lap * laps)
        pos = start
        for _ in range(seeds):
            pos = nxt[pos]
            board[pos] += 1
            if record:
                path.append(pos)
        own_store = self._store[player]
        extra_turn = pos == own_store
        captured = 0
        capture_pit = None
        first = self._first[player]
        if not extra_turn and first <= pos < first + n and board[pos] == 1:
            opposite = 2 * n - pos
            if board[opposite] or self.empty_capture:
                captured = board[opposite] + 1
                capture_pit = opposite
                board[own_store] += captured
                board[pos] = 0
                board[opposite] = 0
        game_over = not any(board[:n]) or not any(board[n + 1 : 2 * n + 1])
        if game_over:
            # Each player takes the seeds left on their own side.
            board[n] += sum(board[:n])
            board[2 * n + 1] += sum(board[n + 1 : 2 * n + 1])
            for i in range(n):
                board[i] = 0
                board[n + 1 + i] = 0
        next_player = player if extra_turn and not game_over else 1 - player
        return tuple(board), next_player, extra_turn, captured, capture_pit, game_over, tuple(path)

    def place(self, ring_index: int) -> Place:
        """The board place of a ring index (South's pits, South's store, North's pits, North's store)."""
        n = self.pits
        if ring_index == n or ring_index == 2 * n + 1:
            return Place(0 if ring_index == n else 1, 0, store=True)
        return Place(0, ring_index) if ring_index < n else Place(1, ring_index - n - 1)

    def report(self, state: KalahState, move: int) -> MoveEvents:
        """What ``move`` does in ``state``: the sowing path and which rules fired (for console and GUI)."""
        player = state.to_move
        seeds = state.ring[self._first[player] + self._check(state, move)]
        _, _, extra, captured, capture_pit, over, path = self._sow(state, move, record=True)
        picked = Place(player, move)
        drops = tuple(self.place(index) for index in path)
        captures: tuple[Capture, ...] = ()
        if captured:
            taken = ((drops[-1], 1), (self.place(capture_pit), captured - 1))
            captures = (Capture(tuple(item for item in taken if item[1]), Place(player, 0, store=True)),)
        return MoveEvents(player, picked, seeds, (Lap(LapKind.FIRST, ((picked, seeds),), drops),), captures,
                          extra_turn=extra and not over, end_reason=Reason.SIDE_EMPTY if over else None)

    def move_label(self, state: KalahState, move: int) -> str:
        return str(move + 1)

    def parse_label(self, state: KalahState, text: str) -> int:
        """A pit as the player types it, 1..pits from the player's own left."""
        return parse_pit_label(text, self.legal_moves(state), self.pits, why=lambda index: "it is empty")

    def describe_move(self, state: KalahState, move: int) -> str:
        events = self.report(state, move)
        who = self.player_names[state.to_move]
        parts = [f"{who} sows pit {events.picked} ({events.seeds} seeds)"]
        if events.captured:
            parts.append(f"captures {events.captured}")
        if events.extra_turn:
            parts.append("extra turn")
        if events.game_over:
            parts.append("game over")
        return ", ".join(parts)

    # -- playouts ---------------------------------------------------------------------------------------------
    def random_playout(self, state: KalahState, rng: random.Random) -> tuple[KalahState, int]:
        """Play uniformly random moves to the end; return the final state and the number of plies.

        The hot loop of random playouts (MCTS rollouts, the speed benchmark): it works on one list in place
        instead of building a state per ply, and gives the same positions as repeated ``apply``.
        """
        n = self.pits
        board = list(state.ring)
        player = state.to_move
        plies = 0
        nxt_tables = self._next
        stores = self._store
        firsts = self._first
        empty_capture = self.empty_capture
        lap = 2 * n + 1
        length = self._ring_length
        south = slice(0, n)
        north = slice(n + 1, 2 * n + 1)
        rand = rng.random
        if not any(board[south]) or not any(board[north]):
            return state, 0
        while True:
            first = firsts[player]
            # Uniform over the non-empty pits by rejection: much cheaper than building the list of moves.
            start = first + int(rand() * n)
            while not board[start]:
                start = first + int(rand() * n)
            seeds = board[start]
            board[start] = 0
            if seeds > lap:
                laps = (seeds - 1) // lap
                skip = stores[1 - player]
                for i in range(length):
                    if i != skip:
                        board[i] += laps
                seeds -= laps * lap
            nxt = nxt_tables[player]
            pos = start
            for _ in range(seeds):
                pos = nxt[pos]
                board[pos] += 1
            plies += 1
            if pos == stores[player]:
                # Extra turn: only the mover's side can have emptied.
                if any(board[first : first + n]):
                    continue
                player = 1 - player
            else:
                if first <= pos < first + n and board[pos] == 1:
                    opposite = 2 * n - pos
                    if board[opposite] or empty_capture:
                        board[stores[player]] += board[opposite] + 1
                        board[pos] = 0
                        board[opposite] = 0
                player = 1 - player
                if any(board[south]) and any(board[north]):
                    continue
            board[n] += sum(board[south])
            board[2 * n + 1] += sum(board[north])
            board[south] = [0] * n
            board[north] = [0] * n
            return KalahState(tuple(board), player), plies

    # -- text -------------------------------------------------------------------------------------------------
    def to_text(self, state: KalahState) -> str:
        south, north = state.stores
        return f"pits={format_sides(state.pits, self.pits)} stores={south},{north} move={SIDE_LETTERS[state.to_move]}"

    def from_text(self, text: str) -> KalahState:
        fields = read_fields(text, ("pits", "stores", "move"))
        pits = parse_sides("pits", fields["pits"], self.pits)
        stores = fields["stores"].split(",")
        if len(stores) != 2:
            raise NotationError(f"stores: expected south,north, got {fields['stores']!r}")
        south, north = (parse_count("stores", value) for value in stores)
        to_move = parse_side("move", fields["move"])
        n = self.pits
        return KalahState(pits[:n] + (south,) + pits[n:] + (north,), to_move)

    def render(self, state: KalahState) -> str:
        to_move = None if self.is_terminal(state) else state.to_move
        return render_two_rows(state.pits, state.stores, to_move, self.player_names)
