"""The puzzle screen's engine: which single-agent engine to use, and its progress while it searches.

``engine_spec`` picks the engine: the one chosen in Settings for Solitaire Mancala (role ``hint`` or ``watch``)
when the player chose one that names a single-agent engine, else the registry's Strongest preset for the game
(``ai/data/presets.yaml``), else ``DEFAULT_ENGINE``, the strongest solver in BENCHMARKS.md and the console's
default.

While the engine searches it reports its progress (``ai.live_engine.LiveEngine``); the screen runs it in a
separate process (``ai.search_process``), so even an exhaustive search over millions of states never holds
the window's interpreter lock.
"""
from __future__ import annotations

from typing import Any

from ai import registry
from ai.base import EngineError
from ai.live_engine import LiveEngine, make_live_engine
from game.settings import resolve_engine_choice
from rules.solitaire import Solitaire

__all__ = ["DEFAULT_ENGINE", "LiveEngine", "check_engine", "engine_spec", "engine_title", "make_live_engine"]

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
