"""Solitaire Mancala rules: one before/after test per sentence of SR004, the ends (SR005, SR006, repetition),
notation and typed rounds, and docs/rules/solitaire.md point 6 (the dose claims) checked by exhaustive search.

After the line, the rules audit: one hand-worked case per rule SR001-SR006 and docs/rules/solitaire.md.

Every expected value was worked out by hand from the spec text, never by running the rules module.  Holes are
named by number as the source does (1 = hole01 .. 12 = hole12); a board is every hole holding one stone except
the holes listed.  The rings, as docs/rules/solitaire.md draws them:

    clockwise:       hole01..hole06, (store02), hole12..hole07, (store01), hole01
    anti-clockwise:  hole06..hole01, (store01), hole07..hole12, (store02), hole06
"""
from __future__ import annotations

import pytest

import rules
from rules import IllegalMoveError, NotationError, Outcome, ParameterError, Reason, get_game
from rules.solitaire import Round, Solitaire, SolitaireState, random_deal

DOSE = Solitaire()
LEWIS = Solitaire(variant="lewis")


def position(holes: str, select: str = "free", stores: str = "0,0", game: Solitaire = DOSE) -> SolitaireState:
    return game.from_text(f"holes={holes} stores={stores} select={select}")


def after(game: Solitaire, before: SolitaireState, text: str) -> str:
    """The position after the round typed as ``text``, in notation (history left out)."""
    state = game.apply(before, game.parse_move(before, text))
    return game.to_text(SolitaireState(state.board, state.stores, state.selected, (), state.end))


BOTH = pytest.mark.parametrize("game", [DOSE, LEWIS], ids=["dose", "lewis"])


# -- SR004(A): clockwise ---------------------------------------------------------------------------------------
@BOTH
def test_clockwise_drops_one_per_hole_from_the_next_and_the_next_round_starts_where_the_last_fell(game):
    before = position("3,1,1,1,1,1/1,1,1,1,1,1", game=game)
    assert after(game, before, "1 cw") == "holes=0,2,2,2,1,1/1,1,1,1,1,1 stores=0,0 select=4"


@BOTH
def test_clockwise_skips_store02_after_hole06_when_more_than_one_stone_remains(game):
    before = position("1,1,1,1,3,1/1,1,1,1,1,1", game=game)
    # hole06 (2 left), store02 skipped, hole12, hole11 (last)
    assert after(game, before, "5 cw") == "holes=1,1,1,1,0,2/1,1,1,1,2,2 stores=0,0 select=11"


@BOTH
def test_clockwise_skips_store01_after_hole07_when_more_than_one_stone_remains(game):
    before = position("1,1,1,1,1,1/1,3,1,1,1,1", game=game)
    assert after(game, before, "8 cw") == "holes=2,2,1,1,1,1/2,0,1,1,1,1 stores=0,0 select=2"


def test_clockwise_one_stone_left_after_hole06_goes_into_store02_and_the_next_round_starts_at_hole06():
    before = position("1,1,1,3,1,1/1,1,1,1,1,1")
    assert after(DOSE, before, "4 cw") == "holes=1,1,1,0,2,2/1,1,1,1,1,1 stores=0,1 select=6"


def test_clockwise_one_stone_left_after_hole07_goes_into_store01_and_the_next_round_starts_at_hole07():
    before = position("1,1,1,1,1,1/1,1,3,1,1,1")
    assert after(DOSE, before, "9 cw") == "holes=1,1,1,1,1,1/2,2,0,1,1,1 stores=1,0 select=7"


# -- SR004(B): anti-clockwise ----------------------------------------------------------------------------------
@BOTH
def test_anticlockwise_drops_one_per_hole_from_the_next(game):
    before = position("1,1,1,1,1,3/1,1,1,1,1,1", game=game)
    assert after(game, before, "6 ccw") == "holes=1,1,2,2,2,0/1,1,1,1,1,1 stores=0,0 select=3"


@BOTH
def test_anticlockwise_skips_store01_after_hole01_when_more_than_one_stone_remains(game):
    before = position("1,3,1,1,1,1/1,1,1,1,1,1", game=game)
    assert after(game, before, "2 ccw") == "holes=2,0,1,1,1,1/2,2,1,1,1,1 stores=0,0 select=8"


