"""The analysis model (ai/analysis/): every move's value agrees with an independent exact or plain search,
moves come best first, proven marks are right, the words never show a raw score, and cancel stops it.

Kalah endgame tables are built small (4 pits, up to 8 seeds) in a temporary folder; the exact reference is a
memoised negamax over the rules alone.  No assert depends on the machine's speed: the analyses run without a
time limit until every move is proven, or to a fixed depth (``max_depth``).
"""
from __future__ import annotations

import math
import random

import pytest

import ai.core
from ai import kalah_proofs, tables
from ai.base import Limits, SearchResult
from ai.cave_endgame import EndgameSolver
from ai.evaluators import HEURISTIC_BOUND, WIN, get_evaluator
from ai.minimax import minimax_value
from ai.solver import SolverEngine
from ai.analysis import Analysis, AnalysisEngine, EvaluationHistory, MoveValue, Point, Snapshot, position_value
from ai.evaluators import proven_score
from ai.tables import table_value
from game.analysis import worded
from game.analysis_words import how_words, value_words
from game.evaluation_graph import graph_value
from rules import get_game
from rules.magnetic_cave import FULL
from tests import registered

WAIT = 120.0
"""A guard against a hang only: every analysis here ends on its own (all proven, or its depth limit)."""

needs_core = pytest.mark.skipif(ai.core.module() is None, reason="endgame tables are built by the compiled core")


@pytest.fixture
def no_tables(monkeypatch):
    """No endgame tables anywhere: the search's values are then plain depth-limited minimax."""
    monkeypatch.delenv(tables.ENV, raising=False)
    monkeypatch.setattr(tables, "_directory", None)
    tables.forget()
    yield
    tables.forget()


def exact_by_rules(game):
    """The exact final margin for the side to move, by plain memoised negamax over the rules."""
    memo: dict = {}

    def value(state):
        if state in memo:
            return memo[state]
        mover = game.to_move(state)
        best = -10**9
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            if game.is_terminal(child):
                score = game.outcome(child).margin(mover)
            elif game.to_move(child) == mover:
                score = value(child)
            else:
                score = -value(child)
            best = max(best, score)
        memo[state] = best
        return best

    return value


def move_margin(game, exact, state, move):
    """The exact margin of ``move`` for the side to move in ``state``."""
    mover = game.to_move(state)
    child = game.apply(state, move)
    if game.is_terminal(child):
        return game.outcome(child).margin(mover)
    return exact(child) if game.to_move(child) == mover else -exact(child)


def run(game, state, **options) -> Snapshot:
    """The analysis to its end, worded as the screens show it (``game.analysis.worded``)."""
    analysis = Analysis(game, state, **options)
    assert analysis.wait(WAIT), "the analysis did not end"
    snapshot = analysis.poll()
    assert snapshot is not None and snapshot.finished and snapshot.working is None
    return worded(game, state, snapshot)


def assert_best_first(snapshot: Snapshot) -> None:
    scores = [move.score for move in snapshot.moves]
    scored = [score for score in scores if not math.isnan(score)]
    assert scored == sorted(scored, reverse=True), scores
    assert all(math.isnan(score) for score in scores[len(scored):]), "unscored moves come last"


