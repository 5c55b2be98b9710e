"""The exact Magnetic Cave endgame: the solver against plain minimax on the rules, the engine's use of it
(proven wins played, proven ties kept), and the evaluator's zugzwang outlook.

The reference values come from the rules alone (``legal_moves`` / ``apply`` / ``winner``, memoised minimax
over every move), so the solver cannot pass by agreeing with its own forced-move shortcuts.
"""
from __future__ import annotations

import random
from functools import lru_cache

import pytest

from ai import registry
from ai.base import Limits, SearchAborted
from ai.cave_endgame import LOSS, TIE, WIN, EndgameSolver, five_cells_of, open_windows
from ai.evaluators import WIN as WIN_SCORE
from ai.evaluators.magnetic_cave import WINDOWS, zugzwang_outlook
from rules.magnetic_cave import FULL, CaveState, MagneticCave, cell_name, completes_five, legal_mask, mask_cells
from test_cave_eval import position

GAME = MagneticCave()


@lru_cache(maxsize=None)
def minimax(black: int, white: int, to_move: int) -> int:
    """The exact value (+1 win, 0 tie, -1 loss) for the side to move, trying every legal move of the rules
    (``legal_mask`` and ``completes_five``, the functions ``MagneticCave.apply`` itself uses)."""
    mine = black if to_move == 0 else white
    occupied = black | white
    best = LOSS
    for move in mask_cells(legal_mask(occupied)):
        bit = 1 << move
        if completes_five(mine | bit, move):
            return WIN
        if occupied | bit == FULL:
            value = TIE
        elif to_move == 0:
            value = -minimax(black | bit, white, 1)
        else:
            value = -minimax(black, white | bit, 0)
        if value > best:
            best = value
            if best == WIN:
                break
    return best


def late_positions(count: int, empty: int, seed: int) -> list[CaveState]:
    """Undecided positions with ``empty`` empty cells from games of a careful random player (it takes a win,
    blocks a single threat and avoids opening one for the opponent when it can), so games last and threats
    pile up as in real play."""
    rng = random.Random(seed)
    found: list[CaveState] = []
    while len(found) < count:
        state = GAME.initial_state()
        while not GAME.is_terminal(state) and 64 - (state.black | state.white).bit_count() > empty:
            moves = GAME.legal_moves(state)
            afters = [GAME.apply(state, move) for move in moves]
            wins = [after for after in afters if after.winner is not None]
            safe = [after for after in afters if not GAME.is_terminal(after) and not wins_now(after)]
            state = wins[0] if wins else rng.choice(safe or afters)
        if not GAME.is_terminal(state):
            found.append(state)
    return found


def wins_now(state: CaveState) -> bool:
    """Whether the side to move can complete five at once."""
    mine = state.black if state.to_move == 0 else state.white
    return any(completes_five(mine | 1 << move, move) for move in GAME.legal_moves(state))


def sides(state: CaveState) -> tuple[int, int]:
    return (state.black, state.white) if state.to_move == 0 else (state.white, state.black)


def test_the_solver_gives_the_minimax_value_of_late_positions():
    solver = EndgameSolver()
    values = {WIN: 0, TIE: 0, LOSS: 0}
    for state in late_positions(50, empty=9, seed=31):
        expected = minimax(state.black, state.white, state.to_move)
        value, move = solver.solve(*sides(state))
        assert value == expected, GAME.to_text(state)
        values[value] += 1
        # The move it names keeps that value (checked by the rules).
        after = GAME.apply(state, move)
        if after.winner is not None:
            assert value == WIN
        elif (after.black | after.white) != FULL:
            assert -minimax(after.black, after.white, after.to_move) == value, (GAME.to_text(state), cell_name(move))
    assert min(values.values()) >= 3, values  # wins, ties and losses were all met


def dead_rows(state: CaveState) -> int:
    """How many rows have empty cells that all lie only in windows holding both colours (by brute force)."""
    occupied = state.black | state.white
    count = 0
    for row in range(8):
        run = (FULL ^ occupied) & 0xFF << 8 * row
        if run and all(window & state.black and window & state.white for window in WINDOWS if window & run):
            count += 1
    return count


def settled(state: CaveState) -> bool:
    """No window free of one colour has two empty cells left: no new threat cell can ever be made."""
    empty = FULL ^ (state.black | state.white)
    return all(
        (window & empty).bit_count() < 2 for window in WINDOWS if not (window & state.black and window & state.white)
    )


