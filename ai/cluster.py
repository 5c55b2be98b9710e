"""Where tournament games run: in this process, in a local process pool, or on a Dask cluster.

A runner takes ``GameTask`` objects and hands back ``GameRecord`` objects as they finish, in any order; the
tournament (``ai.tournament.compare``) decides what to submit and when to stop.  All three runners call the
same picklable function on the same task, so a task gives the same record wherever it runs.

- ``InlineRunner``: one game at a time in this process (``--jobs 1``).
- ``PoolRunner``: a pool of ``--jobs`` processes (the ``spawn`` start method); a game whose worker dies is
  played again in a fresh pool, up to ``MAX_REPLAYS`` times.
- ``DaskRunner``: ``dask.distributed``, either an existing scheduler (``--cluster tcp://HOST:PORT``, with
  workers started by ``dask worker tcp://HOST:PORT`` on machines that have StoneCave installed) or a local
  cluster of ``--jobs`` worker processes (``--cluster local``).  A worker that dies takes only its game in
  flight with it: the scheduler gives that game to another worker, and should it give up (Dask's
  ``KilledWorker`` after repeated deaths) the runner submits the game again, up to ``MAX_REPLAYS`` times.

A scheduler is a peer on the network and is treated as hostile input (``ai.cluster_peer``): its address is
checked, it must answer a pre-flight handshake within ``CONNECT_TIMEOUT`` and ``RESPONSE_TIMEOUT``, the Dask
client itself connects under a deadline, every frame a peer announces is bounded before it is allocated, and a
scheduler that stops answering mid-run (no game finished and no reply to a ping within ``RESPONSE_TIMEOUT``)
stops the run with a message naming its address instead of a silent wait.

Dask is an optional extra (``pip install -e ".[cluster]"``), imported only when a Dask runner is asked for.
"""
from __future__ import annotations

import importlib
import logging
import math
import multiprocessing
import queue
import threading
import time
import uuid
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Protocol

from ai.base import EngineError
from ai.cluster_peer import PeerError, bound_frames, preflight

MAX_REPLAYS = 3
"""How many times a game lost with its worker is submitted again before the run gives up."""
CONNECT_TIMEOUT = 20.0
"""Seconds to try to reach a remote scheduler before giving up."""
RESPONSE_TIMEOUT = 20.0
"""Seconds a scheduler may take to answer: its handshake, the client's start, a ping while no game finishes."""
POLL_SECONDS = 5.0
"""How long to wait for a game before pinging the scheduler to check that it still answers."""
LOCAL = "local"
"""The ``--cluster`` value that starts a Dask cluster on this machine."""

Play = Callable[[Any], Any]
"""The function a runner applies to each task (``ai.tournament.play_game``): picklable, by module and name."""


class GameRunner(Protocol):
    """Plays submitted tasks and returns their records in the order they finish."""

    description: str

    def capacity(self) -> int:
        """How many games to keep submitted at once (enough to keep every worker busy)."""

    def submit(self, task: Any) -> None:
        """Queue one game."""

    def next_record(self) -> Any:
        """Block until a submitted game finishes and return its record."""

    def close(self) -> None:
        """Stop: drop games not yet finished and release processes or connections."""


class InlineRunner:
    """Plays each game in this process when its record is asked for."""

    description = "1 process"

    def __init__(self, play: Play) -> None:
        self._play = play
        self._pending: deque = deque()

    def capacity(self) -> int:
        return 1

    def submit(self, task: Any) -> None:
        self._pending.append(task)

    def next_record(self) -> Any:
        return self._play(self._pending.popleft())

    def close(self) -> None:
        self._pending.clear()


