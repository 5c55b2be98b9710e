"""Hus rules: before/after positions for each rule, perft's ground truth, and a seed-by-seed reference implementation.

``NaiveHus`` below is a deliberately plain transcription of the course's reference code (``HusBoardState``):
two 32-int lists, one seed at a time, the lap counter checked before each lap.  It shares no code with
``rules/hus.py`` and is compared with it over random games.

After the line, the rules audit: one hand-worked before/after case per point of docs/rules/hus.md.

Every expected value was worked out by hand from the spec text, never by running the rules module.  A side is
written as ``{pit: seeds}`` in its owner's numbering (0..15 outer row from the owner's left, 16..31 inner row
from the owner's right); pits left out are empty.  The inner pit opposite ``e`` is the opponent's ``47 - e``
and the outer pit behind it the opponent's ``e - 16``.
"""
from __future__ import annotations

import random

import pytest

import rules
from rules import IllegalMoveError, NotationError, Outcome, Reason, get_game
from rules.events import LapKind, Place
from rules.hus import Hus, HusState
from tests.perft import counts as perft_counts, entry as perft_entry, perft


# -- an independent reference -----------------------------------------------------------------------------------
class NaiveHus:
    """The reference code's rules, seed by seed; the lap limit makes a move illegal instead of cancelling."""

    def __init__(self, lap_limit: int = 200, turn_limit: int = 5000) -> None:
        self.lap_limit = lap_limit
        self.turn_limit = turn_limit

    def play(self, board: list[list[int]], player: int, turn: int, pit: int) -> list[list[int]] | None:
        """The boards after ``player`` sows ``pit``; None when the move would exceed the lap limit."""
        board = [list(board[0]), list(board[1])]
        me, opp = board[player], board[1 - player]
        hand = me[pit]
        me[pit] = 0
        iterations = 0
        while True:
            if iterations >= self.lap_limit:
                return None
            while hand > 0:
                pit = (pit + 1) % 32
                me[pit] += 1
                hand -= 1
            iterations += 1
            if me[pit] > 1:
                if turn > 0 and 16 <= pit < 32 and opp[31 - (pit - 16)] > 0:
                    hand = opp[pit - 16] + opp[31 - (pit - 16)]
                    opp[pit - 16] = 0
                    opp[31 - (pit - 16)] = 0
                else:
                    hand = me[pit]
                    me[pit] = 0
            else:
                return board

    def moves(self, board: list[list[int]], player: int, turn: int) -> list[int]:
        return [pit for pit in range(32) if board[player][pit] > 1 and self.play(board, player, turn, pit)]

    def winner(self, board: list[list[int]], player: int, turn: int) -> str | None:
        """'S' or 'N' for a win, 'draw', or None while the game goes on."""
        if not self.moves(board, player, turn):
            return "SN"[1 - player]
        if turn >= self.turn_limit:
            return "draw"
        return None


def naive_view(state: HusState) -> tuple[list[list[int]], int, int]:
    return [list(state.pits[:32]), list(state.pits[32:])], state.to_move, state.turn


def position(south: list[int] | tuple[int, ...], north: list[int] | tuple[int, ...], to_move: int = 0,
             turn: int = 1) -> HusState:
    assert len(south) == 32 and len(north) == 32
    return HusState(tuple(south) + tuple(north), to_move, turn)


def ring(**pits: int) -> list[int]:
    """A 32-pit ring that is empty except for the named pits, written p<number>=seeds."""
    seeds = [0] * 32
    for name, count in pits.items():
        seeds[int(name[1:])] = count
    return seeds


# A South ring (found by a search, checked below against NaiveHus) on which pit 5 relays forever.
ENDLESS = [1, 0, 1, 0, 1, 3, 1, 4, 1, 0, 1, 0, 2, 1, 4, 1, 0, 1, 0, 1, 0, 2, 1, 2, 4, 0, 2, 1, 0, 1, 0, 4]


