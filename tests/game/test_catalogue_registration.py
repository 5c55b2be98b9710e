"""One registration per game (game/catalogue.py): the screen, the console and the time rule all come from it."""
from __future__ import annotations

import pytest

import rules
from ai import games
from game import catalogue
from game.console import manager
from game.console.seats import seconds_per_move
from game.savegame import Seat


def test_every_rules_game_has_one_registration_with_a_known_scene_and_console() -> None:
    for info in rules.list_games():
        record = catalogue.registration(info.name)
        assert record == catalogue.REGISTRATIONS.get(info.name, catalogue.Registration(info.name))
        assert record.scene in catalogue.SCENES and record.console in catalogue.CONSOLES
        assert record.rules is rules.game_class(info.name)
        assert {"Easy", "Medium", "Hard", "Strongest"} <= set(record.presets())


def test_aliases_and_rules_objects_find_the_same_record_and_unknown_names_say_what_is_valid() -> None:
    assert catalogue.registration("cave") is catalogue.registration(rules.get_game("magnetic-cave"))
    with pytest.raises(rules.ParameterError, match=r"unknown game 'no-such-game' \(valid: .*kalah"):
        catalogue.registration("no-such-game")


def test_the_cave_time_limit_is_set_once_and_reaches_screen_and_console() -> None:
    cave = catalogue.registration("magnetic-cave")
    assert cave.time_limit == games.CAVE_TIME_LIMIT == cave.engines.seconds()
    assert seconds_per_move(rules.get_game("cave"), Seat("random"), first_move=False) == games.CAVE_TIME_LIMIT
    assert catalogue.registration("kalah").time_limit is None


def test_the_play_menu_and_the_console_read_scene_and_console_from_the_registration() -> None:
    scenes = {entry.name: entry.scene for entry in catalogue.games()}
    assert scenes == {name: catalogue.registration(name).scene for name in scenes}
    assert scenes["magnetic-cave"] == "cave" and scenes["hus"] == "sowing"
    assert manager._is_puzzle("solitaire:variant=lewis") and not manager._is_puzzle("oware")
    assert not manager._is_puzzle("no-such-game")


def test_every_scene_names_a_screen_and_every_named_helper_loads() -> None:
    from game.views.match_view import MatchView

    for scene, screen in catalogue.SCENES.items():
        assert scene == "puzzle" or issubclass(catalogue.load(screen), MatchView), scene
    from ai import games

    for record in catalogue.REGISTRATIONS.values():
        for path in (record.engines.solver, record.engines.prover):  # the analysis's exact helpers, engine-side
            assert not path or callable(games.load(path)), (record.name, path)
    assert games.support("kalah").prover and games.support("magnetic-cave").solver


def test_what_the_screens_say_of_a_game_comes_from_its_registrations_words(monkeypatch) -> None:
    """No name test: a game registered with other words is spoken of in them everywhere."""
    from ai.base import SearchResult
    from game import explain
    from game.analysis_words import value_words
    from game.evaluation_graph import graph_value
    from tests import sixth_game

    sixth_game.install(monkeypatch.setattr)
    words = catalogue.Words(place="house", move_prefix="house", unit="bean", graph_half=8.0,
                            played="{who} lifts {move} ({seeds})", score_label="Beans: ",
                            no_legal_move="{mover} is stuck; {other} wins.")
    monkeypatch.setitem(catalogue.REGISTRATIONS, sixth_game.NAME, catalogue.Registration(sixth_game.NAME, words=words))
    game = rules.get_game(sixth_game.NAME)
    state = game.initial_state()
    assert explain.move_name(game, state, 0) == "house 1"
    assert explain.move_text(game, state, 2).startswith("South lifts house 3 (4 seeds)")
    assert explain.expectation(game, 2.4) == "to be about 2 beans ahead"
    assert explain.verdict(game, state, SearchResult(1, 3.0, 6, 100, (1,), 0.1)) == \
        "House 2: you can expect to be about 3 beans ahead."
    assert value_words(game, 2.5, False, 4) == "about 3 beans ahead"
    assert graph_value(game, 8.0, False) == 0.5
    cave_like = catalogue.Registration(sixth_game.NAME, words=catalogue.CAVE_WORDS)
    monkeypatch.setitem(catalogue.REGISTRATIONS, sixth_game.NAME, cave_like)
    assert explain.move_name(game, state, 0) == "1" and value_words(game, 60.0, False, 4) == "winning"
    sixth_game._clear_caches()
