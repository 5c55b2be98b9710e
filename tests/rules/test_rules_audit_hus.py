"""Rules audit, Hus: one hand-worked before/after case per point of docs/rules/hus.md.

Every expected value was worked out by hand from the spec text, never by running the rules module.  A side is
written as ``{pit: seeds}`` in its owner's numbering (0..15 outer row from the owner's left, 16..31 inner row
from the owner's right); pits left out are empty.  The inner pit opposite ``e`` is the opponent's ``47 - e``
and the outer pit behind it the opponent's ``e - 16``.
"""
from __future__ import annotations

import pytest

import rules
from rules import IllegalMoveError, NotationError, Outcome, Reason
from rules.hus import Hus, HusState

GAME = Hus()


def side(pits: dict[int, int]) -> tuple[int, ...]:
    return tuple(pits.get(pit, 0) for pit in range(32))


def position(south: dict[int, int], north: dict[int, int], move: str = "S", turn: int = 0, game: Hus = GAME) -> HusState:
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
    def perft(state: HusState, depth: int) -> int:
        moves = GAME.legal_moves(state)
        if depth == 1:
            return len(moves)
        return sum(perft(GAME.apply(state, move), depth - 1) for move in moves)

    assert perft(GAME.initial_state(), depth) == count


# -- rules 3, 4: a move and its laps -----------------------------------------------------------------------------
def test_a_lap_ending_in_an_empty_pit_ends_the_move_and_souths_move_does_not_count_a_turn():
    # S0 holds 2: S1, S2 (empty): the move ends.
    state = GAME.apply(position({0: 2, 5: 3}, {0: 2}, turn=7), 0)
    expect(state, {1: 1, 2: 1, 5: 3}, {0: 2}, to_move=1, turn=7)


def test_sowing_wraps_from_pit_31_to_pit_0_of_the_same_ring():
    # S30 holds 3: S31, S0, S1 (empty).
    state = GAME.apply(position({30: 3}, {0: 2}), 30)
    expect(state, {31: 1, 0: 1, 1: 1}, {0: 2}, to_move=1, turn=0)


def test_relay_picks_up_an_occupied_end_pit_and_sows_on():
    # S0 holds 2: S1, S2 (had 1, now 2: relay) -> S3, S4 (empty).  An outer pit relays even when captures are
    # allowed and North's pits are full.
    north = {pit: 1 for pit in range(32)}
    state = GAME.apply(position({0: 2, 2: 1, 10: 2}, north, turn=5), 0)
    expect(state, {1: 1, 3: 1, 4: 1, 10: 2}, north, to_move=1, turn=5)


def test_a_capture_takes_the_opposite_inner_and_outer_pits_and_sows_them_from_after_the_end_pit():
    # S14 holds 3: S15, S16, S17 (had 1: occupied, inner).  North's inner 47 - 17 = 30 holds 3: capture it and
    # North's outer 17 - 16 = 1 (4): 7 seeds sown S18..S24; S24 was empty.  S17 keeps its 2.
    before = position({5: 2, 14: 3, 17: 1}, {1: 4, 8: 2, 30: 3}, turn=1)
    state = GAME.apply(before, 14)
    expect(state, {5: 2, 15: 1, 16: 1, 17: 2, 18: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 24: 1}, {8: 2},
           to_move=1, turn=1)


def test_north_captures_the_same_way_in_its_own_numbering_and_completes_a_turn():
    before = position({1: 4, 8: 2, 30: 3}, {5: 2, 14: 3, 17: 1}, move="N", turn=1)
    state = GAME.apply(before, 14)
    expect(state, {8: 2}, {5: 2, 15: 1, 16: 1, 17: 2, 18: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 24: 1},
           to_move=0, turn=2)


def test_capture_needs_the_opposite_inner_pit_occupied():
    # As above but North's inner 30 is empty (its outer 1 is not): S17's 2 seeds relay to S18, S19.
    state = GAME.apply(position({5: 2, 14: 3, 17: 1}, {1: 4, 8: 2}, turn=1), 14)
    expect(state, {5: 2, 15: 1, 16: 1, 18: 1, 19: 1}, {1: 4, 8: 2}, to_move=1, turn=1)


def test_capture_with_the_outer_pit_empty_takes_the_inner_pit_alone():
    # North's inner 30 holds 3, outer 1 is empty: 3 seeds sown S18, S19, S20.
    state = GAME.apply(position({5: 2, 14: 3, 17: 1}, {8: 2, 30: 3}, turn=1), 14)
    expect(state, {5: 2, 15: 1, 16: 1, 17: 2, 18: 1, 19: 1, 20: 1}, {8: 2}, to_move=1, turn=1)


