"""Each game's engine-side facts are registered once (ai/games.py); an evaluator that cannot be built is an
error naming the module and the cause, never a silent zero evaluator."""
from __future__ import annotations

import sys

import pytest

from ai import games
from ai.base import EngineError
from ai.evaluators import ZeroEvaluator, evaluator_names, get_evaluator
from ai.fast import kernel_for
from rules import get_game


@pytest.fixture
def restore_kalah():  # type: ignore[no-untyped-def]
    record = games.support("kalah")
    yield
    games.register(record)


def test_a_failing_evaluator_module_is_an_error_naming_module_and_cause(restore_kalah, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "stonecave_broken_eval", None)  # importing it raises ImportError
    games.register_evaluator("kalah", "default", "stonecave_broken_eval:make")
    with pytest.raises(EngineError, match=r"evaluator 'default' for Kalah: its module stonecave_broken_eval "
                                          r"failed to import \(ModuleNotFoundError: .*stonecave_broken_eval"):
        get_evaluator(get_game("kalah"), "default")


def test_an_evaluator_module_raising_on_import_is_reported_with_its_error(restore_kalah, tmp_path,
                                                                          monkeypatch) -> None:
    (tmp_path / "stonecave_raising_eval.py").write_text("raise RuntimeError('weights file missing')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    games.register_evaluator("kalah", "raising", "stonecave_raising_eval:make")
    with pytest.raises(EngineError, match=r"RuntimeError: weights file missing"):
        get_evaluator(get_game("kalah"), "raising")


def test_a_missing_factory_is_named(restore_kalah) -> None:
    games.register_evaluator("kalah", "ghost", "ai.evaluators.sowing:no_such_factory")
    with pytest.raises(EngineError, match=r"ai.evaluators.sowing has no factory 'no_such_factory'"):
        get_evaluator(get_game("kalah"), "ghost")


def test_registered_evaluators_build_and_unknown_ones_list_the_valid() -> None:
    cave = get_game("magnetic-cave")
    assert evaluator_names(cave) == ("default", "windows", "novcf", "rootvcf", "leafvcf", "zero")
    assert get_evaluator(cave, "windows").name != get_evaluator(cave).name
    with pytest.raises(EngineError, match=r"Magnetic Cave has no evaluator 'nope' \(valid: default, windows, novcf, rootvcf, leafvcf, zero\)"):
        get_evaluator(cave, "nope")
    assert isinstance(get_evaluator(get_game("solitaire")), ZeroEvaluator)


def test_time_rules_are_set_once() -> None:
    assert games.support("magnetic-cave").time_limit == games.CAVE_TIME_LIMIT
    assert games.support("magnetic-cave").seconds() == games.CAVE_TIME_LIMIT
    hus = games.support(get_game("hus"))
    assert hus.seconds(first_move=True) == 30.0 and hus.seconds() == 2.0
    assert games.support("kalah").time_limit is None and games.support("unknown-game").seconds() == 1.0


def test_kernels_come_from_the_registration(restore_kalah) -> None:
    kalah = get_game("kalah")
    evaluator = get_evaluator(kalah)
    assert type(kernel_for(kalah, evaluator, compiled=False)).__name__ == "KalahKernel"
    games.register(games.GameSupport("kalah", games.support("kalah").evaluators))  # no kernels
    assert type(kernel_for(kalah, evaluator, compiled=False)).__name__ == "GameKernel"