def kalah_endgames(game, count, seed, most_seeds):
    """Positions of random games once at most ``most_seeds`` seeds are left on the board, with 2+ moves."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and (sum(state.pits) > most_seeds or len(game.legal_moves(state)) < 2):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            found.append(state)
    return found


# -- Kalah: exact values ---------------------------------------------------------------------------------------
@needs_core
def test_kalah_endgame_values_equal_an_exhaustive_search_and_come_best_first(with_tables):
    game = get_game("kalah", pits=4, seeds=4)
    exact = exact_by_rules(game)
    sources = set()
    for state in kalah_endgames(game, 14, seed=7, most_seeds=14):
        snapshot = run(game, state)
        legal = game.legal_moves(state)
        assert sorted(move.move for move in snapshot.moves) == sorted(legal)
        assert_best_first(snapshot)
        for value in snapshot.moves:
            margin = move_margin(game, exact, state, value.move)
            assert value.proven and value.exact, value
            assert value.score == proven_score(margin), (game.to_text(state), value, margin)
            expected = f"wins by {margin}" if margin > 0 else f"loses by {-margin}" if margin < 0 else "draws"
            assert value.words == f"{expected}, proven"
            sources.add(value.source)
        assert snapshot.moves[0].score == proven_score(exact(state))  # the best move is worth the position
    assert "table" in sources and sources & {"prover", "search"}, sources


@needs_core
def test_a_table_value_is_the_stores_difference_plus_the_tables_margin(with_tables):
    game = get_game("kalah", pits=4, seeds=4)
    exact = exact_by_rules(game)
    loaded = tables.tables_for(game)
    assert loaded is not None and loaded.top == 8
    checked = 0
    for state in kalah_endgames(game, 40, seed=3, most_seeds=8):
        assert table_value(game, loaded, state) == exact(state)
        checked += 1
    big = kalah_endgames(game, 1, seed=3, most_seeds=12)[0]
    if sum(big.pits) > 8:
        assert table_value(game, loaded, big) is None  # beyond the tables: no guess
    assert checked == 40


def test_a_table_lookup_is_used_generically():
    """Any tables object with ``lookup(own, other)`` and ``top`` serves (Oware's will): the stores' difference
    from the side to move plus the lookup of its own pits first."""
    game = get_game("oware")
    state = game.from_text(game.to_text(game.initial_state()))
    seen = []

    class Fake:
        top = 48

        def lookup(self, own, other):
            seen.append((own, other))
            return 5

    assert table_value(game, Fake(), state) == 5 + state.stores[0] - state.stores[1]
    assert seen == [(state.pits[:6], state.pits[6:])]
    Fake.top = 10
    assert table_value(game, Fake(), state) is None  # 48 seeds: beyond the tables' reach
    assert table_value(game, object(), state) is None


def test_kalah_without_tables_solves_the_whole_small_game(no_tables):
    """Kalah(4,3) from the start: every move proven by search or prover, equal to the exact solver's values
    (``ai.solver``: MTD(f) to the end of the game; the rules' negamax would take minutes here)."""
    game = get_game("kalah", pits=4, seeds=3)
    state = game.initial_state()
    solver = SolverEngine(game)

    def exact(position):
        result = solver.search(position)
        assert result.exhaustive
        return int(result.score)

    snapshot = run(game, state)
    assert_best_first(snapshot)
    assert [(move.name, move.score) for move in snapshot.moves][0] == ("pit 2", proven_score(8))
    for value in snapshot.moves:
        assert value.proven and value.exact
        assert value.score == proven_score(move_margin(game, exact, state, value.move))


# -- searched values -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", registered.sowing())
def test_searched_values_are_the_depth_limited_minimax_values_with_their_depth(name, no_tables, monkeypatch):
    monkeypatch.setattr(kalah_proofs, "proof_for", lambda game: None)  # the start searched, not read from the proof
    game = get_game(name)
    state = game.initial_state()
    snapshot = run(game, state, max_depth=3)
    assert snapshot.depth == 3
    evaluator = get_evaluator(game)
    mover = game.to_move(state)
    assert_best_first(snapshot)
    assert len(snapshot.moves) == len(game.legal_moves(state))
    for value in snapshot.moves:
        child = game.apply(state, value.move)
        plain = minimax_value(game, evaluator, child, 2)
        assert value.score == pytest.approx(plain if game.to_move(child) == mover else -plain, abs=1e-6)
        assert not value.proven and value.depth == 3 and value.source == "search"
        assert value.words.startswith("about ") and "plies" not in value.words, value.words  # the depth: Details only
        assert how_words(value) == "searched 3 plies"


def test_a_deeper_analysis_reports_deeper_values(no_tables):
    game = get_game("oware")
    snapshot = run(game, game.initial_state(), max_depth=6)
    assert snapshot.depth == 6 and all(value.depth == 6 for value in snapshot.moves)


def test_a_finished_game_has_nothing_to_analyse():
    game = get_game("kalah", pits=3, seeds=1)
    state = game.initial_state()
    while not game.is_terminal(state):
        state = game.apply(state, game.legal_moves(state)[0])
    snapshot = run(game, state)
    assert snapshot.moves == () and snapshot.best is None


def test_a_move_that_ends_the_game_is_proven_at_once(no_tables):
    game = get_game("kalah", pits=3, seeds=1)
    state = game.from_text(game.to_text(game.initial_state()))
    # South's last seeds: any move that empties South's side ends the game.
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        if game.is_terminal(child):
            break
    else:
        state = game.apply(state, game.legal_moves(state)[0])
    snapshot = run(game, state)
    for value in snapshot.moves:
        if game.is_terminal(game.apply(state, value.move)):
            assert value.source == "end" and value.proven and value.depth == 0


# -- Magnetic Cave ---------------------------------------------------------------------------------------------
def cave_endgames(game, count, seed, empties):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and (FULL ^ state.occupied).bit_count() > empties:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            found.append(state)
    return found


def test_cave_values_near_the_end_are_the_endgame_solvers(no_tables):
    game = get_game("magnetic-cave")
    solver = EndgameSolver()
    words = set()
    for state in cave_endgames(game, 5, seed=11, empties=15):
        snapshot = run(game, state)
        assert_best_first(snapshot)
        assert len(snapshot.moves) == len(game.legal_moves(state))
        for value in snapshot.moves:
            child = game.apply(state, value.move)
            assert value.proven and value.exact
            if game.is_terminal(child):
                assert value.source == "end" and value.score == WIN + 1
                continue
            mine, theirs = (child.black, child.white) if child.to_move == 0 else (child.white, child.black)
            assert value.source == "solver"
            assert value.score == proven_score(-solver.value(mine, theirs)), value
            words.add(value.words)
    assert words <= {"wins, proven", "loses, proven", "draws, proven"} and "loses, proven" in words


def test_cave_searched_values_read_in_words(no_tables):
    game = get_game("magnetic-cave")
    snapshot = run(game, game.initial_state(), max_depth=2)
    grades = ("winning", "ahead", "slightly ahead", "even", "slightly behind", "behind", "losing")
    for value in snapshot.moves:
        assert not value.proven and value.words in grades, value.words  # outcomes, never "better" alone


# -- cancel ----------------------------------------------------------------------------------------------------
def test_cancel_stops_the_analysis(no_tables):
    game = get_game("kalah")
    analysis = Analysis(game, game.initial_state())  # no time limit: only cancel ends it
    analysis.cancel()
    snapshot = analysis.poll()
    assert analysis.done and snapshot is not None and snapshot.finished
    assert len(snapshot.moves) == len(game.legal_moves(game.initial_state()))
    thread = analysis.worker._thread
    assert thread is not None
    thread.join(WAIT)
    assert not thread.is_alive(), "the analysis thread kept running after cancel"
    assert analysis.poll() == snapshot  # nothing more comes


def test_cancel_midway_keeps_the_last_complete_iteration(no_tables):
    game = get_game("oware")
    analysis = Analysis(game, game.initial_state())
    snapshot = None
    while snapshot is None or snapshot.depth < 3:
        assert analysis.worker._thread.is_alive() or analysis.done
        analysis.wait(0.01)
        snapshot = analysis.poll()
    analysis.cancel()
    final = analysis.poll()
    assert final.finished and final.depth >= 3
    assert all(value.depth == final.depth for value in final.moves)
    analysis.worker._thread.join(WAIT)
    assert not analysis.worker._thread.is_alive()


def test_a_bad_time_is_refused():
    game = get_game("kalah")
    with pytest.raises(ValueError, match="positive number of seconds"):
        Analysis(game, game.initial_state(), seconds=0)


# -- words -----------------------------------------------------------------------------------------------------
def test_value_words_never_show_a_raw_score():
    kalah, cave = get_game("kalah"), get_game("magnetic-cave")
    assert value_words(kalah, WIN + 6, True, 0) == "wins by 6, proven"
    assert value_words(kalah, -(WIN + 2), True, 0) == "loses by 2, proven"
    assert value_words(kalah, 0.0, True, 0) == "draws, proven"
    assert value_words(kalah, 2.5, False, 18) == "about 3 seeds ahead"
    assert value_words(kalah, 2.5, False, 18, details=True) == "about 3 seeds ahead (18 plies)"
    assert value_words(kalah, -1.04, False, 1) == "about 1 seed behind"
    assert value_words(kalah, -0.02, False, 4) == "about even"
    assert value_words(kalah, WIN + 3, True, 9, exact=False) == "wins by 3 or more, proven"
    assert value_words(kalah, math.nan, False, 0) == "..."
    assert value_words(cave, WIN + 1, True, 0) == "wins, proven"
    assert value_words(cave, -(WIN + 1), True, 0) == "loses, proven"
    assert value_words(cave, 0.0, True, 0) == "draws, proven"
    assert value_words(cave, 350.0, False, 8) == "winning"
    assert value_words(cave, -75.0, False, 8) == "slightly behind"
    assert value_words(cave, 3.0, False, 8) == "even"
    for score in (WIN + 6, 123.456, -77.0, 2.5):
        assert str(int(score)) not in value_words(cave, score, abs(score) > HEURISTIC_BOUND, 5)


def test_how_words_name_the_source():
    base = dict(move=0, name="pit 1", words="")
    assert how_words(MoveValue(score=WIN + 2, proven=True, depth=0, source="table", **base)) \
        == "proven (endgame tables)"
    assert how_words(MoveValue(score=1.5, proven=False, depth=7, source="search", **base)) == "searched 7 plies"
    assert how_words(MoveValue(score=math.nan, proven=False, depth=0, **base)) == "not reached"
    assert "margin may be larger" in how_words(
        MoveValue(score=WIN + 2, proven=True, depth=9, exact=False, source="search", **base))


# -- the evaluation graph --------------------------------------------------------------------------------------
@needs_core
def test_position_value_is_exact_from_the_tables_and_from_souths_view(with_tables):
    game = get_game("kalah", pits=4, seeds=4)
    exact = exact_by_rules(game)
    for state in kalah_endgames(game, 10, seed=5, most_seeds=8):
        score, proven = position_value(game, state)
        south = exact(state) if game.to_move(state) == 0 else -exact(state)
        assert proven and score == proven_score(south)


def test_position_value_of_a_finished_game_and_the_graph_scale(no_tables):
    game = get_game("kalah", pits=3, seeds=1)
    state = game.initial_state()
    while not game.is_terminal(state):
        state = game.apply(state, game.legal_moves(state)[-1])
    score, proven = position_value(game, state)
    margin = game.outcome(state).margin(0)
    assert proven and score == proven_score(margin)
    assert graph_value(game, score, proven) == margin / (abs(margin) + 4)  # the final margin, on the seeds' scale
    assert 0 < graph_value(game, 3.0, False) < graph_value(game, 9.0, False) < 1
    assert graph_value(game, -3.0, False) == -graph_value(game, 3.0, False)


def test_evaluation_history_keeps_values_per_position_from_souths_view(no_tables):
    game = get_game("kalah", pits=3, seeds=2)
    states = [game.initial_state()]
    while not game.is_terminal(states[-1]) and len(states) < 6:
        states.append(game.apply(states[-1], game.legal_moves(states[-1])[0]))
    history = EvaluationHistory(game)
    north_to_move = next(state for state in states if game.to_move(state) == 1)
    history.record(north_to_move, 2.0)
    assert history.value(north_to_move).score == -2.0 and not history.value(north_to_move).proven
    kept = history.record_result(states[0], SearchResult(0, 1.5, 4, info={"evaluator": "default"}))
    assert kept and history.value(states[0]).score == (1.5 if game.to_move(states[0]) == 0 else -1.5)
    assert not history.record_result(states[1], SearchResult(0, 0.9, 200), "mcts:time=1")  # Monte Carlo's scale
    assert not history.record_result(states[1], SearchResult(0, 0.9, 200))  # an unknown engine's scale
    assert not history.record_result(states[1], SearchResult(0, 0.9, 0), "alphabeta:depth=3")  # nothing completed
    assert history.record_result(states[1], SearchResult(0, 4.0, 20, exhaustive=True), "solver")
    assert history.value(states[1]) == Point((1 if game.to_move(states[1]) == 0 else -1) * (WIN + 4), True)
    assert history.record_result(states[1], SearchResult(0, 0.5, 3), "alphabeta:depth=3")
    assert not history.record_result(states[1], SearchResult(0, 1.0, 3, info={"evaluator": "x", "fallback": True}))
    missing = history.missing(states)
    assert states[0] not in missing and north_to_move not in missing
    added = history.fill(states, seconds=0.05)
    assert added == len(missing) and history.missing(states) == []
    assert all(point is not None for point in history.values(states))
    if game.is_terminal(states[-1]):
        assert history.value(states[-1]).proven


@pytest.mark.parametrize("name", ["kalah", "magnetic-cave"])
def test_a_timed_analysis_ends_by_itself(name, no_tables):
    game = get_game(name)
    analysis = Analysis(game, game.initial_state(), seconds=0.3)
    assert analysis.wait(WAIT)
    snapshot = analysis.poll()
    assert snapshot is not None and snapshot.finished and analysis.done
    assert len(snapshot.moves) == len(game.legal_moves(game.initial_state()))
    assert_best_first(snapshot)


class FixedSearch:
    """A stand-in for the analysis's search: every position gets ``score`` at the depth asked."""

    def __init__(self, score: float, exhaustive: bool = False) -> None:
        self.score, self.exhaustive = score, exhaustive

    def search(self, state, limits=None, cancel=None, progress=None):
        return SearchResult(None, self.score, limits.depth, 10, exhaustive=self.exhaustive)


@pytest.mark.parametrize("name, exhaustive, words, exact", [
    ("oware", False, "wins by 3 or more, proven", False),   # a forced win seen, not every line: a bound
    ("oware", True, "wins by 3, proven", True),              # the search saw every line: exact
    ("magnetic-cave", False, "wins, proven", True),           # a cave win has no margin to be a bound on
])
def test_a_search_that_sees_a_forced_win_marks_it_proven(name, exhaustive, words, exact, no_tables):
    game = get_game(name)
    engine = AnalysisEngine(game, max_depth=4)
    engine._search_engine = FixedSearch(-(WIN + (3 if name == "oware" else 1)), exhaustive)  # the opponent loses
    result = engine.search(game.initial_state(), Limits(depth=4))
    snapshot = worded(game, game.initial_state(), result.info["snapshot"])
    assert snapshot.finished
    for value in snapshot.moves:
        assert value.proven and value.exact == exact and value.words == words and value.source == "search"
        assert value.depth == (2 if exhaustive else snapshot.depth)  # exact: settled by the first iteration
        assert ("margin may be larger" in how_words(value)) == (not exact)
    assert result.exhaustive == exact


def test_a_heuristic_score_is_never_proven(no_tables):
    game = get_game("hus")
    engine = AnalysisEngine(game, max_depth=3)
    engine._search_engine = FixedSearch(HEURISTIC_BOUND - 1)
    snapshot = worded(game, game.initial_state(), engine.search(game.initial_state(), Limits(depth=3)).info["snapshot"])
    assert snapshot.depth == 3
    assert all(not value.proven and value.words.endswith("behind") for value in snapshot.moves)


def test_position_value_near_the_cave_end_is_the_solvers(no_tables):
    game = get_game("magnetic-cave")
    solver = EndgameSolver()
    for state in cave_endgames(game, 4, seed=13, empties=14):
        mine, theirs = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
        black = solver.value(mine, theirs) * (1 if state.to_move == 0 else -1)
        assert position_value(game, state) == (proven_score(black), True)


def test_evaluation_history_fills_in_a_thread_and_stops(no_tables):
    game = get_game("kalah", pits=3, seeds=2)
    states = [game.initial_state()]
    while not game.is_terminal(states[-1]):
        states.append(game.apply(states[-1], game.legal_moves(states[-1])[-1]))
    history = EvaluationHistory(game)
    history.start(states, seconds=0.02)
    thread = history._thread
    thread.join(WAIT)
    assert not history.filling and history.missing(states) == []
    assert history.value(states[-1]) == Point(proven_score(game.outcome(states[-1]).margin(0)), True)
    oware = get_game("oware")
    positions = [oware.initial_state()]
    for _ in range(3):
        positions.append(oware.apply(positions[-1], oware.legal_moves(positions[-1])[0]))
    fresh = EvaluationHistory(oware)
    fresh.start(positions, seconds=30.0)  # minutes of searching, unless stopped
    fresh.stop()
    fresh._thread.join(WAIT)
    assert not fresh.filling and fresh.missing(positions), "stop ends the filling, a search cut short is no value"


def test_a_value_recorded_while_the_history_fills_is_kept(no_tables, monkeypatch):
    import ai.analysis.position as graph

    game = get_game("kalah", pits=3, seeds=2)
    state = game.initial_state()
    history = EvaluationHistory(game)

    def quick_value(game, position, seconds, cancel):  # the computer's deeper search lands during the quick one
        history.record(position, 7.0)
        return -1.0, False

    monkeypatch.setattr(graph, "position_value", quick_value)
    assert history.fill([state]) == 1
    assert history.value(state) == Point(7.0, False)


def test_mirror_image_moves_in_the_cave_are_valued_once_and_named_equal(no_tables):
    """The cave's rules are symmetric under mirroring columns and rows: at the start its 16 moves are 4 classes
    of 4 mirror images, each class one value; the mirrors map legal moves and results onto each other."""
    from ai.analysis import analyse
    from ai.analysis.symmetry import cave_key, mirror_columns, mirror_rows
    from rules.magnetic_cave import CaveState

    game = get_game("magnetic-cave")
    state = game.initial_state()
    snapshot = analyse(game, state, Limits(depth=3))
    classes: dict = {}
    for value in snapshot.moves:
        classes.setdefault(cave_key(game.apply(state, value.move)), set()).add(value.score)
    assert len(classes) == 4 and all(len(scores) == 1 for scores in classes.values()), classes
    rng = random.Random(5)
    for _ in range(100):
        position = game.initial_state()
        for _ in range(rng.randrange(0, 40)):
            if game.is_terminal(position):
                break
            position = game.apply(position, rng.choice(game.legal_moves(position)))
        for mirror in (mirror_columns, mirror_rows):
            image = CaveState(mirror(position.black), mirror(position.white), position.to_move, position.winner)
            cell = {move: mirror(1 << move).bit_length() - 1 for move in game.legal_moves(position)}
            assert sorted(game.legal_moves(image)) == sorted(cell.values())
            for move in game.legal_moves(position)[:4]:
                after, mirrored = game.apply(position, move), game.apply(image, cell[move])
                assert (mirror(after.black), mirror(after.white), after.winner) == (
                    mirrored.black, mirrored.white, mirrored.winner)
        assert cave_key(position) == cave_key(CaveState(mirror_rows(mirror_columns(position.black)),
                                                         mirror_rows(mirror_columns(position.white)),
                                                         position.to_move, position.winner))


@pytest.mark.parametrize("name", registered.two_player())
def test_even_a_moments_analysis_values_every_move(name, no_tables):
    """The first iteration is completed past any deadline (only a cancel stops it), so a hint asked with almost
    no time still names a move and its value."""
    from ai.analysis import advice, analyse

    game = get_game(name)
    state = game.initial_state()
    snapshot = analyse(game, state, Limits(time=1e-6))
    assert snapshot.depth >= 2 and all(value.scored for value in snapshot.moves)
    found = advice(game, state, snapshot)
    assert found is not None and snapshot.best is not None and found.move == snapshot.best.move


@pytest.mark.parametrize("name", registered.two_player())
def test_even_a_moments_hint_through_the_worker_values_every_move(name, no_tables):
    """The same promise through the shared analysis (the window's hint): the worker does not answer for the
    analysis at its deadline, so a busy machine that builds the engine after the deadline still gets advice."""
    from ai.analysis import Asking, Shelf

    game = get_game(name)
    state = game.initial_state()
    asking = Asking(Shelf(game), state, 1e-6)
    hint = asking.wait(60)
    assert hint is not None, asking.error
    assert asking.snapshot is not None and all(value.scored for value in asking.snapshot.moves)
    assert hint.move in game.legal_moves(state)
