"""Oware abapa rules: one before/after test per rule edge, and a naive reference checked against the perft counts.

Positions are written in the game's notation (South's houses 0..5 / North's houses 0..5).  The naive reference
at the bottom is a seed-by-seed transcription of docs/rules/oware.md that shares no code with ``rules.oware``; random
playouts from the start and from random endgames are compared with it move by move.

After the line, the rules audit: one hand-worked before/after case per point of docs/rules/oware.md.

Every expected value was worked out by hand from the spec text, never by running the rules module.  Positions
are in the notation ``pits=<South 0..5>/<North 0..5> stores=south,north move=S|N`` (48 seeds in all); the ring
runs South 0..5 then North 0..5 counter-clockwise, and a comment gives each sowing path.
"""
from __future__ import annotations

import random

import pytest

import rules
from rules import IllegalMoveError, NotationError, Outcome, ParameterError, Reason, get_game
from rules.events import Place
from rules.oware import Oware, OwareState
from tests.perft import counts as perft_counts, tables

GAME = Oware()


def position(south, north, stores=None, move="S", game=GAME, **extra) -> OwareState:
    """A state from the two rows; by default the seeds not on the board are split between the stores."""
    if stores is None:
        rest = game.total - sum(south) - sum(north)
        stores = (rest // 2, rest - rest // 2)
    text = (f"pits={','.join(map(str, south))}/{','.join(map(str, north))} stores={stores[0]},{stores[1]} "
            f"move={move}")
    text += "".join(f" {key}={value}" for key, value in extra.items())
    return game.from_text(text)


def houses(places: tuple[Place, ...]) -> tuple[int, ...]:
    """Places as ring indices (South's houses 0..5, North's 6..11), the way the sowing tests count."""
    return tuple(6 * place.owner + place.index for place in places)


def rows(state: OwareState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return state.pits[:6], state.pits[6:]


# -- sowing -----------------------------------------------------------------------------------------------------
def test_eleven_seeds_sow_every_other_house_once():
    before = position((11, 0, 0, 0, 0, 0), (4, 4, 4, 4, 4, 4))
    after = GAME.apply(before, 0)
    assert rows(after) == ((0, 1, 1, 1, 1, 1), (5, 5, 5, 5, 5, 5))
    assert after.stores == before.stores and after.to_move == 1
    assert houses(GAME.report(before, 0).drops) == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)


def test_twelve_seeds_skip_the_emptied_starting_house():
    before = position((12, 0, 0, 0, 0, 0), (4, 4, 4, 4, 4, 4))
    after = GAME.apply(before, 0)
    assert rows(after) == ((0, 2, 1, 1, 1, 1), (5, 5, 5, 5, 5, 5))
    assert houses(GAME.report(before, 0).drops)[-2:] == (11, 1)


def test_twenty_three_seeds_make_two_laps_skipping_the_start_both_times():
    before = position((0, 0, 23, 0, 0, 0), (1, 1, 1, 1, 1, 1))
    after = GAME.apply(before, 2)
    # 22 seeds give two to each of the 11 other houses; the 23rd lands in South's house 3.
    assert rows(after) == ((2, 2, 0, 3, 2, 2), (3, 3, 3, 3, 3, 3))
    assert after.stores == before.stores, "the last seed fell on South's own side: no capture"
    path = houses(GAME.report(before, 2).drops)
    assert len(path) == 23 and 2 not in path


def test_without_skip_start_the_starting_house_receives_seeds_on_later_laps():
    game = Oware(skip_start=False)
    before = position((12, 0, 0, 0, 0, 0), (4, 4, 4, 4, 4, 4), game=game)
    after = game.apply(before, 0)
    assert rows(after) == ((1, 1, 1, 1, 1, 1), (5, 5, 5, 5, 5, 5))


def test_north_sows_counter_clockwise_onto_south_house_zero():
    before = position((4, 4, 4, 4, 4, 4), (4, 4, 4, 4, 0, 3), move="N")
    after = GAME.apply(before, 5)
    assert rows(after) == ((5, 5, 5, 4, 4, 4), (4, 4, 4, 4, 0, 0))
    assert after.to_move == 0


# -- captures ---------------------------------------------------------------------------------------------------
def test_single_capture_of_two():
    before = position((4, 4, 4, 4, 4, 1), (1, 4, 4, 4, 4, 4), stores=(3, 3))
    after = GAME.apply(before, 5)
    assert rows(after) == ((4, 4, 4, 4, 4, 0), (0, 4, 4, 4, 4, 4))
    assert after.stores == (5, 3)
    assert after.since_capture == 0 and after.seen == frozenset()


def test_single_capture_of_three_by_north_on_south_side():
    before = position((2, 4, 4, 4, 4, 4), (4, 4, 4, 4, 4, 1), stores=(2, 3), move="N")
    after = GAME.apply(before, 5)
    assert rows(after) == ((0, 4, 4, 4, 4, 4), (4, 4, 4, 4, 4, 0))
    assert after.stores == (2, 6)


def test_chained_capture_stops_at_the_movers_own_side():
    # South's house 4 sows into its own house 5 (brought to 2) and North's houses 0 and 1 (brought to 2, 3).
    before = position((4, 4, 4, 4, 3, 1), (1, 2, 4, 4, 4, 4))
    after = GAME.apply(before, 4)
    assert rows(after) == ((4, 4, 4, 4, 0, 2), (0, 0, 4, 4, 4, 4))
    assert after.stores == (before.stores[0] + 5, before.stores[1])
    report = GAME.report(before, 4)
    assert report.captures[0].taken == ((Place(1, 1), 3), (Place(1, 0), 2)) and report.captured == 5
    assert report.captures[0].store == Place(0, 0, store=True)


def test_north_chain_does_not_wrap_round_to_its_own_side():
    # North's last seed reaches South's house 1; the chain takes South 1 and 0 and stops: North's house 5
    # (ring 11, brought to 2 by this move) is North's own.
    before = position((1, 2, 4, 4, 4, 4), (4, 4, 4, 4, 3, 1), move="N")
    after = GAME.apply(before, 4)
    assert rows(after) == ((0, 0, 4, 4, 4, 4), (4, 4, 4, 4, 0, 2))
    assert after.stores == (before.stores[0], before.stores[1] + 5)


def test_chain_stopped_by_a_house_not_holding_two_or_three():
    # South's house 3 (5 seeds) reaches North's 0, 1, 2: brought to 4, 3, 2.  North 2 and 1 are captured,
    # North 0 (4 seeds) stops the chain.
    before = position((0, 0, 0, 5, 4, 4), (3, 2, 1, 4, 4, 4))
    after = GAME.apply(before, 3)
    assert rows(after) == ((0, 0, 0, 0, 5, 5), (4, 0, 0, 4, 4, 4))
    assert after.stores == (before.stores[0] + 5, before.stores[1])


def test_chain_is_contiguous_a_later_two_behind_a_gap_stays():
    # Last seed in North 3 (-> 2); North 2 holds 5 after sowing, so North 1 (-> 2) is not captured.
    before = position((0, 0, 4, 0, 0, 4), (4, 1, 4, 1, 4, 4))
    after = GAME.apply(before, 5)
    assert rows(after) == ((0, 0, 4, 0, 0, 0), (5, 2, 5, 0, 4, 4))
    assert after.stores == (before.stores[0] + 2, before.stores[1])


def test_last_seed_on_own_side_or_making_four_captures_nothing():
    own = position((0, 0, 0, 2, 0, 1), (4, 4, 4, 4, 4, 4))
    assert GAME.apply(own, 3).stores == own.stores  # last seed in South 5 (-> 2) is South's own house
    four = position((0, 0, 0, 0, 0, 3), (1, 1, 3, 4, 4, 4))
    after = GAME.apply(four, 5)
    assert rows(after)[1] == (2, 2, 4, 4, 4, 4) and after.stores == four.stores
    assert after.since_capture == four.since_capture + 1


# -- grand slam -------------------------------------------------------------------------------------------------
GRAND_SLAM = ((0, 0, 0, 1, 2, 3), (1, 1, 1, 0, 0, 0))


def test_grand_slam_captures_nothing_and_stays_legal():
    before = position(*GRAND_SLAM, stores=(20, 19))
    assert 5 in GAME.legal_moves(before)
    after = GAME.apply(before, 5)
    assert rows(after) == ((0, 0, 0, 1, 2, 0), (2, 2, 2, 0, 0, 0))
    assert after.stores == (20, 19) and after.since_capture == 1
    report = GAME.report(before, 5)
    assert report.grand_slam and report.captured == 0 and report.captures == ()
    assert "grand slam: no capture" in GAME.describe_move(before, 5)


def test_capture_leaving_one_opponent_house_is_not_a_grand_slam():
    before = position(*GRAND_SLAM, stores=(20, 19))
    after = GAME.apply(before, 4)  # North 0 (-> 2) taken, North 1 and 2 keep their seeds
    assert rows(after)[1] == (0, 1, 1, 0, 0, 0) and after.stores == (22, 19)
    assert not GAME.report(before, 4).grand_slam


def test_grand_slam_variants_capture_or_forbid():
    capture = Oware(grand_slam="capture")
    before = position(*GRAND_SLAM, stores=(20, 19), game=capture)
    after = capture.apply(before, 5)
    assert rows(after)[1] == (0,) * 6 and after.stores == (26, 19)
    assert capture.outcome(after).winner == 0

    forbidden = Oware(grand_slam="forbidden")
    before = position(*GRAND_SLAM, stores=(20, 19), game=forbidden)
    assert forbidden.legal_moves(before) == (3, 4)
    with pytest.raises(IllegalMoveError, match="grand slam"):
        forbidden.apply(before, 5)
    only_slam = position((0, 0, 0, 0, 0, 2), (1, 1, 0, 0, 0, 0), stores=(22, 22), game=forbidden)
    assert forbidden.legal_moves(only_slam) == (5,)
    after = forbidden.apply(only_slam, 5)
    assert after.stores == (22, 22) and rows(after)[1] == (2, 2, 0, 0, 0, 0)


def test_captured_grand_slam_leaves_north_without_a_move():
    capture = Oware(grand_slam="capture")
    before = position((0, 0, 0, 1, 0, 2), (1, 1, 0, 0, 0, 0), stores=(20, 23), game=capture)
    after = capture.apply(before, 5)
    assert capture.legal_moves(after) == ()
    outcome = capture.outcome(after)
    assert outcome.reason is Reason.NO_LEGAL_MOVE and outcome.scores == (25, 23) and outcome.winner == 0


# -- feeding ----------------------------------------------------------------------------------------------------
def test_must_feed_a_player_with_no_seeds():
    before = position((1, 0, 2, 3, 0, 1), (0,) * 6)
    assert GAME.legal_moves(before) == (3, 5)
    with pytest.raises(IllegalMoveError, match="does not feed North"):
        GAME.apply(before, 2)
    with pytest.raises(IllegalMoveError, match="house 1 is empty"):
        GAME.apply(before, 1)
    after = GAME.apply(before, 3)
    assert rows(after) == ((1, 0, 2, 0, 1, 2), (1, 0, 0, 0, 0, 0))
    assert GAME.report(before, 3).fed and "must feed" in GAME.describe_move(before, 3)


def test_cannot_feed_ends_the_game_and_the_mover_takes_their_own_seeds():
    before = position((1, 1, 0, 2, 0, 0), (0,) * 6, stores=(20, 24))
    assert GAME.is_terminal(before) and GAME.legal_moves(before) == ()
    outcome = GAME.outcome(before)
    assert outcome.reason is Reason.CANNOT_FEED and outcome.scores == (24, 24) and outcome.winner is None
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.apply(before, 0)


def test_cannot_feed_is_checked_as_soon_as_the_previous_move_is_made():
    # North plays its last seed onto South's side; South cannot reach North's side: the game is over at once.
    before = position((2, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1), stores=(21, 24), move="N")
    after = GAME.apply(before, 5)
    assert rows(after) == ((3, 0, 0, 0, 0, 0), (0,) * 6)
    assert GAME.report(before, 5).end_reason is Reason.CANNOT_FEED
    outcome = GAME.outcome(after)
    assert outcome.scores == (24, 24) and outcome.winner is None


# -- end of the game --------------------------------------------------------------------------------------------
def test_twenty_five_captured_wins_with_seeds_left_on_the_board():
    before = position((4, 0, 0, 0, 0, 1), (1, 4, 0, 0, 0, 1), stores=(23, 14))
    after = GAME.apply(before, 5)
    assert after.stores == (25, 14)
    assert GAME.legal_moves(after) == ()
    outcome = GAME.outcome(after)
    assert outcome.winner == 0 and outcome.reason is Reason.MAJORITY and outcome.scores == (25, 14)


def test_twenty_four_each_is_a_draw():
    assert GAME.outcome(position((0,) * 6, (0,) * 6, stores=(24, 24))).winner is None
    # Under the default rules the last capture can never empty the board (that would be a grand slam), so
    # 24-24 by capture needs grand_slam=capture.
    capture = Oware(grand_slam="capture")
    before = position((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0), stores=(22, 24), game=capture)
    after = capture.apply(before, 5)
    outcome = capture.outcome(after)
    assert after.stores == (24, 24) and outcome.winner is None and outcome.reason is Reason.MAJORITY


def test_win_threshold_follows_the_number_of_seeds():
    small = Oware(seeds=3)  # 36 seeds: 19 wins
    before = position((1, 0, 0, 0, 0, 1), (1, 3, 0, 0, 0, 0), stores=(16, 14), game=small)
    assert small.outcome(small.apply(before, 5)) is None  # 18 is not a majority
    before = position((1, 0, 0, 0, 0, 1), (1, 3, 0, 0, 0, 0), stores=(17, 13), game=small)
    assert small.outcome(small.apply(before, 5)).winner == 0


REPEATING = ((0, 0, 0, 0, 1, 0), (0, 0, 0, 0, 1, 0))


@pytest.mark.parametrize("move_letter", ["S", "N"])
def test_a_repeated_position_ends_the_game_whoever_is_to_move(move_letter):
    player = "SN".index(move_letter)
    south, north = REPEATING
    before = position(south, north, stores=(23, 23), move=move_letter)
    after_pits = list(south + north)
    after_pits[6 * player + 4] -= 1
    after_pits[6 * player + 5] += 1
    earlier = bytes(after_pits).hex()
    with_history = position(south, north, stores=(23, 23), move=move_letter, since_capture=7, seen=earlier)
    assert GAME.apply(before, 4).since_capture == 1 and not GAME.is_terminal(GAME.apply(before, 4))
    after = GAME.apply(with_history, 4)
    assert after.pits == tuple(after_pits) and after.since_capture == 8
    outcome = GAME.outcome(after)
    assert outcome.reason is Reason.REPETITION and outcome.scores == (24, 24) and outcome.winner is None


def test_repetition_gives_each_player_their_own_seeds_and_the_higher_score_wins():
    south, north = (0, 0, 0, 0, 3, 0), (0, 1, 0, 0, 0, 0)
    before = position(south, north, stores=(20, 24), move="N")
    after_board = bytes((0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0)).hex()
    state = position(south, north, stores=(20, 24), move="N", since_capture=3, seen=after_board)
    outcome = GAME.outcome(GAME.apply(state, 1))
    assert outcome.reason is Reason.REPETITION and outcome.scores == (23, 25) and outcome.winner == 1
    assert GAME.outcome(GAME.apply(before, 1)) is None


def test_a_real_game_repetition_found_by_random_play_matches_an_earlier_position():
    found = 0
    for seed in range(400):
        trace: list[int] = []
        final, _ = GAME.random_playout(GAME.initial_state(), random.Random(seed), trace)
        if GAME.end_reason(final) is not Reason.REPETITION:
            continue
        state, earlier = GAME.initial_state(), []
        for move in trace:
            earlier.append((state.pits, state.stores))
            state = GAME.apply(state, move)
        assert state == final and (final.pits, final.stores) in earlier
        found += 1
        if found == 3:
            break
    assert found == 3


def test_history_is_kept_between_captures_and_cleared_by_a_capture():
    state = GAME.initial_state()
    boards = {state.board_key}
    for move in (2, 3, 0, 1):  # no capture in these four
        state = GAME.apply(state, move)
        assert state.since_capture == len(boards) and state.seen == frozenset(boards)
        boards.add(state.board_key)
    captured = position((4, 4, 4, 4, 4, 1), (1, 4, 4, 4, 4, 4), stores=(3, 3), since_capture=9)
    assert GAME.apply(captured, 5).seen == frozenset() and GAME.apply(captured, 5).since_capture == 0


def test_the_hundredth_move_without_capture_ends_the_game_board_seeds_count_for_nobody():
    before = position((0, 0, 1, 0, 0, 0), (0, 0, 3, 0, 0, 0), stores=(20, 24), since_capture=99)
    after = GAME.apply(before, 2)
    assert after.since_capture == 100 and GAME.legal_moves(after) == ()
    outcome = GAME.outcome(after)
    assert outcome.reason is Reason.NO_CAPTURE_LIMIT and outcome.scores == (20, 24) and outcome.winner == 1
    # A capture on the hundredth move resets the count instead.
    capturing = position((1, 0, 0, 0, 0, 1), (1, 0, 3, 0, 0, 0), stores=(20, 22), since_capture=99)
    after = GAME.apply(capturing, 5)
    assert after.since_capture == 0 and not GAME.is_terminal(after)


def test_no_capture_limit_is_a_parameter():
    game = Oware(no_capture_limit=10)
    before = position((0, 0, 1, 0, 0, 0), (0, 0, 3, 0, 0, 0), stores=(20, 24), since_capture=9, game=game)
    assert game.end_reason(game.apply(before, 2)) is Reason.NO_CAPTURE_LIMIT
    with pytest.raises(ParameterError, match="repetition"):
        Oware(no_capture_limit=0, repetition=False)


# -- moves, notation, keys --------------------------------------------------------------------------------------
def test_illegal_moves_say_why():
    start = GAME.initial_state()
    with pytest.raises(IllegalMoveError, match="houses are numbered 0..5"):
        GAME.apply(start, 6)
    with pytest.raises(IllegalMoveError, match="house number"):
        GAME.apply(start, "2")
    empty = GAME.apply(start, 2)
    with pytest.raises(IllegalMoveError, match="house 2 is empty; legal moves: 0, 1, 3, 4, 5"):
        GAME.apply(GAME.apply(empty, 0), 2)
    with pytest.raises(NotationError, match="not a house number"):
        GAME.parse_move(start, "a3")
    assert GAME.parse_move(start, " 3 ") == 3


def test_notation_round_trips_with_history():
    state = GAME.initial_state()
    for move in (2, 3, 0, 1, 5):
        state = GAME.apply(state, move)
    text = GAME.to_text(state)
    assert "since_capture=5" in text and len(text.split("seen=")[1].split(",")) == len(state.seen) == 5
    assert "040404040404040404040404" in text  # the start is among the positions seen
    assert GAME.from_text(text) == state
    assert GAME.to_text(GAME.initial_state()) == (
        "pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S since_capture=0 seen=-")


@pytest.mark.parametrize("text, field", [
    ("pits=4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S", "pits"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,x move=S", "stores"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,1 move=S", "48"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=E", "move"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S since_capture=101", "since_capture"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S since_capture=1 seen=0404", "seen"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S since_capture=1 seen=04040404040404040404040g", "seen"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S since_capture=1 seen=040404040404040404040405", "seen"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S since_capture=0 seen=050304040404040404040404", "seen"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S turn=3", "turn"),
    ("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0", "move"),
])
def test_bad_notation_names_the_field(text, field):
    with pytest.raises(NotationError, match=field):
        GAME.from_text(text)


def test_history_is_refused_in_a_variant_without_repetition():
    game = Oware(repetition=False)
    with pytest.raises(NotationError, match="seen"):
        game.from_text("pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S since_capture=1 seen=050304040404040404040404")


def test_key_leaves_out_history_and_is_seen_from_the_side_to_move():
    plain = position((0, 0, 0, 0, 3, 0), (0, 1, 0, 0, 0, 0), stores=(20, 24))
    with_history = position((0, 0, 0, 0, 3, 0), (0, 1, 0, 0, 0, 0), stores=(20, 24), since_capture=3,
                            seen="000000000200000200000000")
    assert plain != with_history and GAME.key(plain) == GAME.key(with_history)
    mirror = position((0, 1, 0, 0, 0, 0), (0, 0, 0, 0, 3, 0), stores=(24, 20), move="N")
    assert GAME.key(mirror) == GAME.key(plain)
    assert GAME.key(GAME.apply(plain, 4)) != GAME.key(plain)


def test_describe_and_render():
    before = position((4, 4, 4, 4, 3, 1), (1, 2, 4, 4, 4, 4))
    assert GAME.describe_move(before, 4) == "South sows house 5 (3 seeds), captures 5"
    picture = GAME.render(before)
    assert "South (to move)" in picture and "Moves without a capture: 0 of 100" in picture
    assert "Game over" in GAME.render(position((0,) * 6, (0,) * 6, stores=(24, 24)))


def test_registry_and_variant_parameters():
    assert get_game("oware") == GAME and GAME.spec.startswith("oware:seeds=4,grand_slam=no-capture")
    assert get_game("oware", seeds=3).initial_state().pits == (3,) * 12
    with pytest.raises(ParameterError, match="grand_slam"):
        get_game("oware", grand_slam="sometimes")


# -- perft (tests/data/perft.json) and the naive reference --------------------------------------------------------
def _perft_cases():
    for item in tables():
        if item["game"].startswith("oware:"):
            assert item["game"] == GAME.spec
            yield pytest.param(item["position"], perft_counts(item), id=item["name"])


@pytest.mark.parametrize("text, counts", list(_perft_cases()))
def test_perft_table_agrees_with_the_naive_reference(text, counts):
    state = GAME.from_text(text)
    reference = NaiveOware()
    start = reference.start_from(state.pits, state.stores, state.to_move, state.since_capture)
    for depth in range(1, min(5, max(counts)) + 1):
        assert reference.perft(start, depth) == counts[depth], f"depth {depth}"


class NaiveOware:
    """Oware abapa straight from docs/rules/oware.md, seed by seed, for cross-checking; slow and obvious on purpose.

    A position is a dict: ``cells`` (the 12 houses, South's then North's), ``score`` [south, north], ``turn``,
    ``quiet`` (moves since a capture), ``history`` (every earlier (cells, score) of this game) and ``end``
    (None, or (reason, final scores)) decided right after each move.
    """

    def __init__(self, seeds=4, grand_slam="no-capture", no_capture_limit=100, repetition=True, skip_start=True):
        self.total = 12 * seeds
        self.seeds = seeds
        self.grand_slam = grand_slam
        self.limit = no_capture_limit
        self.repetition = repetition
        self.skip_start = skip_start

    def start_from(self, cells, score, turn, quiet=0):
        pos = {"cells": list(cells), "score": list(score), "turn": turn, "quiet": quiet, "history": [],
               "end": None}
        pos["end"] = self.judge(pos)
        return pos

    @staticmethod
    def owner(index):
        return 0 if index < 6 else 1

    def sow(self, cells, player, house):
        cells = list(cells)
        start = 6 * player + house
        hand, cells[start], where = cells[start], 0, start
        while hand > 0:
            where = (where + 1) % 12
            if where == start and self.skip_start:
                continue
            cells[where] += 1
            hand -= 1
        return cells, where

    def captures(self, cells, player, last):
        taken, where = [], last
        while self.owner(where) != player and cells[where] in (2, 3) and where not in taken:
            taken.append(where)
            where = (where - 1) % 12
        return taken

    def opponent_total(self, cells, player):
        return sum(c for i, c in enumerate(cells) if self.owner(i) != player)

    def is_grand_slam(self, cells, player, house):
        sown, last = self.sow(cells, player, house)
        taken = self.captures(sown, player, last)
        return bool(taken) and sum(sown[i] for i in taken) == self.opponent_total(sown, player)

    def candidates(self, cells, player):
        moves = [h for h in range(6) if cells[6 * player + h] > 0]
        if self.opponent_total(cells, player) == 0:
            moves = [h for h in moves if self.opponent_total(self.sow(cells, player, h)[0], player) > 0]
        return moves

    def legal(self, pos):
        if pos["end"] is not None:
            return []
        moves = self.candidates(pos["cells"], pos["turn"])
        if self.grand_slam == "forbidden":
            fair = [h for h in moves if not self.is_grand_slam(pos["cells"], pos["turn"], h)]
            if fair:
                moves = fair
        return moves

    def play(self, pos, house):
        player, cells = pos["turn"], pos["cells"]
        sown, last = self.sow(cells, player, house)
        taken = self.captures(sown, player, last)
        gain = sum(sown[i] for i in taken)
        if taken and gain == self.opponent_total(sown, player) and self.grand_slam != "capture":
            taken, gain = [], 0
        for i in taken:
            sown[i] = 0
        score = list(pos["score"])
        score[player] += gain
        new = {"cells": sown, "score": score, "turn": 1 - player, "quiet": 0 if gain else pos["quiet"] + 1,
               "history": pos["history"] + [(tuple(cells), tuple(pos["score"]))], "end": None}
        new["end"] = self.judge(new)
        return new

    def judge(self, pos):
        cells, score, player = pos["cells"], pos["score"], pos["turn"]
        half = self.total // 2
        own_seeds = [sum(cells[:6]), sum(cells[6:])]
        each_takes_own = (score[0] + own_seeds[0], score[1] + own_seeds[1])
        if max(score) > half or score == [half, half]:
            return Reason.MAJORITY, tuple(score)
        if self.repetition and (tuple(cells), tuple(score)) in pos["history"]:
            return Reason.REPETITION, each_takes_own
        if self.limit and pos["quiet"] >= self.limit:
            return Reason.NO_CAPTURE_LIMIT, tuple(score)
        if own_seeds[1 - player] == 0 and not self.candidates(cells, player):
            return Reason.CANNOT_FEED, each_takes_own
        if own_seeds[player] == 0:
            return Reason.NO_LEGAL_MOVE, each_takes_own
        return None

    def perft(self, pos, depth):
        if depth == 0:
            return 1
        return sum(self.perft(self.play(pos, h), depth - 1) for h in self.legal(pos))


def _compare_game(game, reference, state, rng, max_plies=2000):
    """Play random moves in both implementations from ``state``, comparing everything after each move."""
    pos = reference.start_from(state.pits, state.stores, state.to_move, state.since_capture)
    for _ in range(max_plies):
        where = game.to_text(state)
        assert list(state.pits) == pos["cells"] and list(state.stores) == pos["score"], where
        assert state.to_move == pos["turn"] and state.since_capture == pos["quiet"], where
        moves = game.legal_moves(state)
        assert list(moves) == reference.legal(pos), where
        outcome = game.outcome(state)
        if pos["end"] is None:
            assert outcome is None, where
        else:
            winner = None if pos["end"][1][0] == pos["end"][1][1] else int(pos["end"][1][1] > pos["end"][1][0])
            assert (outcome.reason, outcome.scores, outcome.winner) == (*pos["end"], winner), where
            return pos["end"][0]
        move = rng.choice(moves)
        state, pos = game.apply(state, move), reference.play(pos, move)
    pytest.fail("the game did not end")


def _random_endgame(game, rng):
    """A random position with few seeds on the board (where the end rules fire), history empty."""
    on_board = rng.randint(1, 14)
    cells = [0] * 12
    for _ in range(on_board):
        cells[rng.randrange(12)] += 1
    rest = game.total - on_board
    south = rng.randint(max(0, rest - game.total // 2), min(rest, game.total // 2))
    text = (f"pits={','.join(map(str, cells[:6]))}/{','.join(map(str, cells[6:]))} stores={south},{rest - south} "
            f"move={rng.choice('SN')} since_capture={rng.randint(0, min(60, game.no_capture_limit or 60))}")
    return game.from_text(text)


VARIANTS = [{}, {"grand_slam": "capture"}, {"grand_slam": "forbidden"}, {"skip_start": False, "seeds": 3},
            {"repetition": False, "no_capture_limit": 30}, {"no_capture_limit": 0}]


@pytest.mark.parametrize("params", VARIANTS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_random_games_agree_with_the_naive_reference(params):
    game, reference = Oware(**params), NaiveOware(**params)
    rng = random.Random(2024)
    reasons = set()
    for _ in range(12):
        reasons.add(_compare_game(game, reference, game.initial_state(), rng))
    for _ in range(150):
        reasons.add(_compare_game(game, reference, _random_endgame(game, rng), rng))
    # The comparison must have reached the end rules, not only majorities.
    assert len(reasons) >= 3, reasons


@pytest.mark.parametrize("params", VARIANTS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_random_playout_replays_move_by_move_with_apply(params):
    game = Oware(**params)
    rng = random.Random(7)
    starts = [game.initial_state()] * 30 + [_random_endgame(game, rng) for _ in range(150)]
    for number, start in enumerate(starts):
        trace: list[int] = []
        final, plies = game.random_playout(start, random.Random(number), trace)
        assert plies == len(trace)
        state = start
        for move in trace:
            assert move in game.legal_moves(state), game.to_text(state)
            state = game.apply(state, move)
        assert state == final and game.is_terminal(final)
        assert game.material(final) == game.total


def test_random_playout_moves_are_uniform_over_legal_moves():
    state = position((1, 0, 2, 3, 0, 9), (0,) * 6, stores=(14, 19))  # legal: 3 and 5 only (must feed)
    counts = {3: 0, 5: 0}
    rng = random.Random(3)
    for _ in range(2000):
        trace: list[int] = []
        GAME.random_playout(state, rng, trace)
        counts[trace[0]] += 1
    assert 850 < counts[3] < 1150 and 850 < counts[5] < 1150


# == the rules audit: one hand-worked case per point of docs/rules/oware.md ========================================


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


def test_twelve_seeds_skip_the_emptied_starting_house_worked_by_hand():
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


def test_twenty_four_each_is_a_draw_worked_by_hand():
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
