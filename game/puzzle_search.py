"""The puzzle screen's engine: which single-agent engine to use, and its progress while it searches.

``engine_spec`` picks the engine: the one chosen in Settings for Solitaire Mancala (role ``hint`` or ``watch``)
when the player chose one that names a single-agent engine, else the registry's Strongest preset for the game
(``ai/data/presets.yaml``), else ``DEFAULT_ENGINE``, the strongest solver in BENCHMARKS.md and the console's
default.

While the engine searches it reports its progress (``ai.live_engine.LiveEngine``). ``PuzzleSearches`` runs
the hint's and the watch's searches in a separate process each (``ai.search_process``), so even an
exhaustive search over millions of states (whose table resizes hold the interpreter lock for seconds) never
stalls a frame.  A warm process is kept ready while the screen is shown, so a hint or a watch starts at once;
a cancelled search's process is killed.  ``describe_live`` and ``describe_final`` say what a search found.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

from ai import registry
from ai.base import EngineError, Limits, SearchResult
from ai.live_engine import LiveEngine, make_live_engine
from ai.search_process import ProcessLauncher, ProcessWorker
from ai.worker import Failed, Finished, Progress
from game.settings import resolve_engine_choice
from rules.solitaire import Solitaire, SolitaireState

__all__ = ["DEFAULT_ENGINE", "LiveEngine", "PuzzleSearches", "check_engine", "describe_final", "describe_live",
           "engine_spec", "engine_title", "make_live_engine"]

ROLES = ("hint", "watch")
Message = Progress | Finished | Failed

DEFAULT_ENGINE = "packed-dfs"
"""The solver used when neither Settings nor the presets name one for Solitaire Mancala (the strongest in
BENCHMARKS.md)."""


def engine_spec(settings: Any, game: Solitaire, role: str = "hint") -> str:
    """The engine spec for ``role``: the Settings' choice when it names a single-agent engine, else the default."""
    chosen = (getattr(settings, "engine_choices", None) or {}).get(game.name, {})
    for wanted in (role, "hint"):
        choice = chosen.get(wanted)
        if not choice:
            continue
        try:
            return resolve_engine_choice(choice, game)  # checked by registry.check_engine_spec
        except (EngineError, ValueError):  # SettingsError is a ValueError
            continue
    # No choice made: the registry's strongest preset (a puzzle's hint should be the best line known).
    return registry.presets(game).get("Strongest") or DEFAULT_ENGINE


def check_engine(game: Solitaire, spec: str) -> None:
    """EngineError unless ``spec`` names a single-agent engine for ``game`` with valid parameters.

    Only the spec is read: building some engines (``packed-dfs``'s table of rounds) takes a tenth of a
    second, which the window must not spend; the search process builds the engine.
    """
    info, _ = registry.check_engine_spec(spec, game)
    if info.kind != "single-agent":
        raise EngineError(f"{spec} is not a single-agent engine; it cannot solve {game.title}")


def engine_title(spec: str) -> str:
    """``Heuristic depth-first (heuristic-dfs)`` for a spec, for the screens."""
    try:
        info, _ = registry.parse_engine_spec(spec)
    except EngineError:
        return spec
    return f"{info.title} ({spec})"


def describe_live(result: SearchResult, details: bool = False) -> str:
    """A search's progress, for the side panel, in a player's words (``details``: the states it explored, for
    engine developers)."""
    info = result.info
    words = (f"Looking for the best line: {info.get('best', 0)} stored so far (of {info.get('target', '?')} "
             "possible), not proven yet")
    return words + (f"\n{info.get('visited', result.nodes):,} states explored" if details else "")


def describe_final(result: SearchResult, spec: str, details: bool = False) -> str:
    """What a finished search found and whether it is proven, for the side panel, in a player's words
    (``details``: the engine, the states it searched and its time, for engine developers)."""
    reason = result.info.get("reason", "")
    proven = bool(result.exhaustive or result.info.get("solved"))
    if proven:
        words = f"The best line from here: {reason}; {int(result.score)} stored, proven"
    else:
        words = (f"The computer's search reached its limit: {reason}; its best line stores {int(result.score)}, "
                 "not proven")
    if details:
        words += (f"\n{engine_title(spec)}: {result.nodes:,} states in {result.time:.2f} s")
    return words


class PuzzleSearches:
    """The puzzle screen's two searches, ``hint`` and ``watch``, each in a search process of its own.

    ``start`` hands a position to a (warm) process; ``poll``, once a frame, yields what arrived, with the
    position it was asked about, and never waits.  ``cancel`` kills at once; nothing a cancelled search sent
    afterwards is yielded.
    """

    def __init__(self, launcher_factory: Callable[[], ProcessLauncher] = ProcessLauncher) -> None:
        self.launcher_factory = launcher_factory
        self.launcher: ProcessLauncher | None = None
        self.workers: dict[str, ProcessWorker | None] = dict.fromkeys(ROLES)
        self.states: dict[str, SolitaireState | None] = dict.fromkeys(ROLES)

    @property
    def hint_worker(self) -> ProcessWorker | None:
        return self.workers["hint"]

    @property
    def watch_worker(self) -> ProcessWorker | None:
        return self.workers["watch"]

    def is_running(self, role: str) -> bool:
        """True while ``role``'s search has not finished (nor been cancelled)."""
        return self.workers[role] is not None

    def open(self) -> None:
        """The screen is shown: keep a warm search process ready."""
        if self.launcher is None or self.launcher.closed:
            self.launcher = self.launcher_factory()

    def close(self) -> None:
        """The screen is hidden: stop every search and end the warm process."""
        self.cancel()
        if self.launcher is not None:
            self.launcher.close()
            self.launcher = None

    def refill(self) -> None:
        """Once a frame: while no search runs, make sure a warm process waits for the next one."""
        if self.launcher is not None and not self.launcher.has_spare:
            if not any(worker is not None and worker.running for worker in self.workers.values()):
                self.launcher.refill()

    def cancel(self, role: str | None = None) -> None:
        """Stop ``role``'s search (every search when None) at once: its process is killed."""
        for name in ROLES if role is None else (role,):
            worker = self.workers[name]
            if worker is not None:
                worker.cancel()
            self.workers[name] = self.states[name] = None

    def start(self, role: str, game: Solitaire, spec: str, state: SolitaireState) -> str | None:
        """Search ``state`` with ``spec`` for ``role``; None when started, else why it cannot be."""
        try:
            check_engine(game, spec)  # here, so a bad choice is reported at once
        except (EngineError, ValueError) as error:
            return f"No engine: {error}"
        self.cancel(role)
        self.open()
        # No time given: the engine's own budget (its time parameter in Settings) applies.
        worker = ProcessWorker(game, spec, state, Limits(), live=True, launcher=self.launcher)
        worker.start()
        self.workers[role], self.states[role] = worker, state
        return None

    def poll(self) -> Iterator[tuple[str, SolitaireState | None, Message]]:
        """(role, the position searched, message) for each message that arrived; a search that finished or
        failed leaves its slot free."""
        for role in ROLES:
            worker = self.workers[role]
            if worker is None:
                continue
            state = self.states[role]
            for message in worker.poll():
                if isinstance(message, (Finished, Failed)) and self.workers[role] is worker:
                    self.workers[role] = self.states[role] = None
                yield role, state, message
                if self.workers[role] is not worker:
                    break  # finished, or cancelled by whoever read the message
