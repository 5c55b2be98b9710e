"""Rules audit, Oware abapa: one hand-worked before/after case per point of docs/rules/oware.md.

Every expected value was worked out by hand from the spec text, never by running the rules module.  Positions
are in the notation ``pits=<South 0..5>/<North 0..5> stores=south,north move=S|N`` (48 seeds in all); the ring
runs South 0..5 then North 0..5 counter-clockwise, and a comment gives each sowing path.
"""
from __future__ import annotations

import pytest

import rules
from rules import IllegalMoveError, NotationError, Outcome, Reason
from rules.oware import Oware, OwareState

GAME = Oware()


def board(state: OwareState) -> str:
    """Houses, score houses and the side to move, as the notation writes them (history left out)."""
    return " ".join(GAME.to_text(state).split()[:3])


def play(text: str, *moves: int) -> OwareState:
    state = GAME.from_text(text)
    for move in moves:
        state = GAME.apply(state, move)
    return state


# -- rule 1: the start -------------------------------------------------------------------------------------------
def test_start_is_four_seeds_in_twelve_houses_and_south_moves_first():
    start = GAME.initial_state()
    assert GAME.to_text(start) == "pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S since_capture=0 seen=-"
    assert start.pits == (4,) * 12 and start.stores == (0, 0) and GAME.to_move(start) == 0
    assert GAME.material(start) == 48
    assert GAME.legal_moves(start) == (0, 1, 2, 3, 4, 5)
    assert rules.get_game("oware") == GAME


# -- rule 2: sowing ----------------------------------------------------------------------------------------------
def test_sowing_is_one_seed_per_house_counter_clockwise_into_the_opponents_row():
    # S4 holds 5: S5, N0, N1, N2, N3; N3 goes 4 -> 5, so nothing is captured.
    state = play("pits=4,4,4,4,5,4/4,4,4,4,4,3 stores=0,0 move=S", 4)
    assert board(state) == "pits=4,4,4,4,0,5/5,5,5,5,4,3 stores=0,0 move=N"


def test_twelve_seeds_skip_the_emptied_starting_house():
    # S3 holds 12: S4, S5, N0..N5, S0, S1, S2 (11 houses), S3 skipped, the 12th seed into S4 (own side).
    state = play("pits=1,1,1,12,1,1/1,1,1,1,1,1 stores=12,13 move=S", 3)
    assert board(state) == "pits=2,2,2,0,3,2/2,2,2,2,2,2 stores=12,13 move=N"


def test_north_laps_twice_skipping_its_starting_house_each_time():
    # N0 holds 23 = 2 x 11 (N1..N5, S0..S5) + 1 more into N1, its own side: no capture.
    state = play("pits=1,1,1,1,1,1/23,0,0,0,0,0 stores=10,9 move=N", 0)
    assert board(state) == "pits=3,3,3,3,3,3/0,3,2,2,2,2 stores=10,9 move=S"


# -- rule 3: captures --------------------------------------------------------------------------------------------
def test_capture_chain_runs_clockwise_from_the_last_house():
    # S5 holds 3: N0 1->2, N1 2->3, N2 1->2.  N2, N1, N0 are captured (7); N3 and N5 keep theirs.
    state = play("pits=4,4,4,4,4,3/1,2,1,4,0,1 stores=8,8 move=S", 5)
    assert board(state) == "pits=4,4,4,4,4,0/0,0,0,4,0,1 stores=15,8 move=N"
    assert state.since_capture == 0 and state.seen == frozenset()


def test_capture_chain_stops_at_the_movers_own_row_even_on_a_two():
    # S4 holds 4: S5 1->2, N0 1->2, N1 2->3, N2 1->2.  N2, N1, N0 captured (7); S5 (two seeds) is South's own.
    state = play("pits=4,4,4,4,4,1/1,2,1,4,0,1 stores=9,9 move=S", 4)
    assert board(state) == "pits=4,4,4,4,0,2/0,0,0,4,0,1 stores=16,9 move=N"


