"""Every game's ``report`` returns one ``MoveEvents`` shape that agrees with ``apply``; the protocol's defaults
(``random_playout``, ``report``, the player-facing move labels) work for any game."""
from __future__ import annotations

import random

import pytest

import rules
from rules import Game, IllegalMoveError, Reason
from rules.events import LapKind, MoveEvents, Place
from rules.kalah import Kalah
from rules.oware import Oware

GAMES = [info.name for info in rules.list_games()]


def sample_positions(game: Game, count: int = 60, seed: int = 7) -> list:
    """States along a few seeded random games (each non-terminal)."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.initial_state(seed=1)
        while not game.is_terminal(state) and len(states) < count:
            states.append(state)
            moves = game.legal_moves(state)
            state = game.apply(state, moves[rng.randrange(len(moves))])
    return states


@pytest.mark.parametrize("name", GAMES)
def test_report_is_move_events_consistent_with_apply(name: str) -> None:
    game = rules.get_game(name)
    sowing = name != "magnetic-cave"
    for state in sample_positions(game):
        for move in game.legal_moves(state):
            events = game.report(state, move)
            after = game.apply(state, move)
            assert isinstance(events, MoveEvents)
            assert events.player == game.to_move(state)
            outcome = game.outcome(after)
            assert events.end_reason == (None if outcome is None else outcome.reason)
            if sowing:
                # Every seed taken into the hand is dropped once, lap by lap.
                assert events.laps[0].kind is LapKind.FIRST and events.laps[0].taken[0] == (events.picked,
                                                                                             events.seeds)
                assert sum(lap.seeds for lap in events.laps) == len(events.drops)
                assert events.last == events.drops[-1]
            else:
                assert events.picked == Place(events.player, move) and events.laps == ()


def test_kalah_extra_turn_and_capture_are_reported_in_places() -> None:
    game = Kalah()
    start = game.initial_state()
    extra = game.report(start, 2)  # 4 seeds from pit 2: the last falls in South's store
    assert extra.extra_turn and extra.last == Place(0, 0, store=True) and str(extra.last) == "store"
    assert [str(place) for place in extra.drops] == ["4", "5", "6", "store"]
    # South's pit 1 (index 0) sows into the empty pit 2, opposite North's pit 5 (index 4, 4 seeds): capture 5.
    lone = game.from_text("pits=1,0,0,0,0,1/4,4,4,4,4,3 stores=0,0 move=S")
    events = game.report(lone, 0)
    assert events.captured == 5 and events.captures[0].store == Place(0, 0, store=True)
    assert events.captures[0].taken == ((Place(0, 1), 1), (Place(1, 4), 4))
    assert not events.extra_turn and game.describe_move(lone, 0) == "South sows pit 1 (1 seeds), captures 5"


def test_oware_flags_and_end_reason() -> None:
    game = Oware()
    starving = game.from_text("pits=0,0,0,0,0,3/0,0,0,0,0,0 stores=22,23 move=S")
    assert game.report(starving, 5).fed
    assert not game.report(game.initial_state(), 0).fed


def test_place_numbers_are_what_a_player_sees() -> None:
    assert Place(0, 0).number == 1 and str(Place(1, 5)) == "6"
    assert str(Place(0, 0, store=True)) == "store" and Place(0, 1, store=True).number == 2


@pytest.mark.parametrize("name", GAMES)
def test_move_labels_round_trip_and_sowing_pits_count_from_one(name: str) -> None:
    game = rules.get_game(name)
    for state in sample_positions(game, count=20):
        for move in game.legal_moves(state):
            label = game.move_label(state, move)
            assert game.parse_label(state, label) == move
            if isinstance(move, int) and hasattr(state, "pits"):  # a sowing game's pit
                assert label == str(move + 1)


def test_parse_label_names_the_legal_moves_in_the_players_numbering() -> None:
    game = Kalah(pits=3)
    state = game.from_text("pits=0,2,1/1,1,1 stores=0,0 move=S")
    with pytest.raises(IllegalMoveError, match=r"^pit 1 cannot be played: it is empty; legal moves: 2, 3$"):
        game.parse_label(state, "1")
    assert game.parse_label(state, " 3 ") == 2
    for foreign in ("٣", "３", "+3", "-0", "9" * 5000, "2.0"):
        with pytest.raises(rules.NotationError, match=r"is not a pit number: type one of your pits 1\.\.3; "
                                                       r"legal moves: 2, 3"):
            game.parse_label(state, foreign)
    cave = rules.get_game("magnetic-cave")
    with pytest.raises(rules.NotationError, match="type a column letter A-H"):
        cave.parse_label(cave.initial_state(), "1")
    solitaire = rules.get_game("solitaire")
    with pytest.raises(rules.NotationError, match=r"cannot read 'foo'; legal rounds: 1 cw, 1 ccw"):
        solitaire.parse_label(solitaire.initial_state(seed=1), "1 foo")


def test_default_random_playout_and_report_serve_a_game_without_its_own() -> None:
    game = Kalah(pits=3, seeds=2)
    state = game.initial_state()
    # Game's defaults, called on a game that overrides them, must agree with the rules.
    end, plies = Game.random_playout(game, state, random.Random(3))
    assert game.is_terminal(end) and plies > 0 and game.material(end) == game.material(state)
    replay, rng = state, random.Random(3)
    for _ in range(plies):
        moves = game.legal_moves(replay)
        replay = game.apply(replay, moves[int(rng.random() * len(moves))])
    assert replay == end
    events = Game.report(game, state, 0)
    assert events.player == 0 and events.end_reason is None and events.laps == ()
    last = game.from_text("pits=1,0,0/0,0,1 stores=2,2 move=S")
    assert Game.report(game, last, 0).end_reason is Reason.SIDE_EMPTY
