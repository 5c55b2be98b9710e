"""The puzzle screen's search process (``ai.search_process``): no window needed.

The child must import only ``rules`` and ``ai``, report progress and one final message, stop when killed, and
turn every failure (an engine error, a child that dies) into a ``Failed`` message rather than a hang.
"""
from __future__ import annotations

import os
import signal
import time

import pytest

from ai.base import Limits
from ai.search_process import ProcessLauncher, ProcessWorker, describe_exit
from ai.worker import Failed, Finished, Progress
from rules.solitaire import Solitaire, random_deal

WINDOW_PACKAGES = {"arcade", "pyglet", "pymunk", "game", "PIL"}


@pytest.fixture
def launcher():  # type: ignore[no-untyped-def]
    launcher = ProcessLauncher()
    yield launcher
    launcher.close()


def drain(worker: ProcessWorker, timeout: float = 30.0) -> list:  # type: ignore[type-arg]
    assert worker.wait(timeout), "the search process gave no final message"
    return worker.poll()


def test_a_search_in_the_child_finds_a_legal_line_and_imports_nothing_of_the_window(launcher):  # type: ignore[no-untyped-def]
    game = Solitaire(variant="lewis")
    state = game.deal(random_deal(5))
    worker = ProcessWorker(game, "packed-dfs", state, live=True, launcher=launcher)
    worker.start()
    messages = drain(worker)
    finals = [m for m in messages if not isinstance(m, Progress)]
    assert len(finals) == 1 and isinstance(finals[0], Finished) and not finals[0].cancelled
    result = finals[0].result
    assert result.move in game.legal_moves(state)
    line_end = state
    for move in result.pv:  # the whole line is legal in the parent's rules
        line_end = game.apply(line_end, move)
    assert "ai" in worker.child_modules and "rules" in worker.child_modules
    assert not WINDOW_PACKAGES & set(worker.child_modules), worker.child_modules


def test_a_long_search_reports_progress_and_cancel_kills_the_child(launcher):  # type: ignore[no-untyped-def]
    game = Solitaire(variant="dose")
    worker = ProcessWorker(game, "astar:time=60", game.deal(random_deal(11)), live=True, launcher=launcher)
    worker.start()
    deadline = time.monotonic() + 30
    progress: list = []  # type: ignore[type-arg]
    while len(progress) < 2 and time.monotonic() < deadline:
        progress += [m for m in worker.poll() if isinstance(m, Progress)]
        time.sleep(0.02)
    assert len(progress) >= 2 and progress[-1].result.info["visited"] > progress[0].result.info["visited"]
    child = worker.process
    worker.cancel()
    assert worker.done and worker.token.is_cancelled
    finals = [m for m in worker.poll() if not isinstance(m, Progress)]
    assert len(finals) == 1 and isinstance(finals[0], Finished) and finals[0].cancelled
    assert child is not None
    child.popen.wait(timeout=10)  # killed, not left searching
    assert child.popen.returncode == -signal.SIGKILL
    time.sleep(0.1)
    assert worker.poll() == []  # nothing after the final message


def test_a_child_that_dies_is_reported_not_waited_for(launcher):  # type: ignore[no-untyped-def]
    game = Solitaire(variant="dose")
    worker = ProcessWorker(game, "bfs:time=60", game.deal(random_deal(3)), live=True, launcher=launcher)
    worker.start()
    assert worker.process is not None
    os.kill(worker.process.pid, signal.SIGKILL)
    finals = [m for m in drain(worker, 10) if not isinstance(m, Progress)]
    assert len(finals) == 1 and isinstance(finals[0], Failed)
    assert "stopped unexpectedly" in finals[0].error and "SIGKILL" in finals[0].error


@pytest.mark.parametrize("spec, expected", [("no-such-engine", "unknown engine 'no-such-engine'"),
                                            ("astar:speed=3", "speed")])
def test_an_engine_error_in_the_child_comes_back_as_failed(launcher, spec, expected):  # type: ignore[no-untyped-def]
    game = Solitaire()
    worker = ProcessWorker(game, spec, game.deal(random_deal(1)), Limits(time=1), launcher=launcher)
    worker.start()
    finals = drain(worker)
    assert len(finals) == 1 and isinstance(finals[0], Failed) and expected in finals[0].error
    assert worker.traceback and "Traceback" in worker.traceback


def test_the_launcher_keeps_one_warm_child_and_closing_ends_it():  # type: ignore[no-untyped-def]
    launcher = ProcessLauncher()
    assert launcher.has_spare
    first = launcher.take()
    assert not launcher.has_spare  # the next is launched by refill, when no search needs the CPU
    launcher.refill()
    spare = launcher._spare
    assert launcher.has_spare and spare is not None and spare is not first and spare.popen.poll() is None
    first.kill()
    launcher.close()
    spare.popen.wait(timeout=10)
    first.popen.wait(timeout=10)
    with pytest.raises(RuntimeError, match="closed"):
        launcher.take()


def test_exit_descriptions_name_the_signal():  # type: ignore[no-untyped-def]
    assert describe_exit(-signal.SIGKILL) == "killed by SIGKILL"
    assert describe_exit(3) == "exit code 3"


def test_a_child_leaves_when_its_parent_closes_the_request_pipe(launcher):  # type: ignore[no-untyped-def]
    game = Solitaire(variant="dose")
    worker = ProcessWorker(game, "bfs:time=60", game.deal(random_deal(4)), launcher=launcher)
    worker.start()
    assert worker.process is not None
    worker.process.popen.stdin.close()  # what the parent's death does to the pipe
    assert worker.process.popen.wait(timeout=10) == 0