class PoolRunner:
    """A pool of ``jobs`` spawned processes; records come back through a queue as games finish.

    A worker process that dies (killed, or out of memory) breaks the pool: every game in flight is lost with it,
    and the runner starts a new pool and submits those games again, each up to ``MAX_REPLAYS`` times, then stops
    with a message instead of waiting for a record that will never come."""

    def __init__(self, play: Play, jobs: int) -> None:
        self.description = f"{jobs} processes"
        self._play = play
        self._jobs = jobs
        self._done: queue.Queue = queue.Queue()
        self._flight: dict[Future, tuple[Any, int]] = {}
        """Each game submitted and not yet returned: its task and the pool generation it runs in."""
        self._replays: dict[int, int] = {}
        """How many times each task (by id) was submitted again after its worker died."""
        self._generation = 0
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self._jobs, mp_context=multiprocessing.get_context("spawn"))

    def capacity(self) -> int:
        return 2 * self._jobs

    def submit(self, task: Any) -> None:
        try:
            future = self._pool.submit(self._play, task)
        except BrokenProcessPool:
            # A worker died before its lost games came back through ``next_record``: the pool refuses new games
            # at once.  Start the fresh pool now; the lost games still come back (of the old generation) and are
            # submitted again to this one.
            self._renew()
            future = self._pool.submit(self._play, task)
        self._flight[future] = (task, self._generation)
        future.add_done_callback(self._done.put)

    def next_record(self) -> Any:
        while True:
            future = self._done.get()
            task, generation = self._flight.pop(future, (None, -1))
            if task is None:
                continue  # a game of a pool already closed
            try:
                return future.result()
            except BrokenProcessPool:
                self._play_again(task, generation)

    def _play_again(self, task: Any, generation: int) -> None:
        replays = self._replays.get(id(task), 0) + 1
        if replays > MAX_REPLAYS:
            lost = sorted({_index(task)} | {_index(other) for other, born in self._flight.values() if born == generation})
            names = ", ".join(lost)
            raise EngineError(
                f"a worker process died {MAX_REPLAYS + 1} times with game{'s' if len(lost) > 1 else ''} {names} in "
                "flight (killed, perhaps out of memory); giving up: run with fewer --jobs or less memory per engine")
        self._replays[id(task)] = replays
        if generation == self._generation:  # the first loss of this pool's breakage: start a fresh pool
            self._renew()
        self.submit(task)

    def _renew(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._generation += 1
        self._pool = self._new_pool()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _index(task: Any) -> str:
    return str(getattr(task, "index", task))


def import_distributed():
    """``dask.distributed``, or an ``EngineError`` that names the extra to install."""
    try:
        dask_distributed = importlib.import_module("dask.distributed")
    except ImportError as error:
        raise EngineError(
            f"--cluster needs Dask, which is not installed ({error}): "
            'pip install -e ".[cluster]" (or pip install "dask[distributed]")') from None
    return dask_distributed


class DaskRunner:
    """Games as Dask tasks: one task per game, carrying the engine specs, the opening and the seeds."""

    def __init__(self, play: Play, address: str, jobs: int = 2, *, processes: bool = True) -> None:
        distributed = import_distributed()
        bound_frames()
        self._play = play
        self._cluster = None
        self._client: Any = None
        self._address = address
        self._run_id = uuid.uuid4().hex[:8]
        self._tasks: dict[Any, tuple[Any, int]] = {}
        try:
            if address == LOCAL:
                self._cluster = distributed.LocalCluster(
                    n_workers=jobs, threads_per_worker=1, processes=processes, dashboard_address=None,
                    silence_logs=logging.ERROR)
                self._client = distributed.Client(self._cluster)
                self.description = f"local Dask cluster of {jobs} workers"
            else:
                preflight(address, CONNECT_TIMEOUT, RESPONSE_TIMEOUT)
                self._client = _within(CONNECT_TIMEOUT + RESPONSE_TIMEOUT, address, "to accept the Dask client",
                                       lambda: distributed.Client(address, timeout=f"{CONNECT_TIMEOUT}s"))
                self.description = f"Dask cluster at {address}"
        except PeerError:
            self.close()
            raise
        except (OSError, TimeoutError) as error:
            self.close()
            why = str(error) or f"no answer within {CONNECT_TIMEOUT:g} s ({type(error).__name__})"
            raise EngineError(f"cannot reach the Dask scheduler at {address}: {why}") from None
        killed: type[BaseException] | None = getattr(distributed, "KilledWorker", None)
        if killed is None:
            from distributed.scheduler import KilledWorker

            killed = KilledWorker
        self._killed_worker: type[BaseException] = killed
        self._wait = distributed.wait
        self.replays = 0
        """Games submitted again after Dask gave up on them (each worker death Dask handles itself)."""
        self._threads, self._threads_asked = 0, -math.inf

    def capacity(self) -> int:
        # Workers may join or leave during a run; ask the scheduler at most once a second, not once a game.
        now = time.monotonic()
        if now - self._threads_asked > 1.0:
            try:
                self._threads = sum(self._client.nthreads(callback_timeout=RESPONSE_TIMEOUT).values())
            except (OSError, TimeoutError) as error:
                raise self._silent(error) from None
            self._threads_asked = now
        return 2 * max(1, self._threads)

    def submit(self, task: Any, attempt: int = 0) -> None:
        key = f"stonecave-game-{self._run_id}-{task.index}-{attempt}"
        future = self._client.submit(self._play, task, key=key, pure=False, retries=0)
        self._tasks[future] = (task, attempt)

    def next_record(self) -> Any:
        while True:
            future = self._next_done()
            task, attempt = self._tasks.pop(future)
            try:
                return future.result(timeout=RESPONSE_TIMEOUT)
            except self._killed_worker:
                if attempt >= MAX_REPLAYS:
                    raise EngineError(f"game {task.index} killed its worker {attempt + 1} times; giving up") from None
                self.replays += 1
                self.submit(task, attempt + 1)
            except (OSError, TimeoutError) as error:  # the result's fetch went unanswered: the scheduler froze
                raise self._silent(error) from None
            except Exception as error:  # noqa: BLE001 - a game's own errors are records (forfeits), so this is Dask's
                if type(error).__name__.endswith(("CancelledError", "CancelledFuturesGroup")):
                    raise self._lost(error) from None
                raise
            finally:
                future.release()

    def _next_done(self) -> Any:
        """A finished future; while none finishes, ping the scheduler every ``POLL_SECONDS``, so one that
        stopped answering ends the run (EngineError naming it) instead of a wait without end."""
        if not self._tasks:
            raise EngineError("no game is in flight on the Dask cluster")
        while True:
            try:
                done, _ = self._wait(list(self._tasks), timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = set()
            except Exception as error:  # noqa: BLE001 - Dask cancels every future when it loses the scheduler
                raise self._lost(error) from None
            for future in done:
                if future in self._tasks:
                    return future
            try:
                self._client.sync(self._client.scheduler.identity, callback_timeout=RESPONSE_TIMEOUT)
            except (OSError, TimeoutError) as error:
                raise self._silent(error) from None

    def _silent(self, error: BaseException) -> EngineError:
        return EngineError(f"the Dask scheduler at {self._address} stopped answering (no reply within "
                           f"{RESPONSE_TIMEOUT:g} s: {error or type(error).__name__}); the games recorded so far "
                           "are kept in the checkpoint, if any")

    def _lost(self, error: BaseException) -> EngineError:
        return EngineError(f"the Dask cluster at {self._address} lost the games in flight ({type(error).__name__}: "
                           f"{str(error)[:80]}); the games recorded so far are kept in the checkpoint, if any")

    def close(self) -> None:
        tasks = getattr(self, "_tasks", {})
        client = getattr(self, "_client", None)
        if client is not None:
            try:
                if tasks:
                    client.cancel(list(tasks))
                    tasks.clear()
                client.close(timeout=RESPONSE_TIMEOUT)
            except (OSError, TimeoutError):
                pass  # a scheduler that went away: nothing left to release
        if self._cluster is not None:
            self._cluster.close()


def _within(seconds: float, address: str, what: str, call: Callable[[], Any]) -> Any:
    """``call()`` run in a helper thread and given ``seconds``; PeerError naming ``address`` when it is not
    done by then (the thread is left to end on its own: Dask offers no way to stop a connection attempt)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # noqa: BLE001 - handed to the caller below
            outcome["error"] = error

    helper = threading.Thread(target=run, name="stonecave-dask-connect", daemon=True)
    helper.start()
    helper.join(seconds)
    if helper.is_alive():
        raise PeerError(f"the Dask scheduler at {address} did not answer in {seconds:g} s {what}; "
                        "is it a Dask scheduler, and is it overloaded?")
    if "error" in outcome:
        error = outcome["error"]
        if isinstance(error, (OSError, TimeoutError, EngineError)):
            raise error
        raise PeerError(f"the peer at {address} broke the Dask protocol ({type(error).__name__}: "
                        f"{str(error)[:80]})") from None
    return outcome["value"]


def make_runner(play: Play, jobs: int = 1, cluster: str | None = None) -> GameRunner:
    """The runner for ``--jobs`` and ``--cluster`` (``local`` or a scheduler address such as tcp://host:8786)."""
    if cluster is not None:
        return DaskRunner(play, cluster, jobs)
    if jobs == 1:
        return InlineRunner(play)
    return PoolRunner(play, jobs)