@BOTH
def test_anticlockwise_skips_store02_after_hole12_when_more_than_one_stone_remains(game):
    before = position("1,1,1,1,1,1/1,1,1,1,3,1", game=game)
    assert after(game, before, "11 ccw") == "holes=1,1,1,1,2,2/1,1,1,1,0,2 stores=0,0 select=5"


def test_anticlockwise_one_stone_left_after_hole01_goes_into_store01_and_the_next_round_starts_at_hole01():
    before = position("1,1,3,1,1,1/1,1,1,1,1,1")
    assert after(DOSE, before, "3 ccw") == "holes=2,2,0,1,1,1/1,1,1,1,1,1 stores=1,0 select=1"


def test_anticlockwise_one_stone_left_after_hole12_goes_into_store02_and_the_next_round_starts_at_hole12():
    before = position("1,1,1,1,1,1/1,1,1,3,1,1")
    assert after(DOSE, before, "10 ccw") == "holes=1,1,1,1,1,1/1,1,1,0,2,2 stores=0,1 select=12"


def test_a_round_started_from_the_selected_hole_lapping_the_board():
    before = position("1,1,1,1,1,1/1,1,1,1,1,14", select="12")
    # 14 stones from hole12 anti-clockwise: hole06..hole01, hole07..hole12, hole06, hole05 (last, not empty)
    assert after(DOSE, before, "ccw") == "holes=2,2,2,2,3,3/2,2,2,2,2,1 stores=0,0 select=5"


# -- a single stone picked up from a row-end hole --------------------------------------------------------------
def test_dose_a_single_stone_picked_up_from_an_end_hole_is_not_stored_but_sown_past_the_store():
    before = position("1,1,1,1,1,1/1,1,1,1,1,1", select="6")
    assert after(DOSE, before, "cw") == "holes=1,1,1,1,1,0/1,1,1,1,1,2 stores=0,0 select=12"
    assert Round(None, "cw", True) not in DOSE.legal_moves(before)
    with pytest.raises(IllegalMoveError, match="not a choice"):
        DOSE.apply(before, Round(None, "cw", True))


def test_lewis_a_single_stone_picked_up_from_an_end_hole_may_be_set_aside_then_the_hole_is_free_to_choose():
    before = position("1,1,1,1,1,1/1,1,1,1,1,1", select="7", game=LEWIS)
    assert after(LEWIS, before, "cw aside") == "holes=1,1,1,1,1,1/0,1,1,1,1,1 stores=1,0 select=free"
    assert after(LEWIS, before, "cw") == "holes=2,1,1,1,1,1/0,1,1,1,1,1 stores=0,0 select=1"
    # Only going towards the store: anti-clockwise from hole07 there is no store next.
    assert Round(None, "ccw", True) not in LEWIS.legal_moves(before)


def test_lewis_after_a_drop_at_a_row_end_the_player_may_keep_sowing_past_the_store():
    before = position("1,1,3,1,1,1/1,1,1,1,1,1", game=LEWIS)
    assert after(LEWIS, before, "3 ccw aside") == "holes=2,2,0,1,1,1/1,1,1,1,1,1 stores=1,0 select=1"
    assert after(LEWIS, before, "3 ccw") == "holes=2,2,0,1,1,1/2,1,1,1,1,1 stores=0,0 select=7"


def test_lewis_keeping_the_stone_into_an_empty_hole_past_the_store_loses():
    before = position("1,1,3,1,1,1/0,1,1,1,1,1", game=LEWIS)
    state = LEWIS.apply(before, LEWIS.parse_move(before, "3 ccw"))
    assert LEWIS.outcome(state).reason is Reason.LAST_STONE_IN_EMPTY_HOLE


# -- ends -------------------------------------------------------------------------------------------------------
@BOTH
def test_the_last_stone_into_an_empty_hole_loses_with_the_stones_stored_as_score(game):
    before = position("2,1,0,1,1,1/1,1,1,1,1,1", stores="3,4", game=game)
    state = game.apply(before, game.parse_move(before, "1 cw"))
    assert game.is_terminal(state) and game.legal_moves(state) == ()
    outcome = game.outcome(state)
    assert (outcome.winner, outcome.reason, outcome.scores) == (None, Reason.LAST_STONE_IN_EMPTY_HOLE, (7,))