# -- perft (the counts: tests/data/perft.json, run by tests/rules/test_perft.py) ----------------------------------
def test_perft_ground_truth_of_rules_md_is_in_the_table():
    counts = perft_counts(perft_entry("hus"))
    assert (counts[1], counts[2], counts[3]) == (24, 576, 11_040)


# -- the start and the board ------------------------------------------------------------------------------------
def test_start_position_follows_the_reference_code():
    game = Hus()
    state = game.initial_state()
    assert state.pits == ((2,) * 24 + (0,) * 8) * 2
    assert game.material(state) == 96
    assert state.to_move == 0 and state.turn == 0 and state.ply == 0
    assert state.stores is None
    assert game.legal_moves(state) == tuple(range(24))


def test_first_move_lap_by_lap():
    # South sows pit 0: 2 seeds into 1 and 2 (2 -> 3), relay 3 seeds into 3, 4, 5, relay ... until pit 24.
    game = Hus()
    report = game.report(game.initial_state(), 0)
    assert report.laps[0].kind is LapKind.FIRST and report.laps[0].drops == (Place(0, 1), Place(0, 2))
    assert report.laps[1].kind is LapKind.RELAY and report.laps[1].drops == (Place(0, 3), Place(0, 4), Place(0, 5))
    assert report.laps[1].taken == ((Place(0, 2), 3),)
    assert all(lap.kind is not LapKind.CAPTURE for lap in report.laps)
    after = game.apply(game.initial_state(), 0)
    assert after.to_move == 1 and after.turn == 0 and after.ply == 1


# -- before/after: relay, capture, first turn ---------------------------------------------------------------------
def test_relay_picks_up_the_end_pit_and_sows_on():
    game = Hus()
    # South sows pit 3 (2 seeds) into 4 and 5; pit 5 held 1, so relay its 2 seeds into 6 and 7; 7 was empty.
    before = position(ring(p3=2, p5=1, p10=2), ring(p0=3))
    after = game.apply(before, 3)
    assert after.pits == position(ring(p4=1, p6=1, p7=1, p10=2), ring(p0=3), to_move=1).pits
    assert after.to_move == 1 and after.turn == 1
    kinds = [lap.kind for lap in game.report(before, 3).laps]
    assert kinds == [LapKind.FIRST, LapKind.RELAY]


def test_capture_takes_both_opposite_pits_and_sows_them_on():
    game = Hus()
    # South sows pit 14 (3 seeds) into 15, 16, 17; pit 17 (inner) held 1, North's inner pit 47-17=30 holds 4:
    # capture North's 30 (4) and outer 17-16=1 (5), then sow those 9 seeds from pit 18 to 26 (all empty).
    before = position(ring(p14=3, p17=1, p0=2), ring(p30=4, p1=5, p5=2))
    after = game.apply(before, 14)
    south = ring(p15=1, p16=1, p17=2, p0=2)
    for pit in range(18, 27):
        south[pit] += 1
    assert after.pits == tuple(south) + tuple(ring(p5=2))
    report = game.report(before, 14)
    assert [lap.kind for lap in report.laps] == [LapKind.FIRST, LapKind.CAPTURE]
    assert report.laps[1].taken == ((Place(1, 30), 4), (Place(1, 1), 5))
    assert report.captured == 9 and report.captures[0].taken == report.laps[1].taken
    assert report.captures[0].store is None, "Hus sows captured seeds on: no store"
    assert report.laps[1].drops == tuple(Place(0, pit) for pit in range(18, 27))
    assert "captures 9" in game.describe_move(before, 14)
    assert game.material(after) == game.material(before)


def test_capture_needs_the_opponents_inner_pit_not_the_outer_one():
    game = Hus()
    # Same as above but North's inner pit 30 is empty: no capture even though outer pit 1 is full -> relay.
    before = position(ring(p14=3, p17=1, p0=2), ring(p1=5, p5=2))
    after = game.apply(before, 14)
    assert after.pits[32:] == tuple(ring(p1=5, p5=2))
    # Relay 2 seeds of pit 17 into 18 and 19.
    assert after.pits[:32] == tuple(ring(p15=1, p16=1, p18=1, p19=1, p0=2))


