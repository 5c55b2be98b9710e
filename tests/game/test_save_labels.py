"""A save writes moves as the player numbers them (format 2: pits from 1), and a format 1 save (pits from 0,
the rules' notation) still loads to the same game."""
from __future__ import annotations

import pytest

import rules
from game import savegame
from game.savegame import SavedGame, SaveError, Seat


def kalah_game():  # type: ignore[no-untyped-def]
    game = rules.get_game("kalah")
    state = game.initial_state()
    moves = []
    for move in (2, 5, 0):
        moves.append(move)
        state = game.apply(state, move)
    return game, SavedGame(game, (Seat(), Seat()), game.initial_state(), tuple(moves), None)


def test_a_save_writes_pits_as_the_player_counts_them_and_reads_them_back(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game, saved = kalah_game()
    path = tmp_path / "game.save"
    savegame.save(path, saved)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("StoneCave save 2\n")
    assert [line for line in text.splitlines() if line.startswith("move ")] == ["move 1: 3", "move 2: 6", "move 3: 1"]
    assert savegame.load(path).moves == saved.moves


def test_a_format_1_save_with_pits_from_0_still_loads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game, saved = kalah_game()
    path = tmp_path / "old.save"
    savegame.save(path, saved)
    text = path.read_text(encoding="utf-8").replace("StoneCave save 2", "StoneCave save 1")
    text = text.replace("move 1: 3", "move 1: 2").replace("move 2: 6", "move 2: 5").replace("move 3: 1", "move 3: 0")
    path.write_text(text, encoding="utf-8")
    assert savegame.load(path).moves == saved.moves


@pytest.mark.parametrize("version", ["²", "3", "99999999999"])
def test_an_unknown_or_odd_format_version_is_named(tmp_path, version: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "odd.save"
    path.write_text(f"StoneCave save {version}\ngame: kalah\n", encoding="utf-8")
    with pytest.raises(SaveError, match="version"):
        savegame.load(path)
