"""Slow work done by other processes (a wheel built, the other Pythons' suites, the generated attacks), started
when the run's collection ends and done on the core the rest of the suite leaves idle: most tests run in this one
process, so on a 2-core machine the second core waits, and these jobs are mostly waiting on child processes.

A test module registers a job with ``@background.job("name")``, a function of a scratch folder; a test that needs
it is marked ``@pytest.mark.background("name")`` and reads ``background.result("name")``.  ``conftest.py`` starts
every job a collected test is marked with, one after another in one thread; ``result`` waits for its job, or,
when nothing started it (a test run on its own by another runner), runs it there and then.  A job's exception is
raised in the test that reads it.

A job's child processes get ``environ()``, the environment as it was when the jobs started, never the live one:
the tests beside it change variables (``monkeypatch.setenv``), and a process forked while glibc reallocates its
``environ`` array was seen to inherit a torn one (``chattr``: "Argument list too long"), or a test's temporary
tables folder.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Callable, Iterable

Job = Callable[[Path], Any]

JOBS: dict[str, Job] = {}
"""Every job registered, by name (filled as the test modules are imported, at collection)."""
_started: dict[str, Future] = {}
_scratch: list[Path] = []
_environment: dict[str, str] = {}


def job(name: str) -> Callable[[Job], Job]:
    """Register ``function(folder)`` as the job ``name``."""
    def register(function: Job) -> Job:
        known = JOBS.get(name, function)
        # The same module imported again under another name (``tests.test_pythons`` by a test that reads its
        # helpers) registers the same function again: only a different function is a clash.
        if (known.__qualname__, known.__code__.co_filename) != (function.__qualname__, function.__code__.co_filename):
            raise ValueError(f"two background jobs are called {name!r}")
        JOBS[name] = function
        return function
    return register


def _folder(name: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=f"stonecave-{name}-"))
    _scratch.append(folder)
    return folder


def start(names: Iterable[str]) -> None:
    """Start the jobs ``names`` (those not started yet), in this order, one at a time in a daemon thread."""
    queued = [(name, Future()) for name in dict.fromkeys(names) if name not in _started]
    unknown = [name for name, _ in queued if name not in JOBS]
    if unknown:
        raise ValueError(f"tests are marked with background jobs nobody registered: {', '.join(unknown)}")
    for name, future in queued:
        _started[name] = future
    if queued and not _environment:
        _environment.update(os.environ)

    def work() -> None:
        for name, future in queued:
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(JOBS[name](_folder(name)))
            except BaseException as error:  # noqa: BLE001 - given to the test that reads the job
                future.set_exception(error)

    if queued:
        threading.Thread(target=work, name="background-jobs", daemon=True).start()


def environ(**changes: str) -> dict[str, str]:
    """The environment for a job's child process (see above), with ``changes``; the live one before any job
    started (a job run on its own)."""
    env = dict(_environment or os.environ)
    env.update(changes)
    return env


def result(name: str, timeout: float = 1800) -> Any:
    """The job's result (waiting for it), or its exception raised here."""
    if name not in _started:
        start([name])
    return _started[name].result(timeout)


def clean() -> None:
    """Remove the jobs' scratch folders (at the session's end; a job still running keeps its own)."""
    for name, future in _started.items():
        if not future.done():
            future.cancel()
    for folder in _scratch:
        shutil.rmtree(folder, ignore_errors=True)