def test_capture_with_only_the_inner_pit_filled():
    game = Hus()
    before = position(ring(p14=3, p17=1, p0=2), ring(p30=2, p5=2))
    after = game.apply(before, 14)
    assert after.pits[32:] == tuple(ring(p5=2))
    assert after.pits[:32] == tuple(ring(p15=1, p16=1, p17=2, p18=1, p19=1, p0=2))


def test_an_outer_pit_never_captures():
    game = Hus()
    # The lap ends in South's outer pit 5 (held 1); North's pits are full but outer pits never capture.
    before = position(ring(p3=2, p5=1, p0=2), [3] * 32)
    after = game.apply(before, 3)
    assert after.pits[32:] == (3,) * 32


@pytest.mark.parametrize("mover", [0, 1])
def test_first_turn_has_no_capture_for_either_player(mover):
    game = Hus()
    mine = ring(p14=3, p17=1, p0=2)
    theirs = ring(p30=4, p1=5, p5=2)
    sides = (mine, theirs) if mover == 0 else (theirs, mine)
    first = HusState(tuple(sides[0]) + tuple(sides[1]), mover, 0)
    later = HusState(first.pits, mover, 1)
    # On turn 0 the would-be capture at pit 17 is a relay: its 2 seeds go to 18 and 19.
    relayed = game.apply(first, 14)
    assert relayed.side(mover) == tuple(ring(p15=1, p16=1, p18=1, p19=1, p0=2))
    assert relayed.side(1 - mover) == tuple(theirs)
    assert [lap.kind for lap in game.report(first, 14).laps] == [LapKind.FIRST, LapKind.RELAY]
    # From turn 1 on the same move captures.
    captured = game.apply(later, 14)
    assert captured.side(1 - mover) == tuple(ring(p5=2))
    assert relayed.turn == mover and captured.turn == 1 + mover  # North's move completes a turn


def test_a_lap_of_whole_rounds_ending_in_its_emptied_start_pit():
    game = Hus()
    # 32 seeds from pit 4: one into every pit, the last into pit 4 itself, which was emptied: the move ends.
    before = position(ring(p4=32, p9=1), ring(p0=2))
    after = game.apply(before, 4)
    expected = [1] * 32
    expected[9] = 2
    assert after.pits[:32] == tuple(expected)
    # 64 seeds: pit 4 already got a seed in the first round, so the last seed relays the 2 seeds on.
    before = position(ring(p4=64, p9=1), ring(p0=2))
    report = game.report(before, 4)
    assert report.laps[1].kind is LapKind.RELAY and report.laps[1].taken == ((Place(0, 4), 2),)
    board, player, turn = naive_view(before)
    assert game.apply(before, 4).pits == tuple(sum(NaiveHus().play(board, player, turn, 4), []))


# -- the lap limit --------------------------------------------------------------------------------------------------
def test_an_endless_move_is_not_legal():
    game = Hus()
    state = position(ENDLESS, ring(p0=2, p3=2))
    board, player, turn = naive_view(state)
    assert NaiveHus(lap_limit=2000).play(board, player, turn, 5) is None  # really endless (no capture possible)
    assert 5 not in game.legal_moves(state)
    assert 24 in game.legal_moves(state)
    with pytest.raises(IllegalMoveError, match="200 laps"):
        game.apply(state, 5)
    with pytest.raises(IllegalMoveError, match="holds 0 seeds"):
        game.apply(state, 1)


def test_lap_limit_boundary_a_move_may_end_on_the_last_lap():
    state = position(ring(p3=2, p5=1, p10=2), ring(p0=3))  # pit 3 takes exactly 2 laps
    assert Hus().report(state, 3).lap_count == 2
    assert 3 in Hus(lap_limit=2).legal_moves(state)
    assert 3 not in Hus(lap_limit=1).legal_moves(state)
    assert 10 in Hus(lap_limit=1).legal_moves(state)


