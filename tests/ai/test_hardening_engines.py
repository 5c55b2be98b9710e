"""The one engine-spec validator and "time=none means until cancelled" (issue 22)."""
from __future__ import annotations

import math
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from ai import registry
from ai.base import CancelToken, Engine, EngineError, Limits, SearchResult
from ai.worker import Finished, SearchWorker

HANG_SECONDS = 5.0
"""What these tests allow an answer that must come 'at once': a hang (what they guard against) never
answers, and a shared, loaded machine can take a second where a quiet one takes milliseconds."""

KALAH = rules.get_game("kalah")


@pytest.mark.parametrize("spec, words", [
    ("greedy:eval=nonexistent", ["nonexistent", "valid: default"]),
    ("pvs:time=1e9", ["0.001 to 3600"]),
    ("pvs:time=1e300", ["0.001 to 3600"]),
    ("pvs:time=1e-300", ["0.001 to 3600"]),
    ("pvs:time=nan", ["finite"]),
    ("mcts:c=inf", ["finite"]),
    ("pvs:depth=" + "9" * 5000, ["too long"]),
    ("alphabeta:depth=" + "9" * 35, ["from 1 to 30"]),
    ("", ["no engine named", "alphabeta"]),
    ("nonexist", ["unknown engine", "alphabeta"]),
    ("bfs", ["does not play Kalah", "alphabeta"]),
    ("alphabeta:wings=2", ["no parameter", "depth, eval"]),
    ("alphabeta:depth=٣", ["whole number from 1 to 30"]),
    ("pvs:time=１.5", ["number from 0.001 to 3600"]),
    ("mcts:iterations=1_000", ["whole number"]),
])
def test_bad_specs_are_refused_naming_what_is_valid(spec: str, words: list[str]) -> None:
    started = time.perf_counter()
    with pytest.raises(EngineError) as caught:
        registry.check_engine_spec(spec, KALAH)
    message = str(caught.value)
    assert all(word in message for word in words), message
    assert len(message) < 400 and time.perf_counter() - started < HANG_SECONDS


def test_time_none_is_accepted_as_until_cancelled() -> None:
    _, params = registry.check_engine_spec("pvs:time=none", KALAH)
    assert params["time"] is None


@settings(max_examples=150, deadline=None)
@given(st.one_of(
    st.text(max_size=80),
    st.builds(lambda name, key, value: f"{name}:{key}={value}",
              st.sampled_from([info.name for info in registry.engines()] + ["x", ""]),
              st.sampled_from(["time", "depth", "eval", "c", "tt", "fast", "seed", "zz"]),
              st.one_of(st.text(max_size=20), st.floats(allow_nan=True).map(repr), st.integers().map(str))),
))
def test_any_spec_gives_a_value_or_a_clear_error(spec: str) -> None:
    started = time.perf_counter()
    try:
        info, params = registry.check_engine_spec(spec, KALAH)
    except EngineError as error:
        assert str(error) and len(str(error)) < 600
    else:
        assert info.suits(KALAH)
        for value in params.values():
            assert not isinstance(value, float) or math.isfinite(value)
    assert time.perf_counter() - started < HANG_SECONDS


class DeafEngine(Engine):
    """An engine that ignores deadlines and stops only when cancelled, as ``time=none`` promises."""

    name = "deaf"

    def __init__(self, game):  # type: ignore[no-untyped-def]
        super().__init__(game)
        self.stopped = threading.Event()

    def search(self, state, limits=None, cancel=None, progress=None):  # type: ignore[no-untyped-def]
        assert cancel is not None
        while not cancel.is_cancelled:
            time.sleep(0.002)
        self.stopped.set()
        return SearchResult(None)


def test_the_thread_stops_once_the_deadline_answer_is_given() -> None:
    engine = DeafEngine(KALAH)
    worker = SearchWorker(engine, KALAH.initial_state(), Limits(time=0.05))
    worker.start()
    assert worker.wait(2)
    assert isinstance(worker.poll()[-1], Finished)
    assert engine.stopped.wait(1), "the search thread kept running after its deadline answer"


@pytest.mark.parametrize("spec", ["pvs:time=none", "mcts:time=none,iterations=100000000"])
def test_time_none_engines_stop_when_cancelled(spec: str) -> None:
    worker = SearchWorker(registry.make_engine(KALAH, spec), KALAH.initial_state(), Limits())
    worker.start()
    time.sleep(0.2)
    worker.cancel()
    assert worker.done
    deadline = time.monotonic() + 2
    while worker._thread is not None and worker._thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert worker._thread is not None and not worker._thread.is_alive()


def test_a_cancel_token_with_no_deadline_runs_until_cancelled() -> None:
    token = CancelToken()
    assert not token.expired()
    token.cancel()
    assert token.expired()
