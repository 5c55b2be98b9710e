"""Solitaire Mancala rules: one before/after test per sentence of SR004, the ends (SR005, SR006, repetition),
notation and typed rounds, and docs/rules/solitaire.md point 6 (the dose claims) checked by exhaustive search."""
from __future__ import annotations

import pytest

from rules import IllegalMoveError, NotationError, Reason, get_game
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


def test_dose_no_round_start_position_with_4_to_6_stones_gets_down_to_one():
    good = _can_reach(1, 6)
    assert good[2] and not good[4] and not good[5] and not good[6]
