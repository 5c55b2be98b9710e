"""Run a search in a separate Python process, so the window's interpreter never waits on it.

A search thread shares the window's interpreter lock.  A long exhaustive search (A* or BFS over millions of
states) resizes and frees dicts of millions of entries, and each of those steps holds the lock for up to
seconds: the window froze (p95 frame 1.2 s, worst 7-10 s; BENCHMARKS.md).  ``ProcessWorker`` runs the same
engine in a child interpreter instead, with the same face as ``ai.worker.SearchWorker``: ``start``,
``cancel``, ``poll`` (``Progress``, ``Finished``, ``Failed`` messages), ``done``, ``running``::

    launcher = ProcessLauncher()                 # when the screen opens: a warm child starts importing
    worker = ProcessWorker(game, "astar:time=60", state, live=True, launcher=launcher)
    worker.start()                               # hands the request to the warm child; returns at once
    for message in worker.poll(): ...            # every frame, never blocks
    launcher.refill()                            # when no search runs: the next warm child
    worker.cancel()                              # terminates the child at once; Finished(cancelled) follows
    launcher.close()                             # when the screen closes

How:

- The child is ``python -m ai.search_process``: it imports only this module, ``rules`` and ``ai`` (never
  arcade or the application), says it is ready, and waits for one pickled ``SearchRequest`` on its stdin.
  ``multiprocessing``'s spawn and forkserver contexts were not used because they re-import the parent's
  ``__main__`` in the child (the installed ``stonecave`` script, a test runner), which would pull the window's
  modules into it; and a plain fork of a process holding an OpenGL context is unsafe.
- Start-up (a new interpreter importing the engine registry, 0.2-0.5 s of CPU) happens ahead of time:
  ``ProcessLauncher`` keeps one warm child waiting; starting a search takes it, and ``refill`` (called by the
  screen while no search runs) launches the next, so its imports never compete with a search.  Launching is
  ``vfork``/``exec`` under ``subprocess``: 1-8 ms of the UI thread, not a frame.
- Messages come back pickled over the child's stdout (anything the engine prints goes to its stderr), read by
  a daemon thread in the parent that blocks in ``read`` without the interpreter lock and queues them.
- Stop is ``terminate``: the child may be deep inside a dict resize and need not cooperate.  A child that dies
  (killed, out of memory, a crash in C) gives a ``Failed`` message naming its exit code or signal, never a
  hang; an exception in the engine gives ``Failed`` with the exception, as ``SearchWorker`` does.
- The child runs at the lowest priority (nice +19 on POSIX; at +10 the p95 frame was 26 ms instead of 24 ms on two
  cores), so on a busy machine the window's frames go first; the child sends its last message and leaves with ``os._exit``, without freeing its tables.  The
  parent keeps the child's stdin open; when it closes (the window quit or crashed), the child leaves too.
"""
from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ai.base import CancelToken, Engine, Limits, SearchAborted, SearchResult
from ai.worker import Failed, Finished, Mailbox, Progress, fallback_result
from rules import Game, State

CHILD_MODULE = "ai.search_process"
NICE = 19
"""How much lower than the window the child runs (POSIX ``nice`` increment)."""
_ROOT = Path(__file__).resolve().parent.parent
"""The folder holding the ``ai`` and ``rules`` packages, put on the child's import path."""


@dataclass(frozen=True)
class SearchRequest:
    """What the child searches: ``spec`` (an ``ai.registry`` engine spec) for ``game`` from ``state``.

    ``live`` wraps a single-agent engine in ``ai.live_engine.LiveEngine`` so it reports while it searches.
    """

    game: Game
    spec: str
    state: State
    limits: Limits = field(default_factory=Limits)
    live: bool = False