def test_the_solver_is_exact_where_its_parity_rows_and_settled_fill_games_cut_the_search():
    """Two exact shortcuts: moves into rows of dead cells are interchangeable (one is searched for all), and a
    position where no threat cell can be made any more is valued by the fill game.  Both are checked against
    rules-only minimax on positions where they apply at the root or close below it."""
    solver = EndgameSolver()
    parity = cut = 0
    for state in late_positions(160, empty=11, seed=34) + late_positions(300, empty=6, seed=37):
        if settled(state):
            cut += 1
        elif dead_rows(state) >= 2:
            parity += 1
        else:
            continue
        value, move = solver.solve(*sides(state))
        assert value == minimax(state.black, state.white, state.to_move), GAME.to_text(state)
        after = GAME.apply(state, move)
        if after.winner is None and (after.black | after.white) != FULL:
            assert -minimax(after.black, after.white, after.to_move) == value, (GAME.to_text(state), cell_name(move))
    assert parity >= 20 and cut >= 5, (parity, cut)


def test_the_settled_test_and_the_open_windows_agree_with_a_scan_of_the_windows():
    for state in late_positions(40, empty=14, seed=35) + late_positions(40, empty=8, seed=36):
        ours, others = open_windows(state.white), open_windows(state.black)
        assert ours == sum(1 << i for i, window in enumerate(WINDOWS) if not window & state.white)
        assert EndgameSolver._settled(state.black | state.white, ours | others) == settled(state)


def test_null_window_questions_agree_with_the_full_value():
    solver = EndgameSolver()
    for state in late_positions(30, empty=10, seed=32):
        mine, theirs = sides(state)
        exact = minimax(state.black, state.white, state.to_move)
        wins = solver.winning_move(mine, theirs)
        assert (wins is not None) == (exact == WIN), GAME.to_text(state)
        assert (solver.solve(mine, theirs, LOSS, TIE)[0] >= TIE) == (exact >= TIE)


def test_the_solver_stops_at_its_node_limit_and_when_polled():
    state = late_positions(1, empty=24, seed=33)[0]
    solver = EndgameSolver(max_nodes=50)
    with pytest.raises(SearchAborted):
        solver.solve(*sides(state))
    assert solver.nodes <= 50

    def stop() -> None:
        raise SearchAborted

    with pytest.raises(SearchAborted):
        EndgameSolver(poll=stop).solve(*sides(state))


def test_the_engine_plays_proven_endgame_wins_and_keeps_proven_ties():
    engine_spec = registry.presets(GAME)["Strongest"]
    checked = {"win": 0, "tie": 0}
    for state in late_positions(16, empty=10, seed=34):
        exact = minimax(state.black, state.white, state.to_move)
        if exact == LOSS:
            continue
        result = registry.make_engine(GAME, engine_spec).search(state, Limits(time=1.0))
        after = GAME.apply(state, result.move)
        if after.winner is not None:
            kept = WIN
        elif (after.black | after.white) == FULL:
            kept = TIE
        else:
            kept = -minimax(after.black, after.white, after.to_move)
        assert kept == exact, (GAME.to_text(state), cell_name(result.move))
        if exact == WIN:
            assert result.score >= WIN_SCORE and result.exhaustive
            checked["win"] += 1
        else:
            checked["tie"] += 1
    assert min(checked.values()) >= 3, checked


def row_cells(row: int, columns: range) -> int:
    return sum(1 << (row * 8 + column) for column in columns)


@pytest.mark.parametrize(
    "run, mine, theirs, free, expected",
    [
        # A run of three in row 0 with a threat cell in the middle, every other cell full.
        ("c3-c5", [4], [], 0, 0),  # the mover must open its own cell: blocked, then it fills the last cell
        ("c3-c5", [], [4], 0, -1),  # the mover must open the opponent's cell
        # One free cell elsewhere hands the zugzwang to the other side.
        ("c3-c5", [4], [], 1, 1),
        ("c3-c5", [], [4], 1, 0),
        # Two free cells change nothing.
        ("c3-c5", [4], [], 2, 0),
        ("c3-c5", [], [4], 2, -1),
        # A cell that completes five for both: whoever opens it loses.
        ("c3-c5", [4], [4], 0, -1),
        ("c3-c5", [4], [4], 1, 1),
        # A threat cell already playable: the mover's wins, the opponent's is blocked.
        ("c3-c5", [3], [], 0, 1),
        ("c3-c5", [], [3], 0, 0),  # blocked at c3, then the opponent fills c4 or c5 and the mover the last
        ("c3-c5", [], [3, 5], 0, -1),  # two to block
    ],
)
def test_the_zugzwang_outlook_by_hand(run, mine, theirs, free, expected):
    empty = row_cells(0, range(3, 6)) | row_cells(7, range(0, free))
    occupied = FULL & ~empty
    assert zugzwang_outlook(occupied, sum(1 << c for c in mine), sum(1 << c for c in theirs)) == expected