def test_the_emptied_starting_hole_counts_as_empty_when_a_lap_reaches_it():
    before = position("1,1,1,1,1,12/1,1,1,1,1,1", select="6")
    state = DOSE.apply(before, Round(None, "cw", False))
    assert state.board[5] == 1 and DOSE.outcome(state).reason is Reason.LAST_STONE_IN_EMPTY_HOLE


def test_lewis_is_won_when_the_last_stone_is_set_aside():
    before = position("0,0,0,0,0,1/0,0,0,0,0,0", select="6", stores="20,27", game=LEWIS)
    state = LEWIS.apply(before, LEWIS.parse_move(before, "cw aside"))
    assert LEWIS.is_terminal(state) and LEWIS.outcome(state).winner == 0
    assert LEWIS.outcome(state).reason is Reason.BOARD_CLEARED and LEWIS.outcome(state).scores == (48,)


def test_dose_cannot_clear_the_last_stone():
    before = position("0,0,0,0,0,1/0,0,0,0,0,0", select="6", stores="20,27")
    assert DOSE.legal_moves(before) == (Round(None, "cw"), Round(None, "ccw"))
    state = DOSE.apply(before, Round(None, "cw", False))
    assert state.board[11] == 1 and DOSE.outcome(state).reason is Reason.LAST_STONE_IN_EMPTY_HOLE
    assert DOSE.outcome(state).winner is None and DOSE.outcome(state).scores == (47,)


def test_a_repeated_round_start_position_ends_the_game_with_the_score_as_it_stands():
    before = position("2,0,1,1,1,1/1,1,1,1,1,1", select="1", stores="2,3")
    # The round 'cw' leads to hole03 with 2 stones: put that position in the history first.
    repeated = ((0, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1), 2)
    state = DOSE.apply(SolitaireState(before.board, before.stores, 0, (repeated,)), Round(None, "cw", False))
    outcome = DOSE.outcome(state)
    assert (outcome.winner, outcome.reason, outcome.scores) == (None, Reason.REPETITION, (5,))
    fresh = DOSE.apply(before, Round(None, "cw", False))
    assert not DOSE.is_terminal(fresh)


def test_a_677_round_cycle_found_by_search_ends_in_repetition_exactly_when_it_closes():
    state = position("9,2,6,5,2,14/4,0,1,0,3,2", select="2", game=LEWIS)
    start = state.position
    for number in range(1, 678):
        assert not LEWIS.is_terminal(state), f"ended early at round {number}"
        state = LEWIS.apply(state, Round(None, "cw", False))
    assert state.position == start and LEWIS.outcome(state).reason is Reason.REPETITION
    assert LEWIS.key(state) == LEWIS.key(position("9,2,6,5,2,14/4,0,1,0,3,2", select="2", game=LEWIS))


# -- deals, notation, typed rounds -------------------------------------------------------------------------------
def test_random_deals_have_48_stones_at_least_one_per_hole_and_depend_only_on_the_seed():
    deals = {random_deal(seed) for seed in range(200)}
    assert len(deals) == 200
    for deal in deals:
        assert sum(deal) == 48 and min(deal) >= 1
    assert DOSE.initial_state(seed=7) == get_game("solitaire").initial_state(seed=7)
    assert DOSE.initial_state(seed=7).selected is None and DOSE.initial_state(seed=7).stores == (0, 0)


def test_moves_are_listed_in_a_fixed_order_and_set_aside_only_under_lewis_when_it_can_happen():
    state = position("1,1,3,1,1,1/1,1,1,1,1,1", select="3", game=LEWIS)
    assert LEWIS.legal_moves(state) == (Round(None, "cw"), Round(None, "ccw"), Round(None, "ccw", True))
    assert DOSE.legal_moves(DOSE.from_text(DOSE.to_text(state))) == (Round(None, "cw"), Round(None, "ccw"))
    free = DOSE.deal((4,) * 12)
    assert len(DOSE.legal_moves(free)) == 24 and DOSE.legal_moves(free)[:2] == (Round(1, "cw"), Round(1, "ccw"))