def test_north_capture_chain_stops_at_norths_own_row():
    # N4 holds 3: N5 1->2, S0 1->2, S1 2->3.  S1 and S0 captured (5); N5 is North's own house.
    state = play("pits=1,2,4,4,4,4/4,4,4,4,3,1 stores=5,4 move=N", 4)
    assert board(state) == "pits=0,0,4,4,4,4/4,4,4,4,0,2 stores=5,9 move=S"


def test_capture_chain_stops_at_a_house_holding_four():
    # S5 holds 3: N0 3->4, N1 2->3, N2 1->2.  N2 and N1 captured (5); N0 (4) stops the chain.
    state = play("pits=4,4,4,4,4,3/3,2,1,4,0,1 stores=7,7 move=S", 5)
    assert board(state) == "pits=4,4,4,4,4,0/4,0,0,4,0,1 stores=12,7 move=N"


def test_capture_chain_is_contiguous():
    # S5 holds 3: N0 1->2, N1 3->4, N2 1->2.  Only N2 is captured; N0's two are behind the four.
    state = play("pits=4,4,4,4,4,3/1,3,1,4,0,1 stores=8,7 move=S", 5)
    assert board(state) == "pits=4,4,4,4,4,0/2,4,0,4,0,1 stores=10,7 move=N"


@pytest.mark.parametrize(
    "before, move, after",
    [
        # S0 holds 2: S1 1->2, S2 2->3, South's own houses: nothing is captured.
        ("pits=2,1,2,4,4,4/4,4,4,4,4,4 stores=5,2 move=S", 0, "pits=0,2,3,4,4,4/4,4,4,4,4,4 stores=5,2 move=N"),
        # S5 holds 1: N0 3->4.
        ("pits=4,4,4,4,4,1/3,4,4,4,4,4 stores=2,2 move=S", 5, "pits=4,4,4,4,4,0/4,4,4,4,4,4 stores=2,2 move=N"),
        # S5 holds 1: N0 0->1.
        ("pits=4,4,4,4,4,1/0,4,4,4,4,4 stores=4,3 move=S", 5, "pits=4,4,4,4,4,0/1,4,4,4,4,4 stores=4,3 move=N"),
    ],
    ids=["own side", "makes four", "makes one"],
)
def test_no_capture_unless_the_last_seed_makes_two_or_three_on_the_opponents_side(before, move, after):
    state = play(before, move)
    assert board(state) == after and state.since_capture == 1


# -- rule 4: grand slam ------------------------------------------------------------------------------------------
def test_grand_slam_captures_nothing_and_the_move_stays_legal():
    # S5 holds 2: N0 1->2, N1 2->3; taking both would leave North nothing, so nothing is taken.
    before = GAME.from_text("pits=10,10,10,0,0,2/1,2,0,0,0,0 stores=7,6 move=S since_capture=3")
    assert 5 in GAME.legal_moves(before)
    state = GAME.apply(before, 5)
    assert board(state) == "pits=10,10,10,0,0,0/2,3,0,0,0,0 stores=7,6 move=N"
    assert state.since_capture == 4  # a grand slam captures nothing, so it is a move without a capture


def test_a_capture_leaving_the_opponent_one_seed_is_no_grand_slam():
    # As above with one seed on N5: N1 and N0 are captured (5).
    state = play("pits=10,10,10,0,0,2/1,2,0,0,0,1 stores=7,5 move=S", 5)
    assert board(state) == "pits=10,10,10,0,0,0/0,0,0,0,0,1 stores=12,5 move=N"