def test_a_player_without_legal_moves_loses():
    game = Hus()
    state = position([1] * 16 + [0] * 16, ring(p0=2), to_move=0, turn=7)
    assert game.legal_moves(state) == ()
    assert game.is_terminal(state)
    outcome = game.outcome(state)
    assert outcome.winner == 1 and outcome.reason is Reason.NO_LEGAL_MOVE
    assert outcome.scores == (16, 2)
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.apply(state, 0)
    # North to move in the mirror position: South wins.
    mirror = position(ring(p0=2), [1] * 16 + [0] * 16, to_move=1, turn=7)
    assert game.outcome(mirror).winner == 0


def test_a_player_whose_only_moves_break_the_lap_limit_loses():
    state = position(ring(p3=2, p5=1), ring(p0=3))  # pit 3 needs 2 laps, the only candidate
    assert Hus(lap_limit=1).outcome(state).winner == 1
    assert Hus(lap_limit=2).outcome(state) is None


# -- the turn limit -------------------------------------------------------------------------------------------------
def test_draw_after_the_turn_limit_exactly_at_ply_10000():
    game = Hus()
    south, north = ring(p0=2, p20=2, p8=3), ring(p0=2, p20=2, p8=3)
    state = position(south, north, to_move=0, turn=4999)  # ply 9998: South's 5000th move
    assert state.ply == 9998
    state = game.apply(state, 0)
    assert state.turn == 4999 and not game.is_terminal(state)
    state = game.apply(state, 0)  # North's 5000th move completes turn 5000: ply 10,000
    assert state.turn == 5000 and state.ply == 10_000 and state.to_move == 0
    assert game.is_terminal(state) and game.legal_moves(state) == ()
    outcome = game.outcome(state)
    assert outcome.winner is None and outcome.reason is Reason.TURN_LIMIT
    assert Hus(turn_limit=5001).legal_moves(state)  # the reference code's later draw


def test_no_move_loss_comes_before_the_draw():
    state = position([1] * 32, ring(p0=2), to_move=0, turn=5000)
    assert Hus().outcome(state).winner == 1


def test_random_playout_stops_at_the_turn_limit():
    game = Hus(turn_limit=3)
    final, plies = game.random_playout(game.initial_state(), random.Random(1))
    assert game.is_terminal(final)
    assert plies == final.ply
    assert final.turn <= 3


# -- against the independent reference --------------------------------------------------------------------------------
@pytest.mark.parametrize("lap_limit", [200, 9])
def test_matches_the_seed_by_seed_reference_over_random_games(lap_limit):
    game, naive = Hus(lap_limit=lap_limit), NaiveHus(lap_limit=lap_limit)
    rng = random.Random(lap_limit)
    for _ in range(6):
        state = game.initial_state()
        while True:
            board, player, turn = naive_view(state)
            expected_moves = naive.moves(board, player, turn)
            assert list(game.legal_moves(state)) == expected_moves, game.to_text(state)
            outcome = game.outcome(state)
            expected_winner = naive.winner(board, player, turn)
            if expected_winner is None:
                assert outcome is None
            else:
                assert outcome is not None and (outcome.winner, expected_winner) in (
                    (0, "S"), (1, "N"), (None, "draw"))
                break
            move = rng.choice(expected_moves)
            after = game.apply(state, move)
            assert after.pits == tuple(sum(naive.play(board, player, turn, move), [])), game.to_text(state)
            assert after.to_move == 1 - player and after.turn == turn + player
            state = after


def test_matches_the_reference_from_random_midgame_positions():
    # Positions with many seeds and both rows full, where captures chain and laps run long.
    game, naive = Hus(), NaiveHus()
    rng = random.Random(3)
    for _ in range(150):
        pits = [0] * 64
        for _ in range(96):
            pits[rng.randrange(64)] += 1
        state = HusState(tuple(pits), rng.randrange(2), rng.randrange(3))
        board, player, turn = naive_view(state)
        assert list(game.legal_moves(state)) == naive.moves(board, player, turn)
        for move in game.legal_moves(state):
            assert game.apply(state, move).pits == tuple(sum(naive.play(board, player, turn, move), []))
            report = game.report(state, move)
            assert sum(lap.seeds for lap in report.laps) == len(report.drops)
            assert all(place.owner == player for place in report.drops)