def test_typed_rounds_and_their_errors():
    free = DOSE.deal((4,) * 12)
    assert DOSE.parse_move(free, "hole03 ccw") == Round(3, "ccw")
    assert DOSE.parse_move(free, "12 clockwise") == Round(12, "cw")
    with pytest.raises(IllegalMoveError, match="select a hole first.*legal rounds: 1 cw, 1 ccw"):
        DOSE.parse_move(free, "cw")
    with pytest.raises(NotationError, match="give a direction"):
        DOSE.parse_move(free, "3")
    with pytest.raises(NotationError, match="cannot read 'left'"):
        DOSE.parse_move(free, "3 left")
    fixed = position("1,1,1,1,1,1/1,1,1,1,1,1", select="4")
    assert DOSE.parse_move(fixed, "4 cw") == Round(None, "cw")
    with pytest.raises(IllegalMoveError, match="starts from hole04"):
        DOSE.parse_move(fixed, "5 cw")
    with pytest.raises(IllegalMoveError, match="nothing to set aside.*legal rounds: cw, ccw"):
        LEWIS.parse_move(fixed, "cw aside")


def test_notation_rejects_bad_positions_with_what_was_expected():
    with pytest.raises(NotationError, match="hole01..hole06 and hole07..hole12"):
        DOSE.from_text("holes=1,1,1,1,1,1 stores=0,0 select=free")
    with pytest.raises(NotationError, match="select: hole02 is empty"):
        DOSE.from_text("holes=1,0,1,1,1,1/1,1,1,1,1,1 stores=0,0 select=2")
    with pytest.raises(NotationError, match="end: expected one of"):
        DOSE.from_text("holes=1,1,1,1,1,1/1,1,1,1,1,1 stores=0,0 select=2 end=won")
    with pytest.raises(NotationError, match="12 non-negative hole counts"):
        DOSE.deal((4,) * 11)


def test_the_board_is_drawn_as_in_the_source_document():
    picture = DOSE.render(position("1,2,3,4,5,6/7,8,9,1,1,1", select="3", stores="0,0"))
    lines = picture.splitlines()
    assert lines[0].startswith("store01") and lines[0].rstrip().endswith("store02")
    assert "h01" in lines[0] and "h07" in lines[3]
    assert "* 3" in lines[1] and lines[2].split() == ["7", "8", "9", "1", "1", "1"]


# -- docs/rules/solitaire.md point 6: the dose claims, by exhaustive search over every round-start position ------------
def _boards(stones: int, holes: int = 12):
    if holes == 1:
        yield (stones,)
        return
    for first in range(stones + 1):
        for rest in _boards(stones - first, holes - 1):
            yield (first,) + rest


def _can_reach(level_goal: int, top: int) -> dict[int, set]:
    """For each number of stones left 1..top: the round-start positions (board, selected) from which a
    position with ``level_goal`` stones left can be reached under dose, by fixed point within each level."""
    good: dict[int, set] = {level_goal: None}  # type: ignore[dict-item]
    for stones in range(level_goal + 1, top + 1):
        edges = {}
        for board in _boards(stones):
            for selected in [None] + [i for i in range(12) if board[i]]:
                state = SolitaireState(board, (0, 0), selected)
                targets = []
                for move in DOSE.legal_moves(state):
                    nxt = DOSE.apply(state, move)
                    if nxt.end is None:
                        targets.append((nxt.left, nxt.position))
                edges[(board, selected)] = targets
        lower = good[stones - 1]
        reached = {p for p, targets in edges.items()
                   if any(left < stones and (lower is None or pos in lower) for left, pos in targets)}
        changed = True
        while changed:
            changed = False
            for p, targets in edges.items():
                if p not in reached and any(left == stones and pos in reached for left, pos in targets):
                    reached.add(p)
                    changed = True
        good[stones] = reached
    return good


def test_dose_no_round_start_position_with_1_to_4_stones_reaches_an_empty_board():
    good = _can_reach(0, 4)
    assert all(not good[stones] for stones in range(1, 5))
    # The search does find what is possible: 2 stones left can get down to 1.
    assert _can_reach(1, 2)[2]


@pytest.mark.slow  # 4 s: every round-start position of 4 to 6 stones, searched exhaustively
def test_dose_no_round_start_position_with_4_to_6_stones_gets_down_to_one():
    good = _can_reach(1, 6)
    assert good[2] and not good[4] and not good[5] and not good[6]


# == the rules audit: one hand-worked case per point of docs/rules/solitaire.md ====================================


def holes(changes: dict[int, int], fill: int = 1) -> tuple[int, ...]:
    """hole01..hole12 holding ``fill`` stones each, except the holes (numbered 1..12) in ``changes``."""
    return tuple(changes.get(number, fill) for number in range(1, 13))