@lru_cache(maxsize=None)
def fill_minimax(occupied: int, mine: int, theirs: int) -> int:
    """The fill game by plain minimax over the rules' legal cells: the threat cells ``mine`` (the mover's) and
    ``theirs`` stay as they are; filling one of the mover's wins, a full cave is a tie."""
    best = LOSS
    for move in mask_cells(legal_mask(occupied)):
        bit = 1 << move
        if bit & mine:
            return WIN
        value = TIE if occupied | bit == FULL else -fill_minimax(occupied | bit, theirs, mine)
        if value > best:
            best = value
            if best == WIN:
                break
    return best


def test_the_zugzwang_outlook_solves_the_fill_game_exactly():
    """Against plain minimax of the same game, on late positions of careful random play with their real
    threat cells, and with random threat cells scattered over the empty cells (runs of every shape)."""
    rng = random.Random(11)
    values = {WIN: 0, TIE: 0, LOSS: 0}
    for state in late_positions(40, 14, seed=5):
        mine, theirs = sides(state)
        occupied = mine | theirs
        cases = [(five_cells_of(mine) & ~occupied, five_cells_of(theirs) & ~occupied)]
        empties = mask_cells(FULL & ~occupied)
        for _ in range(10):
            cases.append(tuple(sum(1 << cell for cell in rng.sample(empties, rng.randint(0, 3))) for _ in "ab"))
        for my_cells, their_cells in cases:
            if not my_cells | their_cells:
                continue
            expected = fill_minimax(occupied, my_cells, their_cells)
            assert zugzwang_outlook(occupied, my_cells, their_cells) == expected
            values[expected] += 1
    assert min(values.values()) >= 30, values


def test_the_zugzwang_outlook_solves_crowded_runs_exactly():
    """Runs crowded with threat cells of both sides, one to three rows of them, a few free cells elsewhere,
    the rest of the cave full: every way of playing a run from either end matters here."""
    rng = random.Random(3)
    values = {WIN: 0, TIE: 0, LOSS: 0}
    for _ in range(400):
        occupied, mine, theirs = FULL, 0, 0
        for row in rng.sample(range(7), rng.randint(1, 3)):
            start = rng.randint(0, 3)
            for column in range(start, start + rng.randint(2, 5)):
                cell = row * 8 + column
                occupied &= ~(1 << cell)
                kind = rng.choice("....mtb")
                mine |= (kind in "mb") << cell
                theirs |= (kind in "tb") << cell
        occupied &= ~row_cells(7, range(rng.randint(0, 2)))
        expected = fill_minimax(occupied, mine, theirs)
        assert zugzwang_outlook(occupied, mine, theirs) == expected
        values[expected] += 1
    assert min(values.values()) >= 25, values


def chance_shares(state: CaveState, value: int) -> dict[int, float]:
    """By the rules: for each move that keeps the position's ``value`` (a tie or a loss) and leaves the
    opponent a choice, the share of the opponent's replies (those that do not hand over a win in one) after
    which the mover does better than ``value``.  Moves that let the opponent win at once are left out."""
    shares = {}
    for move in GAME.legal_moves(state):
        after = GAME.apply(state, move)
        if GAME.is_terminal(after) or -minimax(after.black, after.white, after.to_move) != value:
            continue
        if wins_now(CaveState(after.black, after.white, state.to_move)) or wins_now(after):
            continue  # a four (the opponent's block is forced), or a win in one handed over
        replies = [GAME.apply(after, reply) for reply in GAME.legal_moves(after)]
        replies = [r for r in replies if not GAME.is_terminal(r) and not wins_now(r)]
        if replies:
            better = sum(minimax(r.black, r.white, r.to_move) > value for r in replies)
            shares[move] = better / len(replies)
    return shares


@pytest.mark.parametrize("value", [TIE, LOSS])
def test_a_held_tie_or_a_loss_is_played_for_the_most_chances(value):
    from ai.search import Budget, new_table

    kernel = registry.make_engine(GAME, "pvs:time=1").kernel
    checked = 0
    for state in late_positions(48, empty=10, seed=35):
        if minimax(state.black, state.white, state.to_move) != value:
            continue
        shares = chance_shares(state, value)
        best = max(shares.values(), default=0.0)
        run = kernel.make_run(new_table(kernel, 1), Budget(Limits(time=30), None), 256)
        assert run._solve(kernel.encode(state)) is None  # no win to play
        if best > 0:
            assert kernel.root_moves == {move for move, share in shares.items() if share == best}, GAME.to_text(state)
            checked += 1
    assert checked >= 2


def test_a_cancelled_search_in_the_solver_range_still_returns_a_legal_move():
    from ai.base import CancelToken

    for state in late_positions(3, empty=20, seed=36):
        token = CancelToken()
        token.cancel()
        result = registry.make_engine(GAME, "pvs:time=1").search(state, Limits(time=1.0), token)
        assert result.move in GAME.legal_moves(state)