# -- the parent side -----------------------------------------------------------------------------------------
class SearchProcess:
    """One child interpreter, started at once, importing the engines and then waiting for its request."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_ROOT), env.get("PYTHONPATH")]))
        options: dict[str, Any] = {}
        if os.name == "posix":
            options["start_new_session"] = True  # a Ctrl+C in the terminal reaches the window, not the search
        self.popen = subprocess.Popen(
            [sys.executable, "-m", CHILD_MODULE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            cwd=str(_ROOT), env=env, **options,
        )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def send(self, request: SearchRequest) -> None:
        """Hand the child its one request (OSError when the child is already gone)."""
        assert self.popen.stdin is not None
        self.popen.stdin.write(pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL))
        self.popen.stdin.flush()  # kept open: the child leaves when it closes (the parent is gone)

    def kill(self) -> None:
        """End the child now (SIGKILL: it may be deep in a dict resize) and reap it off the UI thread."""
        if self.popen.poll() is None:
            try:
                self.popen.kill()
            except OSError:
                pass
        threading.Thread(target=self._reap, name=f"reap-{self.pid}", daemon=True).start()

    def _reap(self) -> None:
        try:
            self.popen.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.popen.stdin, self.popen.stdout):
            if stream is not None and not stream.closed:
                try:
                    stream.close()
                except OSError:
                    pass


class ProcessLauncher:
    """Keeps one warm child ready, so a search starts without waiting for an interpreter to import."""

    def __init__(self, warm: bool = True) -> None:
        self._spare: SearchProcess | None = SearchProcess() if warm else None
        self.closed = False

    def take(self) -> SearchProcess:
        """The warm child (or a new one when there is none); ``refill`` launches the next."""
        if self.closed:
            raise RuntimeError("this ProcessLauncher is closed")
        process = self._spare
        self._spare = None
        if process is None or process.popen.poll() is not None:
            process = SearchProcess()
        return process

    def refill(self) -> None:
        """Launch a spare child if there is none (call it when no search runs, so its start-up takes no CPU
        from a search or from the frames beside one)."""
        if not self.closed and (self._spare is None or self._spare.popen.poll() is not None):
            self._spare = SearchProcess()

    @property
    def has_spare(self) -> bool:
        return self._spare is not None and self._spare.popen.poll() is None

    def close(self) -> None:
        """End the spare child; searches already started are their workers' to stop."""
        self.closed = True
        if self._spare is not None:
            self._spare.kill()
            self._spare = None


def describe_exit(code: int | None) -> str:
    """``exit code 3`` or ``killed by SIGKILL`` for a child's return code."""
    if code is None:
        return "no exit code"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class ProcessWorker(Mailbox):
    """``engine.search`` in a child process, with ``ai.worker.SearchWorker``'s interface (see the module)."""

    def __init__(self, game: Game, spec: str, state: State, limits: Limits | None = None, *, live: bool = False,
                 launcher: ProcessLauncher | None = None) -> None:
        super().__init__()
        self.request = SearchRequest(game, spec, state, limits if limits is not None else Limits(), live)
        self.spec = spec
        self.launcher = launcher
        self.token = CancelToken()
        """Cancelled by ``cancel`` (the child itself is terminated; the token is for the caller to inspect)."""
        self.traceback: str | None = None
        self.ready_at: float | None = None
        """``time.perf_counter()`` when the child said it had imported the engines (its start-up cost)."""
        self.child_modules: tuple[str, ...] = ()
        """The top-level packages the child had imported when it became ready (``ai``, ``rules``, ...)."""
        self.process: SearchProcess | None = None

    # -- the UI side --------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Hand the request to a (warm) child and start reading its messages; returns at once."""
        if self.process is not None:
            raise RuntimeError("this ProcessWorker has already been started; build a new one for a new search")
        self.started_at = time.perf_counter()
        self.process = self.launcher.take() if self.launcher is not None else SearchProcess()
        try:
            self.process.send(self.request)
        except OSError as error:
            self._finish(Failed(f"the search process could not be started: {error}"))
            self.process.kill()
            return
        threading.Thread(target=self._read, name=f"search-process-{self.process.pid}", daemon=True).start()

    def cancel(self) -> None:
        """Stop the search now: the child is killed, and ``Finished(cancelled=True)`` is posted at once."""
        self.token.cancel()
        self._finish(Finished(self.result or SearchResult(None), True))
        if self.process is not None:
            self.process.kill()

    # -- the reader thread ---------------------------------------------------------------------------------------
    def _read(self) -> None:
        process = self.process
        assert process is not None and process.popen.stdout is not None
        stream: IO[bytes] = process.popen.stdout
        try:
            while True:
                try:
                    message = pickle.load(stream)
                except (EOFError, OSError, pickle.UnpicklingError, ValueError):
                    break
                kind = message[0]
                if kind == "ready":
                    self.ready_at = time.perf_counter()
                    self.child_modules = tuple(message[1])
                elif kind == "progress":
                    result: SearchResult = message[1]
                    self._post(Progress(result, result.nodes_per_second))
                elif kind == "finished":
                    self._finish(Finished(message[1], False))
                elif kind == "failed":
                    self.traceback = message[2]
                    self._finish(Failed(message[1]))
        finally:
            if not self._done.is_set():
                code = process.popen.wait()
                self._finish(Failed(f"the search process stopped unexpectedly ({describe_exit(code)})"))
            process.kill()  # reaps it (it has exited or is about to)