def test_random_playout_follows_the_rules():
    # random_playout draws among the mover's pits of 2+ seeds, dropping those that break the lap limit, with
    # the rng's random(); replaying that choice rule through apply must give the same game.
    for lap_limit in (200, 9):
        game = Hus(lap_limit=lap_limit)
        for seed in range(4):
            final, plies = game.random_playout(game.initial_state(), random.Random(seed))
            rng = random.Random(seed)
            state, count = game.initial_state(), 0
            while not game.is_terminal(state):
                legal = game.legal_moves(state)
                candidates = [pit for pit in range(32) if state.side(state.to_move)[pit] > 1]
                while True:
                    index = int(rng.random() * len(candidates))
                    if candidates[index] in legal:
                        break
                    candidates[index] = candidates[-1]
                    candidates.pop()
                state = game.apply(state, candidates[index])
                count += 1
            assert (final, plies) == (state, count)


# -- notation, report, render, key ----------------------------------------------------------------------------------
def test_notation_round_trips():
    game = Hus()
    state = position(ENDLESS, ring(p0=2, p3=17), to_move=1, turn=42)
    text = game.to_text(state)
    assert text.endswith(" move=N turn=42")
    assert game.from_text(text) == state
    assert game.to_text(game.initial_state()) == (
        "pits=" + ",".join(["2"] * 24 + ["0"] * 8) + "/" + ",".join(["2"] * 24 + ["0"] * 8) + " move=S turn=0")


@pytest.mark.parametrize("edit, field", [
    (lambda t: t.replace(" turn=0", ""), "turn"),
    (lambda t: t.replace("turn=0", "turn=-1"), "turn"),
    (lambda t: t.replace("turn=0", "turn=x"), "turn"),
    (lambda t: t.replace("move=S", "move=W"), "move"),
    (lambda t: t.replace("2,2,2,", "2,2,", 1), "pits"),
    (lambda t: t.replace("2,2,2,", "2,z,2,", 1), "pits"),
    (lambda t: t.replace("/", ",", 1), "pits"),
    (lambda t: t + " stores=0,0", "stores"),
])
def test_notation_errors_name_the_field(edit, field):
    game = Hus()
    with pytest.raises(NotationError, match=field):
        game.from_text(edit(game.to_text(game.initial_state())))


def test_bad_moves_say_why():
    game = Hus()
    start = game.initial_state()
    with pytest.raises(IllegalMoveError, match="0..31"):
        game.apply(start, 32)
    with pytest.raises(IllegalMoveError, match="pit number"):
        game.apply(start, "3")
    with pytest.raises(IllegalMoveError, match="holds 0 seeds"):
        game.apply(start, 30)
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        game.parse_move(start, "27")
    assert game.parse_move(start, " 7 ") == 7


def test_render_shows_four_labelled_rows_and_the_movers_numbers():
    game = Hus()
    state = position(ring(p0=12, p31=7), ring(p0=3, p16=5), to_move=1)
    lines = game.render(state).splitlines()
    rows = {line.split("[")[0].strip(): line for line in lines if "[" in line}
    assert list(rows) == ["N outer", "N inner", "S inner", "S outer"]
    # North's outer pit 0 is at the right end of the top row; its inner pit 16 at the left of the second.
    assert rows["N outer"].endswith("[ 3]") and rows["N inner"].split("]")[0].endswith(" 5")
    # South's inner pit 31 is leftmost in the third row, outer pit 0 leftmost in the bottom row.
    assert rows["S inner"].split("]")[0].endswith(" 7") and rows["S outer"].split("]")[0].endswith("12")
    number_lines = [line for line in lines if line.strip().startswith("pit")]
    assert len(number_lines) == 2  # the mover's two rows only
    assert number_lines[0].split()[1:3] == ["16", "15"]  # the player's numbering: internal index + 1
    assert "North (to move)" in game.render(state)


