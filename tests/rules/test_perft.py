"""Perft of every game from one data table (``tests/data/perft.json``): one case per game, position and depth.

A mismatch prints the count after each first move, to find the move whose subtree differs.  Depths past an
entry's ``python_depth`` are left to the compiled core's tests; cases of 200,000 leaves or more take seconds
in pure Python and are marked ``slow``.
"""
from __future__ import annotations

import pytest

import rules
from tests.perft import counts, perft, position, split, tables

SLOW_LEAVES = 200_000


def cases() -> list:
    found = []
    for item in tables():
        for depth, expected in counts(item).items():
            if depth <= item["python_depth"]:
                marks = [pytest.mark.slow] if expected >= SLOW_LEAVES else []
                label = f"{item['game'].partition(':')[0]}-{item['name']}-{depth}"
                found.append(pytest.param(item, depth, expected, id=label, marks=marks))
    return found


@pytest.mark.parametrize("item, depth, expected", cases())
def test_perft(item, depth, expected):
    game, state = position(item)
    got = perft(game, state, depth)
    if got != expected:
        pytest.fail(f"{item['game']} {item['name']}: perft({depth}) = {got}, expected {expected}; "
                    f"per first move: {split(game, state, depth)}")


def test_the_table_covers_every_registered_game_and_says_where_its_counts_come_from():
    assert {item["game"].partition(":")[0] for item in tables()} == {info.name for info in rules.list_games()}
    for item in tables():
        game, state = position(item)
        assert item["game"] == game.spec and item["source"] and 1 <= item["python_depth"] <= max(counts(item))
        assert sorted(counts(item)) == list(range(1, max(counts(item)) + 1)), item["name"]