# -- the child side ------------------------------------------------------------------------------------------
def _send(stream: IO[bytes], message: tuple) -> None:
    stream.write(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))
    stream.flush()


def run_request(request: SearchRequest, send: Any) -> None:
    """Search as the request asks, sending ("progress", result) reports and one final message through ``send``."""
    from ai import registry
    from ai.live_engine import make_live_engine

    started = time.perf_counter()
    try:
        engine: Engine
        if request.live:
            engine = make_live_engine(request.game, request.spec)  # type: ignore[arg-type]
        else:
            engine = registry.make_engine(request.game, request.spec)
        # the request's own deadline when the parent set one (``Limits.requested``), else its time from now
        token = CancelToken(request.limits.deadline_from(started))
        last: list[SearchResult | None] = [None]

        def progress(result: SearchResult) -> None:
            last[0] = result
            send(("progress", result))

        try:
            found: SearchResult | None = engine.search(request.state, request.limits, token, progress)
        except SearchAborted:
            found = last[0]
        send(("finished", fallback_result(engine.game, request.state, found, time.perf_counter() - started)))
    except MemoryError:
        send(("failed", "the search ran out of memory", traceback.format_exc()))
    except Exception as error:  # noqa: BLE001 - reported to the parent, which shows it
        send(("failed", f"{type(error).__name__}: {error}", traceback.format_exc()))


def _leave_with_parent() -> None:
    """Wait for the end of stdin, which the parent holds open until it is gone, and leave then."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except OSError:
        pass
    os._exit(0)


def main() -> None:
    """The child: import the engines, say ready, run the one request from stdin, report, leave at once."""
    messages = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # stray prints must not corrupt the message stream
    if hasattr(os, "nice"):
        try:
            os.nice(NICE)
        except OSError:
            pass
    import ai.live_engine  # noqa: F401 - warm: the registry and every engine module, before the request
    from ai import registry

    for info in registry.engines():
        info.load()
    loaded = sorted({name.split(".")[0] for name in sys.modules})
    _send(messages, ("ready", loaded))
    try:
        request = pickle.load(sys.stdin.buffer)
    except (EOFError, OSError, pickle.UnpicklingError):
        os._exit(0)  # the parent closed a spare child it no longer needs
    threading.Thread(target=_leave_with_parent, name="parent-watch", daemon=True).start()
    run_request(request, lambda message: _send(messages, message))
    messages.flush()
    os._exit(0)  # skip freeing the search's tables: the parent has its answer


if __name__ == "__main__":
    main()