def test_key_is_colour_free_and_marks_the_first_turn():
    game = Hus()
    a = position(ring(p0=5, p20=3), ring(p7=2), to_move=0, turn=3)
    b = position(ring(p7=2), ring(p0=5, p20=3), to_move=1, turn=9)
    assert game.key(a) == game.key(b)
    assert game.key(a) != game.key(HusState(a.pits, 0, 0))


# == the rules audit: one hand-worked case per point of docs/rules/hus.md ==========================================
GAME = Hus()


def side(pits: dict[int, int]) -> tuple[int, ...]:
    return tuple(pits.get(pit, 0) for pit in range(32))


def spec_position(south: dict[int, int], north: dict[int, int], move: str = "S", turn: int = 0, game: Hus = GAME) -> HusState:
    """A state built through the notation: ``pits=<South's 32>/<North's 32> move=S|N turn=T``."""
    text = f"pits={','.join(map(str, side(south)))}/{','.join(map(str, side(north)))} move={move} turn={turn}"
    return game.from_text(text)


def expect(state: HusState, south: dict[int, int], north: dict[int, int], to_move: int, turn: int) -> None:
    assert state.side(0) == side(south), "South's pits"
    assert state.side(1) == side(north), "North's pits"
    assert (state.to_move, state.turn) == (to_move, turn)


# -- rules 1, 2, 8: board, start, canonical tuple ----------------------------------------------------------------
def test_start_is_two_seeds_in_pits_0_to_23_of_each_player():
    start = GAME.initial_state()
    expected = (2,) * 24 + (0,) * 8
    assert start.pits == expected + expected and len(start.pits) == 64
    assert start.side(0) == expected and start.side(1) == expected
    assert (start.to_move, start.turn, start.stores) == (0, 0, None)
    assert GAME.material(start) == 96
    assert GAME.legal_moves(start) == tuple(range(24))
    assert GAME.to_text(start) == "pits=" + ",".join(["2"] * 24 + ["0"] * 8) + "/" + ",".join(
        ["2"] * 24 + ["0"] * 8) + " move=S turn=0"


def test_parameters_and_registry():
    assert GAME.parameters == {"lap_limit": 200, "turn_limit": 5000}
    assert rules.get_game("hus") == GAME


@pytest.mark.parametrize("depth, count", [(1, 24), (2, 576), (3, 11_040)])
def test_ground_truth_move_sequences_from_the_start(depth, count):
    assert perft(GAME, GAME.initial_state(), depth) == count


# -- rules 3, 4: a move and its laps -----------------------------------------------------------------------------
def test_a_lap_ending_in_an_empty_pit_ends_the_move_and_souths_move_does_not_count_a_turn():
    # S0 holds 2: S1, S2 (empty): the move ends.
    state = GAME.apply(spec_position({0: 2, 5: 3}, {0: 2}, turn=7), 0)
    expect(state, {1: 1, 2: 1, 5: 3}, {0: 2}, to_move=1, turn=7)


def test_sowing_wraps_from_pit_31_to_pit_0_of_the_same_ring():
    # S30 holds 3: S31, S0, S1 (empty).
    state = GAME.apply(spec_position({30: 3}, {0: 2}), 30)
    expect(state, {31: 1, 0: 1, 1: 1}, {0: 2}, to_move=1, turn=0)


def test_relay_picks_up_an_occupied_end_pit_and_sows_on():
    # S0 holds 2: S1, S2 (had 1, now 2: relay) -> S3, S4 (empty).  An outer pit relays even when captures are
    # allowed and North's pits are full.
    north = {pit: 1 for pit in range(32)}
    state = GAME.apply(spec_position({0: 2, 2: 1, 10: 2}, north, turn=5), 0)
    expect(state, {1: 1, 3: 1, 4: 1, 10: 2}, north, to_move=1, turn=5)