# -- rule 5: feeding ---------------------------------------------------------------------------------------------
def test_a_player_must_feed_an_opponent_with_no_seeds():
    # North is empty: only S3 (3 seeds: S4, S5, N0) reaches North; S0 (1) and S4 (1) do not.
    before = GAME.from_text("pits=1,0,0,3,1,0/0,0,0,0,0,0 stores=21,22 move=S")
    assert GAME.legal_moves(before) == (3,)
    for move in (0, 4):
        with pytest.raises(IllegalMoveError, match="feed"):
            GAME.apply(before, move)
    assert board(GAME.apply(before, 3)) == "pits=1,0,0,0,2,1/1,0,0,0,0,0 stores=21,22 move=N"


def test_a_player_who_cannot_feed_takes_their_own_seeds_and_the_game_ends():
    # North is empty and neither S0 (1 seed, needs 6) nor S1 (2, needs 5) reaches it: South takes its 3.
    state = GAME.from_text("pits=1,2,0,0,0,0/0,0,0,0,0,0 stores=22,23 move=S")
    assert GAME.is_terminal(state) and GAME.legal_moves(state) == ()
    assert GAME.outcome(state) == Outcome(0, Reason.CANNOT_FEED, (25, 23))


def test_cannot_feed_ends_the_game_right_after_the_move_that_emptied_a_side():
    # North's last seed (N5 -> S0) leaves North empty; South's S0 (2 seeds) cannot reach North: South takes 2.
    state = play("pits=1,0,0,0,0,0/0,0,0,0,0,1 stores=23,23 move=N", 5)
    assert GAME.outcome(state) == Outcome(0, Reason.CANNOT_FEED, (25, 23))


# -- rule 6: the end ---------------------------------------------------------------------------------------------
def test_twenty_five_captured_wins_at_once_and_board_seeds_count_for_nobody():
    # S5 holds 1: N0 1->2, captured: South has 25.
    state = play("pits=1,0,0,0,0,1/1,0,0,0,0,1 stores=23,21 move=S", 5)
    assert board(state) == "pits=1,0,0,0,0,0/0,0,0,0,0,1 stores=25,21 move=N"
    assert GAME.outcome(state) == Outcome(0, Reason.MAJORITY, (25, 21))
    assert GAME.legal_moves(state) == ()


def test_twenty_four_each_is_a_draw():
    state = GAME.from_text("pits=0,0,0,0,0,0/0,0,0,0,0,0 stores=24,24 move=S")
    assert GAME.outcome(state) == Outcome(None, Reason.MAJORITY, (24, 24))
    going_on = GAME.from_text("pits=1,0,0,0,0,0/0,0,0,0,0,1 stores=23,23 move=S")
    assert GAME.outcome(going_on) is None


CYCLE = (5, 5, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4)
"""Two lone seeds chase each other round the board: S5->N0, N5->S0 (forced: South must be fed), then each
steps one house at a time until they are back on S5 and N5 after 12 moves, South to move again."""


def test_a_repeated_position_ends_the_game_each_side_taking_its_own_seeds():
    before = "pits=0,0,0,0,0,1/0,0,0,0,0,1 stores=24,22 move=S"
    state = play(before, *CYCLE[:-1])
    assert not GAME.is_terminal(state)
    assert board(state) == "pits=0,0,0,0,0,1/0,0,0,0,1,0 stores=24,22 move=N"
    state = GAME.apply(state, CYCLE[-1])
    assert board(state) == "pits=0,0,0,0,0,1/0,0,0,0,0,1 stores=24,22 move=S"
    assert GAME.outcome(state) == Outcome(0, Reason.REPETITION, (25, 23))


def test_the_forced_feed_in_the_cycle():
    state = play("pits=0,0,0,0,0,1/0,0,0,0,0,1 stores=24,22 move=S", 5)
    assert GAME.legal_moves(state) == (5,)  # N0's lone seed cannot reach South; N5's can