def spec_position(changes: dict[int, int], select: int | None = None, stores: tuple[int, int] = (0, 0),
             fill: int = 1, game: Solitaire = DOSE) -> SolitaireState:
    """A round-start spec_position through the notation; ``select`` is the hole number the round must start from."""
    board = holes(changes, fill)
    text = (f"holes={','.join(map(str, board[:6]))}/{','.join(map(str, board[6:]))} "
            f"stores={stores[0]},{stores[1]} select={'free' if select is None else select}")
    return game.from_text(text)


def expect(state: SolitaireState, changes: dict[int, int], select: int | None, stores: tuple[int, int] = (0, 0),
           fill: int = 1) -> None:
    assert state.holes == holes(changes, fill), "holes"
    assert state.stores == stores, "stores"
    assert state.selected == (None if select is None else select - 1), "hole the next round starts from"


# -- SR001, SR002: board and deal --------------------------------------------------------------------------------
def test_a_deal_is_48_stones_at_least_one_per_hole_stores_empty_hole_free_to_choose():
    for seed in range(30):
        state = DOSE.initial_state(seed)
        assert len(state.holes) == 12 and sum(state.holes) == 48 and min(state.holes) >= 1
        assert state.stores == (0, 0) and state.selected is None
        assert DOSE.initial_state(seed) == state
    assert len({DOSE.initial_state(seed).holes for seed in range(30)}) > 1


def test_the_variant_parameter():
    assert DOSE.parameters == {"variant": "dose"} and LEWIS.parameters == {"variant": "lewis"}
    assert rules.get_game("solitaire") == DOSE
    with pytest.raises(ParameterError, match="dose"):
        Solitaire(variant="classic")


# -- SR003: the first round from any hole ------------------------------------------------------------------------
def test_the_first_round_may_start_from_any_hole_in_either_direction():
    state = spec_position({})
    moves = DOSE.legal_moves(state)
    assert len(moves) == 24
    assert {move.hole for move in moves} == set(range(1, 13))
    assert {move.direction for move in moves} == {"cw", "ccw"}


# -- SR004(A): clockwise -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "start, stones, changes, select",
    [
        (1, 3, {1: 0, 2: 2, 3: 2, 4: 2}, 4),  # hole02, hole03, hole04
        (5, 3, {5: 0, 6: 2, 12: 2, 11: 2}, 11),  # hole06 (2 left: store02 skipped), hole12, hole11
        (8, 3, {8: 0, 7: 2, 1: 2, 2: 2}, 2),  # hole07 (2 left: store01 skipped), hole01, hole02
        (12, 2, {12: 0, 11: 2, 10: 2}, 10),  # hole11, hole10: the bottom row runs right to left
    ],
    ids=["top row", "past store02", "past store01", "bottom row"],
)
def test_clockwise_rounds_drop_one_stone_per_hole_from_the_next(start, stones, changes, select):
    state = DOSE.apply(spec_position({start: stones}), Round(start, "cw"))
    expect(state, changes, select)


def test_clockwise_one_stone_left_after_hole06_goes_into_store02():
    # hole05 (2): hole06, then the last stone into store02; the next round starts from hole06.
    state = DOSE.apply(spec_position({5: 2}), Round(5, "cw"))
    expect(state, {5: 0, 6: 2}, 6, stores=(0, 1))


def test_clockwise_one_stone_left_after_hole07_goes_into_store01():
    # hole08 (2): hole07, then store01; the next round starts from hole07.
    state = DOSE.apply(spec_position({8: 2}), Round(8, "cw"))
    expect(state, {8: 0, 7: 2}, 7, stores=(1, 0))


# -- SR004(B): anti-clockwise ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "start, stones, changes, select",
    [
        (6, 3, {6: 0, 5: 2, 4: 2, 3: 2}, 3),  # hole05, hole04, hole03
        (2, 3, {2: 0, 1: 2, 7: 2, 8: 2}, 8),  # hole01 (2 left: store01 skipped), hole07, hole08
        (11, 3, {11: 0, 12: 2, 6: 2, 5: 2}, 5),  # hole12 (2 left: store02 skipped), hole06, hole05
        (7, 2, {7: 0, 8: 2, 9: 2}, 9),  # hole08, hole09: the bottom row runs left to right
    ],
    ids=["top row", "past store01", "past store02", "bottom row"],
)
def test_anticlockwise_rounds_drop_one_stone_per_hole_from_the_next(start, stones, changes, select):
    state = DOSE.apply(spec_position({start: stones}), Round(start, "ccw"))
    expect(state, changes, select)