def test_a_capture_takes_the_opposite_inner_and_outer_pits_and_sows_them_from_after_the_end_pit():
    # S14 holds 3: S15, S16, S17 (had 1: occupied, inner).  North's inner 47 - 17 = 30 holds 3: capture it and
    # North's outer 17 - 16 = 1 (4): 7 seeds sown S18..S24; S24 was empty.  S17 keeps its 2.
    before = spec_position({5: 2, 14: 3, 17: 1}, {1: 4, 8: 2, 30: 3}, turn=1)
    state = GAME.apply(before, 14)
    expect(state, {5: 2, 15: 1, 16: 1, 17: 2, 18: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 24: 1}, {8: 2},
           to_move=1, turn=1)


def test_north_captures_the_same_way_in_its_own_numbering_and_completes_a_turn():
    before = spec_position({1: 4, 8: 2, 30: 3}, {5: 2, 14: 3, 17: 1}, move="N", turn=1)
    state = GAME.apply(before, 14)
    expect(state, {8: 2}, {5: 2, 15: 1, 16: 1, 17: 2, 18: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 24: 1},
           to_move=0, turn=2)


def test_capture_needs_the_opposite_inner_pit_occupied():
    # As above but North's inner 30 is empty (its outer 1 is not): S17's 2 seeds relay to S18, S19.
    state = GAME.apply(spec_position({5: 2, 14: 3, 17: 1}, {1: 4, 8: 2}, turn=1), 14)
    expect(state, {5: 2, 15: 1, 16: 1, 18: 1, 19: 1}, {1: 4, 8: 2}, to_move=1, turn=1)


def test_capture_with_the_outer_pit_empty_takes_the_inner_pit_alone():
    # North's inner 30 holds 3, outer 1 is empty: 3 seeds sown S18, S19, S20.
    state = GAME.apply(spec_position({5: 2, 14: 3, 17: 1}, {8: 2, 30: 3}, turn=1), 14)
    expect(state, {5: 2, 15: 1, 16: 1, 17: 2, 18: 1, 19: 1, 20: 1}, {8: 2}, to_move=1, turn=1)


def test_sowing_continues_after_a_capture_with_a_relay():
    # The captured 7 end in S24, which held 1: inner, but North's 47 - 24 = 23 is empty, so relay S24's 2 seeds
    # to S25, S26 (empty).
    state = GAME.apply(spec_position({5: 2, 14: 3, 17: 1, 24: 1}, {1: 4, 8: 2, 30: 3}, turn=1), 14)
    expect(state, {5: 2, 15: 1, 16: 1, 17: 2, 18: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 25: 1, 26: 1}, {8: 2},
           to_move=1, turn=1)


def test_sowing_continues_after_a_capture_with_a_second_capture():
    # The captured 7 end in S24 (held 1); North's inner 23 holds 1: capture it with North's outer 24 - 16 = 8
    # (2): 3 seeds sown S25, S26, S27 (empty).  North keeps only its pit 10.
    before = spec_position({5: 2, 14: 3, 17: 1, 24: 1}, {1: 4, 8: 2, 10: 2, 23: 1, 30: 3}, turn=1)
    state = GAME.apply(before, 14)
    expect(state, {5: 2, 15: 1, 16: 1, 17: 2, 18: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 24: 2, 25: 1, 26: 1,
                   27: 1}, {10: 2}, to_move=1, turn=1)
    assert GAME.material(state) == GAME.material(before) == 19


def test_a_lap_of_32_seeds_ends_in_its_emptied_starting_pit():
    # S0 holds 32: one seed in each of S1..S31, the 32nd into S0, which was empty: the move ends.
    state = GAME.apply(spec_position({0: 32}, {0: 2}), 0)
    expect(state, {pit: 1 for pit in range(32)}, {0: 2}, to_move=1, turn=0)


# -- rule 5: the first turn --------------------------------------------------------------------------------------
@pytest.mark.parametrize("mover", ["S", "N"])
def test_no_capture_on_either_players_first_move_a_relay_instead(mover):
    mine, theirs = {5: 2, 14: 3, 17: 1}, {1: 4, 8: 2, 30: 3}
    south, north = (mine, theirs) if mover == "S" else (theirs, mine)
    state = GAME.apply(spec_position(south, north, move=mover, turn=0), 14)
    mine_after = {5: 2, 15: 1, 16: 1, 18: 1, 19: 1}
    if mover == "S":
        expect(state, mine_after, theirs, to_move=1, turn=0)
    else:
        expect(state, theirs, mine_after, to_move=0, turn=1)


