"""The match screen's words (``game.explain``) on real positions of Kalah, Oware, Hus and Magnetic Cave: what a
move does, the hint and how sure it is, the computer's reasoning, the result and its reason, the move list.
Each position is worked by hand; the rules' own ``report`` is the oracle where counting by hand is long (Hus)."""
from __future__ import annotations

import pytest

import rules
from ai.base import Limits, SearchResult
from ai.evaluators import WIN, final_score, get_evaluator
from ai.registry import make_engine
from game import explain
from game.hint_search import RankedSearch
from game.savegame import Seat
from game.session import Session

KALAH = rules.get_game("kalah")
OWARE = rules.get_game("oware")
HUS = rules.get_game("hus")
CAVE = rules.get_game("magnetic-cave")

# South's pit 2 (index 1) holds one seed: it lands in the empty pit 3, opposite North's 6: 7 captured.
KALAH_CAPTURE = KALAH.from_text("pits=0,1,0,0,0,3/0,0,0,6,0,2 stores=20,16 move=S")
# South's last seed (pit 4) lands in the empty pit 5 and takes itself alone; South's side is then empty.
KALAH_LAST = KALAH.from_text("pits=0,0,0,1,0,0/0,0,0,0,0,1 stores=30,16 move=S")
# South's pit 6 (2 seeds) brings North's first two houses to 2 and 3: both captured, 5 seeds.
OWARE_CAPTURE = OWARE.from_text("pits=0,0,0,0,0,2/1,2,0,0,4,0 stores=15,24 move=S")
# North has no seeds: whatever South plays must feed North.
OWARE_FEED = OWARE.from_text("pits=0,0,0,0,3,1/0,0,0,0,0,0 stores=24,20 move=S")
# Black has A1-D1 and is to move: E1 (cell 4) is legal and makes five.
CAVE_FOUR = CAVE.from_text("rows=......../......../......../......../......../......../WWWW..../BBBB.... move=B")



@pytest.fixture(autouse=True)
def plain_calibration(monkeypatch):  # type: ignore[no-untyped-def]
    """The words' own logic, on the plain reading of a score (seeds as scored): the fitted curves
    (``ai/data/calibration.json``) are ``tests/ai/test_calibration.py``'s to check, and they change as they are
    refitted."""
    import ai.calibration

    monkeypatch.setattr(ai.calibration, "shipped", lambda: ai.calibration.PLACEHOLDER)

def result(move, score: float = 0.0, depth: int = 6) -> SearchResult:  # type: ignore[no-untyped-def]
    return SearchResult(move, score, depth)


def test_an_extra_turn_is_said_to_the_player_and_pits_count_from_one():
    start = KALAH.initial_state()
    text = explain.hint_text(KALAH, start, result(2, 1.0), {0: -3.0, 1: -2.0, 3: -4.0, 4: -1.5, 5: -2.5})
    assert text == ("Pit 3: you can expect to be about 1 seed ahead.\n"
                    "Your last seed lands in your store: play again. Better than pit 5, the next best (by about 3 "
                    "seeds).")
    ahead = explain.hint_text(KALAH, start, result(2, 3.44, depth=18), {0: -3.0})
    assert ahead.startswith("Pit 3: you can expect to be about 3 seeds ahead.\n")
    assert ahead.endswith("Better than pit 1, the next best (by about 6 seeds).")
    assert explain.hint_text(KALAH, start, result(2, 0.01), {0: -3.0}).startswith("Pit 3: about even.")
    # the search's depth is an engine developer's detail: only with the Details setting
    assert "plies" not in text + ahead
    assert explain.hint_text(KALAH, start, result(2, 0.01), {0: -3.0}, details=True).startswith(
        "Pit 3: about even (6 plies).")
    assert explain.move_text(KALAH, start, 2) == "South sows pit 3 (4 seeds): plays again"


def test_a_capture_names_the_seeds_captured_in_the_singular_and_plural():
    assert explain.hint_text(KALAH, KALAH_CAPTURE, result(1)).startswith("Pit 2: about even.\n"
                                                                           "It captures 7 seeds.")
    assert explain.move_text(KALAH, KALAH_CAPTURE, 1) == "South sows pit 2 (1 seed): captures 7 seeds"
    assert explain.move_text(KALAH, KALAH_LAST, 3) == "South sows pit 4 (1 seed): captures 1 seed, wins the game"


def test_a_move_that_wins_says_so_and_a_proven_score_is_a_sure_win():
    text = explain.hint_text(KALAH, KALAH_LAST, result(3, WIN + 14, depth=1))
    assert text == "Pit 4 wins by at least 14, proven.\nIt captures 1 seed, wins the game."
    lost = explain.hint_text(KALAH, KALAH_CAPTURE, result(5, -(WIN + 3)))
    assert lost.startswith("Every move loses; pit 6 loses least (by at least 3, proven).")
    assert "100" not in text + lost  # never a raw score
    # South's last seed reaches the store, but South's side is then empty: no extra turn, North takes its 10.
    losing = KALAH.from_text("pits=0,0,0,0,0,1/0,0,0,0,0,10 stores=10,27 move=S")
    assert explain.move_text(KALAH, losing, 5) == "South sows pit 6 (1 seed): ends the game and loses"
    assert explain.hint_text(KALAH, losing, result(5)).endswith("\nIt ends the game and you lose. The only move.")