def test_anticlockwise_one_stone_left_after_hole01_goes_into_store01():
    state = DOSE.apply(spec_position({2: 2}), Round(2, "ccw"))
    expect(state, {2: 0, 1: 2}, 1, stores=(1, 0))


def test_anticlockwise_one_stone_left_after_hole12_goes_into_store02():
    state = DOSE.apply(spec_position({11: 2}), Round(11, "ccw"))
    expect(state, {11: 0, 12: 2}, 12, stores=(0, 1))


def test_later_rounds_start_where_the_last_ended_in_the_direction_chosen_each_time():
    state = spec_position({4: 3, 7: 3}, select=4)
    moves = DOSE.legal_moves(state)
    assert moves == (Round(None, "cw"), Round(None, "ccw"))
    # hole04 (3) anti-clockwise: hole03, hole02, hole01 (0 left): the next round from hole01.
    state = DOSE.apply(state, Round(None, "ccw"))
    expect(state, {4: 0, 7: 3, 3: 2, 2: 2, 1: 2}, 1)
    # hole01 (2) clockwise: hole02, hole03.
    state = DOSE.apply(state, Round(None, "cw"))
    expect(state, {4: 0, 7: 3, 3: 3, 2: 3, 1: 0}, 3)
    with pytest.raises(IllegalMoveError, match="hole03"):
        DOSE.apply(state, Round(5, "cw"))


def test_a_round_of_13_laps_the_board_through_its_emptied_start():
    # hole02 (13) clockwise: hole03..06, hole12..07 (3 left after hole07: store01 skipped), hole01, hole02,
    # hole03.  hole03 had a stone from this round, so the round ends there, not lost.
    state = DOSE.apply(spec_position({2: 13}), Round(2, "cw"))
    expect(state, {1: 2, 2: 1, 3: 3}, 3, fill=2)


# -- the dose picked-up stone ------------------------------------------------------------------------------------
def test_dose_a_single_stone_picked_up_from_an_end_hole_is_sown_past_the_store():
    # hole06 (1) clockwise: the stone is not dropped into hole06, so it goes on into hole12 (1 -> 2).
    state = DOSE.apply(spec_position({}, select=6), Round(None, "cw"))
    expect(state, {6: 0, 12: 2}, 12)
    # hole07 (1) clockwise into an empty hole01: lost.
    lost = DOSE.apply(spec_position({1: 0}, select=7), Round(None, "cw"))
    assert DOSE.outcome(lost) == Outcome(None, Reason.LAST_STONE_IN_EMPTY_HOLE, (0,))
    with pytest.raises(IllegalMoveError, match="dose"):
        DOSE.apply(spec_position({}, select=6), Round(None, "cw", True))


# -- SR005, SR006: the end ---------------------------------------------------------------------------------------
def test_last_stone_into_an_empty_hole_loses_and_the_score_is_the_stones_stored():
    # hole03 (2) clockwise: hole04, hole05 (empty): lost, with 7 stones in the stores.
    state = DOSE.apply(spec_position({3: 2, 5: 0}, stores=(3, 4)), Round(3, "cw"))
    assert state.holes == holes({3: 0, 4: 2, 5: 1})
    assert DOSE.is_terminal(state) and DOSE.legal_moves(state) == ()
    assert DOSE.outcome(state) == Outcome(None, Reason.LAST_STONE_IN_EMPTY_HOLE, (7,))


def test_the_emptied_start_hole_is_empty_when_a_round_of_12_returns_to_it():
    # hole02 (12) clockwise: hole03..06, hole12..07 (2 left after hole07), hole01, then hole02: it was emptied.
    state = DOSE.apply(spec_position({2: 12}), Round(2, "cw"))
    assert state.holes == holes({2: 1}, fill=2)
    assert DOSE.outcome(state).reason is Reason.LAST_STONE_IN_EMPTY_HOLE


def test_a_board_with_no_stone_left_is_won():
    # lewis: the last stone, in hole06, set aside clockwise into store02.
    state = LEWIS.apply(spec_position({6: 1}, select=6, stores=(20, 27), fill=0, game=LEWIS), Round(None, "cw", True))
    assert state.holes == (0,) * 12 and state.stores == (20, 28)
    assert LEWIS.outcome(state) == Outcome(0, Reason.BOARD_CLEARED, (48,))