# -- rule 3 and 6: which moves are legal -------------------------------------------------------------------------
def test_a_move_needs_a_pit_with_two_or_more_seeds():
    state = spec_position({0: 1, 3: 2, 7: 5, 31: 1}, {0: 2})
    assert GAME.legal_moves(state) == (3, 7)
    with pytest.raises(IllegalMoveError, match="2 or more"):
        GAME.apply(state, 0)
    with pytest.raises(IllegalMoveError, match="0..31"):
        GAME.apply(state, 32)


def test_a_move_needing_more_laps_than_the_limit_is_not_legal():
    # S0's move takes 2 laps (a relay at S2), S10's one (S11, S12).
    south, north = {0: 2, 2: 1, 10: 2}, {0: 2}
    assert GAME.legal_moves(spec_position(south, north)) == (0, 10)
    assert Hus(lap_limit=2).legal_moves(spec_position(south, north, game=Hus(lap_limit=2))) == (0, 10)
    strict = Hus(lap_limit=1)
    state = spec_position(south, north, game=strict)
    assert strict.legal_moves(state) == (10,)
    with pytest.raises(IllegalMoveError, match="1 laps"):
        strict.apply(state, 0)


# -- rule 7: the end ---------------------------------------------------------------------------------------------
def test_a_player_with_no_legal_move_on_their_turn_loses():
    # North's N0 (2): N1, N2.  South, to move, has only single seeds: North wins.
    state = GAME.apply(spec_position({0: 1, 5: 1}, {0: 2}, move="N", turn=3), 0)
    expect(state, {0: 1, 5: 1}, {1: 1, 2: 1}, to_move=0, turn=4)
    assert GAME.is_terminal(state) and GAME.legal_moves(state) == ()
    assert GAME.outcome(state) == Outcome(1, Reason.NO_LEGAL_MOVE, (2, 2))


def test_draw_once_5000_turns_are_complete():
    # North's move completes turn 5000.
    state = GAME.apply(spec_position({0: 2, 10: 2}, {0: 2, 10: 2}, move="N", turn=4999), 0)
    assert state.turn == 5000 and GAME.is_terminal(state)
    assert GAME.outcome(state) == Outcome(None, Reason.TURN_LIMIT, (4, 4))
    # South's move inside turn 4999 does not end it.
    going_on = GAME.apply(spec_position({0: 2, 10: 2}, {0: 2, 10: 2}, move="S", turn=4999), 0)
    assert going_on.turn == 4999 and GAME.outcome(going_on) is None


def test_turn_limit_is_a_parameter():
    short = Hus(turn_limit=3)
    state = short.apply(spec_position({0: 2, 10: 2}, {0: 2, 10: 2}, move="N", turn=2, game=short), 0)
    assert short.outcome(state) == Outcome(None, Reason.TURN_LIMIT, (4, 4))


# -- notation ----------------------------------------------------------------------------------------------------
def test_notation_round_trips_and_names_bad_fields():
    state = GAME.apply(GAME.apply(GAME.initial_state(), 3), 20)
    assert GAME.from_text(GAME.to_text(state)) == state and state.turn == 1
    with pytest.raises(NotationError, match="turn"):
        GAME.from_text(GAME.to_text(state).replace("turn=1", "turn=-1"))
    with pytest.raises(NotationError, match="pits"):
        GAME.from_text("pits=2,2/2,2 move=S turn=0")


@pytest.mark.parametrize("params, word", [({"lap_limit": 0}, "lap_limit"), ({"turn_limit": 0}, "turn_limit"),
                                          ({"seeds": 3}, "unknown parameter")])
def test_bad_parameters_say_what_is_valid(params, word):
    with pytest.raises(rules.ParameterError, match=word):
        Hus(**params)
