"""Perft for every game from one data table, ``tests/data/perft.json``.

``perft(game, state, depth)`` counts the move sequences of exactly ``depth`` plies (an extra turn is a ply of
its own; a finished game has no moves), through the rules' ``legal_moves`` and ``apply`` as any search would.
``tables()`` gives the table's entries: a game spec, a named position (the start when none is written), where
the counts come from, how deep the pure-Python test goes (``python_depth``; deeper counts are for the compiled
core), and the counts by depth.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import rules

TABLE = Path(__file__).parent / "data" / "perft.json"


def perft(game: rules.Game, state: Any, depth: int) -> int:
    if depth == 0:
        return 1
    moves = game.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(game, game.apply(state, move), depth - 1) for move in moves)


def split(game: rules.Game, state: Any, depth: int) -> dict:
    """perft(depth - 1) after each first move: what a mismatch prints, to find the move that differs."""
    return {move: perft(game, game.apply(state, move), depth - 1) for move in game.legal_moves(state)}


def tables() -> list[dict]:
    return json.loads(TABLE.read_text(encoding="utf-8"))["tables"]


def entry(game: str, name: str = "start") -> dict:
    """The table's entry for the game named ``game`` (its rules name, e.g. 'kalah') and position ``name``."""
    return next(item for item in tables() if item["game"].partition(":")[0] == game and item["name"] == name)


def position(item: dict) -> tuple[rules.Game, Any]:
    """The rules object and the position of a table entry."""
    game = rules.parse_game_spec(item["game"])
    text = item.get("position")
    return game, (game.initial_state() if text is None else game.from_text(text))


def counts(item: dict) -> dict[int, int]:
    return {int(depth): count for depth, count in item["counts"].items()}