def proven(move, value: int) -> SearchResult:  # type: ignore[no-untyped-def]
    """What the Perfect engine answers when it has proved the position's exact value."""
    score = WIN + value if value > 0 else -(WIN - value) if value < 0 else 0.0
    return SearchResult(move, score, 250, exhaustive=True, info={"proven": True, "value": value, "source": "prover"})


def test_a_proven_hint_says_what_is_proven_and_never_a_score():
    start = KALAH.initial_state()
    assert explain.hint_text(KALAH, KALAH_CAPTURE, proven(1, 6)) == "Pit 2 wins by 6, proven.\nIt captures 7 seeds."
    assert explain.hint_text(KALAH, start, proven(2, 0)) == \
        "Pit 3 draws, proven.\nYour last seed lands in your store: play again."
    assert explain.hint_text(KALAH, start, proven(1, -2)) == "Every move loses; pit 2 loses least (by 2, proven)."
    # an exhaustive search (every line to the end) is as good as a proof; a proven bound says "at least"
    assert explain.verdict(KALAH, start, SearchResult(0, -(WIN + 4), 30, exhaustive=True)) == \
        "Every move loses; pit 1 loses least (by 4, proven)."
    assert explain.verdict(KALAH, start, SearchResult(0, 3.0, 250, info={"proven": False, "bound": 3})) == \
        "Pit 1 wins by at least 3, proven."
    assert explain.verdict(KALAH, start, SearchResult(0, -1.0, 250, info={"proven": False, "bound": -1})) == \
        "Pit 1 loses by at most 1, proven."
    assert explain.verdict(KALAH, start, SearchResult(0, 0.4, 2)) == "Pit 1: a quick look only."


def test_a_kalah_hint_is_proved_by_the_tables_when_it_can_be(tmp_path, monkeypatch):
    """The hint is the analysis's advice (``ai.analysis.advice``): near the end its best move is proven by the
    tables, with the exact solver's value, and the words say so."""
    import ai.core
    from ai import tables
    from ai.analysis import advice, analyse

    if ai.core.module() is None:
        return  # the tables are built by the compiled core; test_the_ranked_hint... covers the quick helper
    small = rules.get_game("kalah", pits=4, seeds=3)
    tables.build_kalah_tables(tmp_path, 4, True, 8, threads=1)
    monkeypatch.setenv(tables.ENV, str(tmp_path))
    tables.forget()
    try:
        state = small.from_text("pits=1,0,2,0/0,1,0,3 stores=10,7 move=S")
        found = advice(small, state, analyse(small, state, Limits(depth=4)))
        expected = make_engine(small, "solver").search(state)
        assert found is not None and found.info["proven"] and found.info["value"] == int(expected.score)
        words = explain.hint_text(small, state, found, found.info["alternatives"])
        assert ", proven" in words or words.startswith("Every move loses; ")
    finally:
        tables.forget()


def test_the_strength_of_the_advice_in_plain_terms():
    start = KALAH.initial_state()
    assert explain.strength(KALAH, start, result(0, 1.0, depth=2), {1: -5.0}) == "A quick look only."
    assert explain.strength(KALAH, start, result(0, 1.0), {1: 0.8, 2: -3.0}) == "As good as pit 2."
    assert explain.strength(KALAH, start, result(0, 1.0), {4: 0.0, 2: -3.0}) == \
        "A little better than pit 5, the next best (by about 1 seed)."
    assert explain.strength(KALAH, start, result(0, 1.0), {4: -4.5}) == \
        "Better than pit 5, the next best (by about 6 seeds)."
    # equal values are named equal, never "better"
    assert explain.strength(KALAH, start, result(0, 1.0), {4: 1.0}) == "As good as pit 5."
    assert explain.strength(CAVE, CAVE.initial_state(), result(0, 5.0), {7: 5.0}) == "As good as H1."


def test_oware_captures_feeding_and_the_majority():
    assert "\nIt captures 5 seeds." in explain.hint_text(OWARE, OWARE_CAPTURE, result(5))
    assert "\nIt feeds North." in explain.hint_text(OWARE, OWARE_FEED, result(4))
    session = Session(OWARE, (Seat(), Seat()), OWARE.from_text("pits=0,0,0,0,0,2/1,2,0,0,4,0 stores=20,19 move=S"))
    session.play(5)
    said = explain.result(session)
    assert said.headline == "South wins 25 – 19" and said.winner == 0  # the seeds left on the board count for no one
    assert said.reason == "South captured more than half the seeds (25 of 48). The game lasted 1 move."


def test_hus_relays_are_counted_as_the_rules_report_them():
    start = HUS.initial_state()
    for move in HUS.legal_moves(start):
        report = HUS.report(start, move)
        text = explain.move_text(HUS, start, move)
        assert text.startswith(f"South sows pit {move + 1} ({report.seeds} seeds)")
        assert (f"relays {explain.plural(report.relays, 'time')}" in text) == (report.relays > 0)