def test_sowing_continues_after_a_capture_with_a_relay():
    # The captured 7 end in S24, which held 1: inner, but North's 47 - 24 = 23 is empty, so relay S24's 2 seeds
    # to S25, S26 (empty).
    state = GAME.apply(position({5: 2, 14: 3, 17: 1, 24: 1}, {1: 4, 8: 2, 30: 3}, turn=1), 14)
    expect(state, {5: 2, 15: 1, 16: 1, 17: 2, 18: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 25: 1, 26: 1}, {8: 2},
           to_move=1, turn=1)


def test_sowing_continues_after_a_capture_with_a_second_capture():
    # The captured 7 end in S24 (held 1); North's inner 23 holds 1: capture it with North's outer 24 - 16 = 8
    # (2): 3 seeds sown S25, S26, S27 (empty).  North keeps only its pit 10.
    before = position({5: 2, 14: 3, 17: 1, 24: 1}, {1: 4, 8: 2, 10: 2, 23: 1, 30: 3}, turn=1)
    state = GAME.apply(before, 14)
    expect(state, {5: 2, 15: 1, 16: 1, 17: 2, 18: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 24: 2, 25: 1, 26: 1,
                   27: 1}, {10: 2}, to_move=1, turn=1)
    assert GAME.material(state) == GAME.material(before) == 19


def test_a_lap_of_32_seeds_ends_in_its_emptied_starting_pit():
    # S0 holds 32: one seed in each of S1..S31, the 32nd into S0, which was empty: the move ends.
    state = GAME.apply(position({0: 32}, {0: 2}), 0)
    expect(state, {pit: 1 for pit in range(32)}, {0: 2}, to_move=1, turn=0)


# -- rule 5: the first turn --------------------------------------------------------------------------------------
@pytest.mark.parametrize("mover", ["S", "N"])
def test_no_capture_on_either_players_first_move_a_relay_instead(mover):
    mine, theirs = {5: 2, 14: 3, 17: 1}, {1: 4, 8: 2, 30: 3}
    south, north = (mine, theirs) if mover == "S" else (theirs, mine)
    state = GAME.apply(position(south, north, move=mover, turn=0), 14)
    mine_after = {5: 2, 15: 1, 16: 1, 18: 1, 19: 1}
    if mover == "S":
        expect(state, mine_after, theirs, to_move=1, turn=0)
    else:
        expect(state, theirs, mine_after, to_move=0, turn=1)


# -- rule 3 and 6: which moves are legal -------------------------------------------------------------------------
def test_a_move_needs_a_pit_with_two_or_more_seeds():
    state = position({0: 1, 3: 2, 7: 5, 31: 1}, {0: 2})
    assert GAME.legal_moves(state) == (3, 7)
    with pytest.raises(IllegalMoveError, match="2 or more"):
        GAME.apply(state, 0)
    with pytest.raises(IllegalMoveError, match="0..31"):
        GAME.apply(state, 32)


def test_a_move_needing_more_laps_than_the_limit_is_not_legal():
    # S0's move takes 2 laps (a relay at S2), S10's one (S11, S12).
    south, north = {0: 2, 2: 1, 10: 2}, {0: 2}
    assert GAME.legal_moves(position(south, north)) == (0, 10)
    assert Hus(lap_limit=2).legal_moves(position(south, north, game=Hus(lap_limit=2))) == (0, 10)
    strict = Hus(lap_limit=1)
    state = position(south, north, game=strict)
    assert strict.legal_moves(state) == (10,)
    with pytest.raises(IllegalMoveError, match="1 laps"):
        strict.apply(state, 0)


# -- rule 7: the end ---------------------------------------------------------------------------------------------
def test_a_player_with_no_legal_move_on_their_turn_loses():
    # North's N0 (2): N1, N2.  South, to move, has only single seeds: North wins.
    state = GAME.apply(position({0: 1, 5: 1}, {0: 2}, move="N", turn=3), 0)
    expect(state, {0: 1, 5: 1}, {1: 1, 2: 1}, to_move=0, turn=4)
    assert GAME.is_terminal(state) and GAME.legal_moves(state) == ()
    assert GAME.outcome(state) == Outcome(1, Reason.NO_LEGAL_MOVE, (2, 2))


def test_draw_once_5000_turns_are_complete():
    # North's move completes turn 5000.
    state = GAME.apply(position({0: 2, 10: 2}, {0: 2, 10: 2}, move="N", turn=4999), 0)
    assert state.turn == 5000 and GAME.is_terminal(state)
    assert GAME.outcome(state) == Outcome(None, Reason.TURN_LIMIT, (4, 4))
    # South's move inside turn 4999 does not end it.
    going_on = GAME.apply(position({0: 2, 10: 2}, {0: 2, 10: 2}, move="S", turn=4999), 0)
    assert going_on.turn == 4999 and GAME.outcome(going_on) is None


def test_turn_limit_is_a_parameter():
    short = Hus(turn_limit=3)
    state = short.apply(position({0: 2, 10: 2}, {0: 2, 10: 2}, move="N", turn=2, game=short), 0)
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