def test_repetition_counts_whoever_is_to_move():
    # The history holds the board S5=1, N5=1 (written as 12 two-digit hex counts).  North's N4 -> N5 recreates
    # it with South to move; the rule ignores who was to move then.
    earlier = "000000000001000000000001"
    before = GAME.from_text(f"pits=0,0,0,0,0,1/0,0,0,0,1,0 stores=23,23 move=N since_capture=1 seen={earlier}")
    state = GAME.apply(before, 4)
    assert GAME.outcome(state) == Outcome(None, Reason.REPETITION, (24, 24))


def test_history_records_each_position_and_a_capture_clears_it():
    start = GAME.initial_state()
    first = GAME.apply(start, 0)  # S0: S1..S4 -> 5, no capture
    assert first.since_capture == 1 and GAME.to_text(first).endswith("seen=040404040404040404040404")
    captured = play("pits=4,4,4,4,4,3/1,2,1,4,0,1 stores=8,8 move=S since_capture=7", 5)
    assert captured.since_capture == 0 and GAME.to_text(captured).endswith("since_capture=0 seen=-")


def test_the_hundredth_move_without_a_capture_ends_the_game_on_the_score_houses():
    # S5 -> N0 (0 -> 1): no capture, the 100th such move.  The two seeds on the board count for nobody.
    state = play("pits=0,0,0,0,0,1/0,0,0,0,0,1 stores=24,22 move=S since_capture=99", 5)
    assert state.since_capture == 100
    assert GAME.outcome(state) == Outcome(0, Reason.NO_CAPTURE_LIMIT, (24, 22))
    assert not GAME.is_terminal(play("pits=0,0,0,0,0,1/0,0,0,0,0,1 stores=24,22 move=S since_capture=98", 5))


def test_a_capture_on_the_hundredth_move_resets_the_count():
    # S5 -> N0 (1 -> 2): captured, North keeps N5: the counter restarts and the game goes on at 24-22.
    state = play("pits=1,0,0,0,0,1/1,0,0,0,0,1 stores=22,22 move=S since_capture=99", 5)
    assert board(state) == "pits=1,0,0,0,0,0/0,0,0,0,0,1 stores=24,22 move=N"
    assert state.since_capture == 0 and GAME.outcome(state) is None


# -- notation and input ------------------------------------------------------------------------------------------
def test_notation_round_trips_with_its_history():
    state = GAME.initial_state()
    for move in (0, 0, 1):
        state = GAME.apply(state, move)
    assert GAME.from_text(GAME.to_text(state)) == state


@pytest.mark.parametrize(
    "text, word",
    [
        ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,1 move=S", "48"),
        ("pits=4,4,4,4,4,4/4,4,4,4,4 stores=0,0 move=S", "pits"),
        ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=W", "move"),
        ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S since_capture=x", "since_capture"),
        ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S since_capture=1 seen=zz", "seen"),
    ],
)
def test_bad_notation_names_what_is_wrong(text, word):
    with pytest.raises(NotationError, match=word):
        GAME.from_text(text)


def test_typed_moves_are_house_numbers_and_errors_list_the_legal_ones():
    state = GAME.from_text("pits=1,0,0,3,1,0/0,0,0,0,0,0 stores=21,22 move=S")
    assert GAME.parse_move(state, " 3") == 3
    with pytest.raises(NotationError, match="legal now: 3"):
        GAME.parse_move(state, "three")
    with pytest.raises(IllegalMoveError, match="legal moves: 3"):
        GAME.parse_move(state, "1")


def test_parameters_defaults_and_ranges():
    assert GAME.parameters == {"seeds": 4, "grand_slam": "no-capture", "no_capture_limit": 100,
                               "repetition": True, "skip_start": True}
    for bad, word in (({"seeds": 0}, "seeds"), ({"grand_slam": "sometimes"}, "no-capture"),
                      ({"no_capture_limit": -1}, "no_capture_limit"), ({"houses": 6}, "unknown parameter"),
                      ({"no_capture_limit": 0, "repetition": False}, "repetition")):
        with pytest.raises(rules.ParameterError, match=word):
            Oware(**bad)
    assert Oware(seeds=3).total == 36
