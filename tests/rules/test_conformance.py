"""The conformance suite: every registered game, under each of its example variants, obeys the protocol.

A game added to the registry is checked here automatically.
"""
from __future__ import annotations

import random

import pytest

import rules
from rules import IllegalMoveError, NotationError, Outcome

MAX_PLIES = 25_000  # far above any game's own limit (Hus: 5000 turns = 10000 plies)


def _variants():
    for info in rules.list_games():
        cls = rules.game_class(info.name)
        for params in cls.examples:
            label = info.name + ("" if not params else ":" + ",".join(f"{k}={v}" for k, v in params.items()))
            yield pytest.param(info.name, params, id=label)


VARIANTS = list(_variants())


def playout(game, seed: int, max_plies: int = MAX_PLIES):
    """A random game from the start; returns the list of states visited (start and end included)."""
    rng = random.Random(seed)
    state = game.initial_state(seed=seed)
    states = [state]
    for _ in range(max_plies):
        if game.is_terminal(state):
            return states
        moves = game.legal_moves(state)
        assert moves, f"{game.spec}: a non-terminal state has no legal move: {game.to_text(state)}"
        state = game.apply(state, rng.choice(moves))
        states.append(state)
    pytest.fail(f"{game.spec}: a random playout did not end within {max_plies} plies")


@pytest.mark.parametrize("name, params", VARIANTS)
def test_random_playouts_end_and_conserve_material(name, params):
    game = rules.get_game(name, **params)
    for seed in range(8):
        states = playout(game, seed)
        start = game.material(states[0])
        for state in states:
            assert game.material(state) == start, f"material changed at {game.to_text(state)}"
        final = states[-1]
        outcome = game.outcome(final)
        assert isinstance(outcome, Outcome)
        assert game.legal_moves(final) == ()
        assert len(outcome.scores) in (1, 2)
        if game.num_players == 2 and outcome.winner is not None:
            assert outcome.winner in (0, 1)


@pytest.mark.parametrize("name, params", VARIANTS)
def test_apply_never_mutates_and_states_are_values(name, params):
    game = rules.get_game(name, **params)
    for state in playout(game, seed=11)[:400]:
        before_text, before_hash = game.to_text(state), hash(state)
        moves = game.legal_moves(state)
        assert moves == game.legal_moves(state), "legal_moves must be in a fixed order"
        assert len(set(moves)) == len(moves), "legal_moves must not repeat a move"
        for move in moves:
            game.apply(state, move)
        assert game.to_text(state) == before_text and hash(state) == before_hash
        with pytest.raises(AttributeError):
            state.__dict__  # slotted: no instance dict to smuggle mutable data into
        with pytest.raises(Exception):
            setattr(state, state.__slots__[0], None)  # frozen


@pytest.mark.parametrize("name, params", VARIANTS)
def test_notation_round_trips_and_equal_states_hash_equal(name, params):
    game = rules.get_game(name, **params)
    for state in playout(game, seed=5):
        text = game.to_text(state)
        assert "\n" not in text
        again = game.from_text(text)
        assert again == state and hash(again) == hash(state)
        assert game.to_text(again) == text
        assert game.to_move(again) == game.to_move(state)


@pytest.mark.parametrize("name, params", VARIANTS)
def test_bad_notation_and_illegal_moves_raise_clear_errors(name, params):
    game = rules.get_game(name, **params)
    state = game.initial_state(seed=1)
    for bad in ("", "nonsense", game.to_text(state) + " extra=1", game.to_text(state)[:-1] + "?"):
        with pytest.raises(NotationError) as error:
            game.from_text(bad)
        assert str(error.value)
    for bad_move in (object(), -1, 10_000, "x", None):
        if bad_move in game.legal_moves(state):
            continue
        with pytest.raises(IllegalMoveError) as error:
            game.apply(state, bad_move)
        assert str(error.value)
    final = playout(game, seed=3)[-1]
    with pytest.raises(IllegalMoveError):
        game.apply(final, game.legal_moves(state)[0])


@pytest.mark.parametrize("name, params", VARIANTS)
def test_same_seed_gives_the_same_game(name, params):
    game = rules.get_game(name, **params)
    first = [game.to_text(s) for s in playout(game, seed=42)]
    again = [game.to_text(s) for s in playout(rules.get_game(name, **params), seed=42)]
    assert first == again


@pytest.mark.parametrize("name, params", VARIANTS)
def test_outcome_only_at_the_end_and_typed_moves_parse(name, params):
    game = rules.get_game(name, **params)
    for state in playout(game, seed=8)[:200]:
        assert (game.outcome(state) is None) == (not game.is_terminal(state))
        for move in game.legal_moves(state):
            assert game.parse_move(state, game.format_move(state, move)) == move
        with pytest.raises((IllegalMoveError, NotationError)) as error:
            game.parse_move(state, "@@ not a move @@")
        assert str(error.value)


def test_registry_lists_every_game_with_parameters():
    infos = rules.list_games()
    names = [info.name for info in infos]
    assert "kalah" in names
    for info in infos:
        game = rules.get_game(info.name)
        assert game.name == info.name
        assert rules.parse_game_spec(game.spec) == game
        for param in info.params:
            assert param.description
    with pytest.raises(rules.ParameterError, match="unknown game"):
        rules.get_game("chess")
    with pytest.raises(rules.ParameterError, match="unknown parameter"):
        rules.get_game("kalah", colour="red")


def test_every_game_has_presets_that_build_engines_suited_to_it():
    from ai import registry

    for info in rules.list_games():
        game = rules.get_game(info.name)
        levels = registry.presets(game)
        extra = {"Perfect"} if info.name == "kalah" else set()  # Kalah's fifth level: tables and the prover
        assert set(levels) == {"Easy", "Medium", "Hard", "Strongest"} | extra, info.name
        for spec in levels.values():
            engine = registry.make_engine(game, spec)
            assert registry.engine_info(spec.partition(":")[0]).suits(game), (info.name, spec)
            assert engine.game == game