def test_hus_a_player_with_no_pit_to_sow_loses():
    stuck = HUS.from_text("pits=" + ",".join(["3"] * 16 + ["0"] * 16) + "/" + ",".join(["1"] * 16 + ["0"] * 16)
                          + " move=N turn=3")
    said = explain.result(Session(HUS, (Seat(), Seat()), stuck))
    assert said.headline == "South wins 48 – 16"
    assert said.reason.startswith("North had no pit of two or more seeds to sow, and loses.")


def test_the_cave_names_cells_and_five_in_a_row():
    assert CAVE.legal_moves(CAVE_FOUR)[0] == 4
    assert explain.hint_text(CAVE, CAVE_FOUR, result(4, 250.0)).startswith(
        "E1: Black is better.\nIt makes five in a row: you win.")
    assert explain.hint_text(CAVE, CAVE_FOUR, result(4, WIN + 1, depth=1)).startswith("E1 wins, proven.")
    session = Session(CAVE, (Seat("greedy"), Seat()), CAVE_FOUR)
    session.play(4)
    said = explain.result(session)
    assert said.headline == "You lost" and said.winner == 0  # the human is White; no score for the cave
    assert said.reason.startswith("Black made five in a row (A1 to E1).")
    assert explain.move_list(CAVE, session.states, session.moves) == ["  1. B E1"]


def test_the_result_speaks_to_each_seating_with_the_score_in_a_clear_order():
    def finished(seats: tuple[Seat, Seat]) -> Session:
        session = Session(KALAH, seats, KALAH_LAST)
        session.play(3)  # South wins 31 - 17
        return session

    assert explain.result(finished((Seat(), Seat("greedy")))).headline == "You won 31 – 17"
    assert explain.result(finished((Seat("greedy"), Seat()))).headline == "You lost 17 – 31"
    assert explain.result(finished((Seat(), Seat()))).headline == "South wins 31 – 17"
    assert explain.result(finished((Seat("greedy"), Seat("random")))).headline == "South (Easy) won 31 – 17"
    reason = explain.result(finished((Seat(), Seat()))).reason
    assert reason == "South's side is empty: the 1 seed left goes to North. The game lasted 1 move."


def test_the_computers_reasoning_stays_in_words():
    said = explain.reasoning_text(KALAH, KALAH_CAPTURE, result(1, 2.2), "The computer")
    assert said == "The computer played pit 2 and captured 7 seeds; it expects to be about 2 seeds ahead."
    even = explain.reasoning_text(KALAH, KALAH.initial_state(), result(2, 0.1), "North")
    assert even == "North played pit 3, which earns another turn; it sees an even game."
    assert explain.reasoning_text(KALAH, KALAH.initial_state(), result(0, 0.0, depth=0), "North") == \
        "North played pit 1."
    cave = explain.reasoning_text(CAVE, CAVE.initial_state(), result(0, -300.0), "The computer")
    assert cave == "The computer played A1; it thinks White is better."  # the cave speaks in outcomes
    even = explain.reasoning_text(CAVE, CAVE.initial_state(), result(0, 2.0), "The computer")
    assert even == "The computer played A1; it thinks the game is even."


def test_the_move_list_hides_its_oldest_lines_and_counts_them():
    lines = [f"line {number}" for number in range(30)]
    shown = explain.trim_list(lines, 10)
    assert len(shown) == 10 and shown[0] == "  ... 21 earlier" and shown[1:] == lines[21:]
    assert explain.trim_list(lines[:10], 10) == lines[:10]


def negamax(state, depth: int, evaluator) -> float:  # type: ignore[no-untyped-def]
    """Plain fixed-depth negamax, the reference: a move that keeps the mover (Kalah's extra turn) is not negated."""
    mover = KALAH.to_move(state)
    if KALAH.is_terminal(state):
        return final_score(KALAH, state, mover)
    if depth == 0:
        return evaluator.evaluate(KALAH, state)
    values = []
    for move in KALAH.legal_moves(state):
        child = KALAH.apply(state, move)
        value = negamax(child, depth - 1, evaluator)
        values.append(value if KALAH.to_move(child) == mover else -value)
    return max(values)


def test_the_ranked_hint_scores_every_other_move_to_the_same_horizon():
    # South's pit 6 (one seed) earns an extra turn; pit 2 captures 7: both moves are in play.
    state = KALAH.from_text("pits=0,1,0,0,0,1/0,0,0,6,0,2 stores=20,18 move=S")
    engine = RankedSearch(make_engine(KALAH, "alphabeta:depth=3,eval=store"))
    found = engine.search(state)
    alternatives = found.info["alternatives"]
    assert set(alternatives) == set(KALAH.legal_moves(state)) - {found.move}
    evaluator = get_evaluator(KALAH, "store")
    for move, score in alternatives.items():
        child = KALAH.apply(state, move)
        value = negamax(child, 2, evaluator)
        assert score == (value if KALAH.to_move(child) == 0 else -value), move
    assert found.score == negamax(state, 3, evaluator) >= max(alternatives.values())