def test_a_repeated_round_start_position_ends_the_game_with_the_score_as_it_stands_worked_by_hand():
    # hole01 (1) clockwise into hole02 (2 -> 3): the next round-start is hole02 with this board, which the
    # history (written in the notation) says was met before.
    board = "1.2.1.1.1.1.1.1.1.1.1.1"
    again = "0.3.1.1.1.1.1.1.1.1.1.1@2"
    state = DOSE.from_text(f"holes=1,2,1,1,1,1/1,1,1,1,1,1 stores=2,1 select=1 seen={again}")
    state = DOSE.apply(state, Round(None, "cw"))
    assert DOSE.outcome(state) == Outcome(None, Reason.REPETITION, (3,))
    fresh = DOSE.apply(DOSE.from_text("holes=1,2,1,1,1,1/1,1,1,1,1,1 stores=2,1 select=1"), Round(None, "cw"))
    assert DOSE.outcome(fresh) is None
    assert DOSE.to_text(fresh).endswith(f"select=2 seen={board}@1")


def test_storing_a_stone_clears_the_history():
    state = DOSE.from_text("holes=1,1,1,1,2,1/1,1,1,1,1,1 stores=0,0 select=5 seen=1.1.1.1.1.1.1.1.1.1.1.2@12")
    state = DOSE.apply(state, Round(None, "cw"))  # hole06, then store02
    assert state.seen == () and state.stores == (0, 1)


# -- the lewis variant -------------------------------------------------------------------------------------------
def test_lewis_a_picked_up_single_stone_at_a_row_end_may_be_set_aside_then_any_hole_may_be_chosen():
    start = spec_position({}, select=6, game=LEWIS)
    assert LEWIS.legal_moves(start) == (Round(None, "cw"), Round(None, "cw", True), Round(None, "ccw"))
    aside = LEWIS.apply(start, Round(None, "cw", True))
    expect(aside, {6: 0}, None, stores=(0, 1))
    # 11 holes both ways, plus a set-aside for the single stones of hole01 (ccw), hole07 (cw), hole12 (ccw).
    assert len(LEWIS.legal_moves(aside)) == 11 * 2 + 3
    kept = LEWIS.apply(start, Round(None, "cw"))
    expect(kept, {6: 0, 12: 2}, 12)


def test_lewis_after_a_drop_at_a_row_end_the_player_may_keep_sowing():
    # hole05 (2) clockwise: hole06 with one stone left; kept, it goes past store02 into hole12.
    start = spec_position({5: 2}, game=LEWIS)
    kept = LEWIS.apply(start, Round(5, "cw"))
    expect(kept, {5: 0, 6: 2, 12: 2}, 12)
    aside = LEWIS.apply(start, Round(5, "cw", True))
    expect(aside, {5: 0, 6: 2}, 6, stores=(0, 1))


def test_lewis_offers_no_set_aside_when_no_single_stone_reaches_a_row_end():
    start = spec_position({1: 3}, game=LEWIS)  # hole01 (3) clockwise ends in hole04
    assert Round(1, "cw", True) not in LEWIS.legal_moves(start)
    with pytest.raises(IllegalMoveError, match="nothing to set aside"):
        LEWIS.apply(start, Round(1, "cw", True))


# -- moves as text and notation ----------------------------------------------------------------------------------
def test_rounds_typed_as_text():
    free = spec_position({})
    assert DOSE.parse_move(free, "3 cw") == Round(3, "cw")
    assert DOSE.parse_move(free, "hole12 ccw") == Round(12, "ccw")
    chosen = spec_position({}, select=4)
    assert DOSE.parse_move(chosen, "ccw") == Round(None, "ccw")
    with pytest.raises(NotationError, match="direction"):
        DOSE.parse_move(chosen, "4")
    assert LEWIS.parse_move(spec_position({}, select=6, game=LEWIS), "cw aside") == Round(None, "cw", True)


def test_notation_is_the_canonical_holes_and_stores():
    state = DOSE.from_text("holes=1,2,3,4,5,6/7,8,9,10,11,12 stores=3,4 select=free")
    assert state.holes == tuple(range(1, 13)) and state.stores == (3, 4) and state.selected is None
    assert DOSE.to_text(state) == "holes=1,2,3,4,5,6/7,8,9,10,11,12 stores=3,4 select=free"
    with pytest.raises(NotationError, match="select"):
        DOSE.from_text("holes=0,2,3,4,5,6/7,8,9,10,11,12 stores=3,4 select=1")


# -- an independent reference: the rings as docs/rules/solitaire.md draws them, stores included ------------------------
RINGS = {
    "cw": [1, 2, 3, 4, 5, 6, "store02", 12, 11, 10, 9, 8, 7, "store01"],
    "ccw": [6, 5, 4, 3, 2, 1, "store01", 7, 8, 9, 10, 11, 12, "store02"],
}


def reference_round(holes: list[int], stores: list[int], start: int, direction: str, aside: bool, lewis: bool):
    """One round, stone by stone, on the drawn ring; returns ("stored" | "ends" | "lost", hole) and updates
    ``holes`` (index 0 = hole01) and ``stores`` in place."""
    ring = RINGS[direction]
    at = ring.index(start)
    beside = ring[(at + 1) % len(ring)]
    hand, holes[start - 1] = holes[start - 1], 0
    if lewis and aside and hand == 1 and isinstance(beside, str):
        stores[int(beside[-1]) - 1] += 1
        return "stored", start
    while True:
        at = (at + 1) % len(ring)
        hole = ring[at]
        if isinstance(hole, str):
            continue  # a store is skipped unless the rule below sent the stone there
        holes[hole - 1] += 1
        hand -= 1
        if hand == 0:
            return ("lost" if holes[hole - 1] == 1 else "ends"), hole
        beside = ring[(at + 1) % len(ring)]
        if hand == 1 and isinstance(beside, str) and (aside or not lewis):
            stores[int(beside[-1]) - 1] += 1
            return "stored", hole


def reference_chance(holes: list[int], start: int, direction: str) -> bool:
    """Whether a round has one stone in hand at a row end (lewis's set-aside choice) at some point."""
    trial_holes, trial_stores = list(holes), [0, 0]
    return reference_round(trial_holes, trial_stores, start, direction, True, True)[0] == "stored"


@pytest.mark.parametrize("game", [DOSE, LEWIS], ids=["dose", "lewis"])
def test_random_games_agree_with_the_reference(game):
    import random

    rng = random.Random(2026)
    lewis = game is LEWIS
    endings, most_stored = set(), 0
    for deal in range(60):
        state = game.initial_state(deal)
        holes, stores, select, seen = list(state.holes), [0, 0], None, set()
        while True:
            starts = [select] if select is not None else [h for h in range(1, 13) if holes[h - 1]]
            expected_moves = {(None if select is not None else h, d, False) for h in starts for d in ("cw", "ccw")}
            if lewis:
                expected_moves |= {(None if select is not None else h, d, True) for h in starts
                                   for d in ("cw", "ccw") if reference_chance(holes, h, d)}
            assert set(game.legal_moves(state)) == expected_moves, game.to_text(state)
            # A careful random player: any round that does not lose at once, so games run long and store.
            safe = [m for m in game.legal_moves(state) if reference_round(
                list(holes), [0, 0], select or m.hole, m.direction, m.set_aside, lewis)[0] != "lost"]
            move = rng.choice(safe or game.legal_moves(state))
            seen.add((tuple(holes), select))
            start = select if select is not None else move.hole
            result, hole = reference_round(holes, stores, start, move.direction, move.set_aside, lewis)
            state = game.apply(state, move)
            assert (state.holes, state.stores) == (tuple(holes), tuple(stores)), game.to_text(state)
            if result == "stored":
                select, seen = (hole if holes[hole - 1] else None), set()
            else:
                select = hole
            if result == "lost":
                outcome = Outcome(None, Reason.LAST_STONE_IN_EMPTY_HOLE, (sum(stores),))
            elif not any(holes):
                outcome = Outcome(0, Reason.BOARD_CLEARED, (sum(stores),))
            elif (tuple(holes), select) in seen:
                outcome = Outcome(None, Reason.REPETITION, (sum(stores),))
            else:
                outcome = None
            assert game.outcome(state) == outcome, game.to_text(state)
            if outcome is not None:
                endings.add(outcome.reason)
                most_stored = max(most_stored, sum(stores))
                break
            assert state.selected == (None if select is None else select - 1)
    assert Reason.LAST_STONE_IN_EMPTY_HOLE in endings and most_stored >= 8  # stores (set-asides) happened
