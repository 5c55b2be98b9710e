"""The engine registry: every engine and its parameters, declared once in YAML, read into typed objects.

The declarations live in ``ai/data/*.yaml`` (one file per family of engines, so each family keeps its own
file); presets in ``ai/data/presets.yaml``.  The GUI menus and the command line both read this registry.

Command-line form of an engine: ``name`` or ``name:key=value,key=value``, e.g. ``alphabeta:depth=8``.

``check_engine_spec`` is the one validator of such a spec, used alike by the command line, the settings, save
files and the window: the engine must exist and suit the game, every parameter must be one it has, numbers must
be finite and within the declared range, choices (evaluators included) among the valid ones, and every message
names the valid choices.  A time of ``none`` means "until cancelled": the search stops when its token is.
"""
from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ai.base import Engine, EngineError
from guarded import files
from guarded.files import clip, quote
from guarded.kinds import ProgramFileDamaged
from rules import Game

DATA_DIR = Path(__file__).with_name("data")
_TYPES = {"int": int, "float": float, "bool": bool, "choice": str, "str": str}


@dataclass(frozen=True)
class EngineParam:
    """One engine parameter: type, range or choices, default and a one-line description."""

    name: str
    type: str
    default: Any
    description: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None
    optional: bool = False
    """When true the parameter may be left unset (``none``), e.g. a time limit that is not used."""

    def convert(self, engine: str, value: Any) -> Any:
        """``value`` (text from a command line or a YAML value) checked and converted, or EngineError."""
        where = f"{engine}: {self.name}"
        if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "")):
            if self.optional:
                return None
            raise EngineError(f"{where} needs a value ({self._expected()})")
        if self.type == "bool":
            if isinstance(value, str):
                lowered = value.strip().lower()
                if lowered in ("true", "yes", "on", "1"):
                    return True
                if lowered in ("false", "no", "off", "0"):
                    return False
            if isinstance(value, bool):
                return value
            raise EngineError(f"{where} must be true or false, not {quote(value)}")
        if self.type == "choice":
            text = str(value).strip()
            if self.choices and text not in self.choices:
                raise EngineError(f"{where} must be one of {', '.join(self.choices)}, not {quote(text)}")
            return text
        if self.type == "str":
            text = str(value).strip()
            if len(text) > MAX_TEXT:
                raise EngineError(f"{where} must be a short name (at most {MAX_TEXT} characters), not {quote(text)}")
            return text
        if isinstance(value, str) and len(value.strip()) > MAX_NUMBER_TEXT:
            raise EngineError(f"{where} must be {self._expected()}, not a number written with "
                              f"{len(value.strip())} characters")
        try:
            if isinstance(value, str) and (not value.isascii() or "_" in value):
                raise ValueError(value)  # the one rule for typed numbers: ASCII digits (no ٣, ３ or 1_000)
            number = float(value) if self.type == "float" else _whole(value)
        except (TypeError, ValueError, OverflowError):
            raise EngineError(f"{where} must be {self._expected()}, not {quote(value)}") from None
        if isinstance(number, float) and not math.isfinite(number):
            raise EngineError(f"{where} must be {self._expected()} (a finite number), not {quote(value)}")
        if (self.minimum is not None and number < self.minimum) or (
            self.maximum is not None and number > self.maximum
        ):
            raise EngineError(f"{where} must be {self._expected()}, not {quote(number)}")
        return number

    def _expected(self) -> str:
        kind = "a whole number" if self.type == "int" else "a number"
        if self.minimum is not None and self.maximum is not None:
            return f"{kind} from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"{kind} of at least {self.minimum}"
        return kind


MAX_TEXT = 40
"""Longest text parameter (an evaluator's name) accepted."""
MAX_NUMBER_TEXT = 40
"""Longest written number accepted (no declared range needs more; ``int()`` of thousands of digits is slow)."""
MAX_SPEC = 400
"""Longest engine spec accepted."""


def _whole(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, float):
        if value != int(value):
            raise ValueError(value)
        return int(value)
    return int(str(value).strip())


@dataclass(frozen=True)
class EngineInfo:
    """A registered engine: where its class lives, what it is for, and its parameters."""

    name: str
    title: str
    kind: str
    description: str
    target: str
    params: tuple[EngineParam, ...]
    games: tuple[str, ...] = ()
    """The games it plays, by name (``games:`` in the YAML, e.g. the Perfect engine's ``[kalah]``); empty: every
    game of its kind."""

    def param(self, name: str) -> EngineParam:
        for param in self.params:
            if param.name == name:
                return param
        valid = ", ".join(p.name for p in self.params) or "none"
        raise EngineError(f"{self.name} has no parameter {quote(name)} (valid: {valid})")

    def defaults(self) -> dict[str, Any]:
        return {param.name: param.default for param in self.params}

    def suits(self, game: Game) -> bool:
        if self.games and game.name not in self.games:
            return False
        return self.kind == "any" or (self.kind == "adversary") == (game.num_players == 2)

    def load(self) -> type[Engine]:
        module_name, _, class_name = self.target.partition(":")
        return getattr(importlib.import_module(module_name), class_name)


def _read_param(engine: str, name: str, raw: Any, source: Path) -> EngineParam:
    if not isinstance(raw, dict):
        raise EngineError(f"{source.name}: engine {engine} parameter {name}: expected a mapping")
    kind = raw.get("type")
    if kind not in _TYPES:
        raise EngineError(
            f"{source.name}: engine {engine} parameter {name}: type must be one of {', '.join(_TYPES)}, not {kind!r}"
        )
    if "description" not in raw or "default" not in raw:
        raise EngineError(f"{source.name}: engine {engine} parameter {name}: needs 'default' and 'description'")
    choices = tuple(str(c) for c in raw["choices"]) if raw.get("choices") is not None else None
    param = EngineParam(
        name=name,
        type=kind,
        default=None,
        description=str(raw["description"]),
        minimum=raw.get("min"),
        maximum=raw.get("max"),
        choices=choices,
        optional=bool(raw.get("optional", False)),
    )
    default = param.convert(engine, raw["default"]) if raw["default"] is not None or not param.optional else None
    return EngineParam(**{**param.__dict__, "default": default})


@lru_cache(maxsize=1)
def _load_registry() -> dict[str, EngineInfo]:
    engines: dict[str, EngineInfo] = {}
    for path in sorted(DATA_DIR.glob("*.yaml")):
        if path.name == "presets.yaml":
            continue
        try:
            _read_engines(path, engines)
        except (ValueError, AttributeError, TypeError, KeyError) as error:  # FileProblem and EngineError too
            raise ProgramFileDamaged(path, error) from None
    return engines


def _read_engines(path: Path, engines: dict[str, EngineInfo]) -> None:
    """Add the engines declared in ``path`` (one of the shipped ``data/*.yaml``) to ``engines``."""
    data = files.load_yaml(path) or {}
    for name, raw in (data.get("engines") or {}).items():
        if name in engines:
            raise EngineError(f"{path.name}: engine {name!r} is declared twice")
        params = tuple(
            _read_param(name, pname, praw, path) for pname, praw in (raw.get("params") or {}).items()
        )
        engines[name] = EngineInfo(
            name=name,
            title=str(raw.get("title", name)),
            kind=str(raw.get("kind", "adversary")),
            description=str(raw.get("description", "")),
            target=str(raw["class"]),
            params=params,
            games=tuple(str(name) for name in raw.get("games") or ()),
        )


def engines(game: Game | None = None) -> list[EngineInfo]:
    """Every registered engine, or those that suit ``game``."""
    infos = list(_load_registry().values())
    return [info for info in infos if game is None or info.suits(game)]


def engine_info(name: str) -> EngineInfo:
    registry = _load_registry()
    if name not in registry:
        if not name:
            raise EngineError(f"no engine named (valid: {', '.join(registry)})")
        raise EngineError(f"unknown engine {quote(name)} (valid: {', '.join(registry)})")
    return registry[name]


def parse_engine_spec(spec: str) -> tuple[EngineInfo, dict[str, Any]]:
    """Read ``name:key=value,...`` into the engine's info and its full, checked parameters."""
    if not isinstance(spec, str):
        raise EngineError(f"an engine spec must be text such as alphabeta:depth=6, not {quote(spec)}")
    if len(spec) > MAX_SPEC:
        raise EngineError(f"an engine spec of {len(spec)} characters is too long (at most {MAX_SPEC}): "
                          f"{clip(spec)!r}")
    name, _, rest = spec.strip().partition(":")
    info = engine_info(name.strip())
    params = info.defaults()
    given: set[str] = set()
    if rest.strip():
        for item in rest.split(","):
            key, sep, value = item.partition("=")
            if not sep:
                raise EngineError(f"bad engine parameter {quote(item)} in {quote(spec)}: expected key=value "
                                  f"(valid keys: {', '.join(p.name for p in info.params) or 'none'})")
            param = info.param(key.strip())
            if param.name in given:  # pvs:depth=2,depth=3 is a typing slip, not a choice of the last value
                raise EngineError(f"{info.name} is given {param.name} twice in {quote(spec)}; give each "
                                  "parameter once")
            given.add(param.name)
            params[param.name] = param.convert(info.name, value)
    return info, params


def check_engine_spec(spec: str, game: Game | None = None) -> tuple[EngineInfo, dict[str, Any]]:
    """The one validator of an engine spec: ``parse_engine_spec``, then (given a game) that the engine plays
    it and that every evaluator named is one the game has; EngineError naming the valid choices otherwise."""
    info, params = parse_engine_spec(spec)
    if game is None:
        return info, params
    if not info.suits(game):
        valid = ", ".join(other.name for other in engines(game))
        raise EngineError(f"engine {info.name} does not play {game.title} (engines that do: {valid})")
    if isinstance(params.get("eval"), str):
        from ai.evaluators import evaluator_names

        names = ("default",) + tuple(name for name in evaluator_names(game) if name != "default")
        if params["eval"] not in names:
            raise EngineError(f"{info.name}: eval {quote(params['eval'])} is not an evaluator of {game.title} "
                              f"(valid: {', '.join(names)})")
    return info, params


def make_engine(game: Game, spec: str) -> Engine:
    """Build the engine named by ``spec`` for ``game`` (raises EngineError when it does not suit the game)."""
    info, params = check_engine_spec(spec, game)
    return info.load()(game, **params)


def format_engine_spec(name: str, params: dict[str, Any]) -> str:
    """The inverse of ``parse_engine_spec``: only parameters that differ from the defaults are written."""
    info = engine_info(name)
    defaults = info.defaults()
    parts = []
    for key, value in params.items():
        if defaults.get(key) != value:
            text = str(value).lower() if isinstance(value, bool) or value is None else f"{value:g}" if isinstance(value, float) else str(value)
            parts.append(f"{key}={text}")
    return f"{name}:{','.join(parts)}" if parts else name


@lru_cache(maxsize=1)
def _load_presets() -> dict[str, dict[str, str]]:
    path = DATA_DIR / "presets.yaml"
    if not files.is_regular(path):
        return {}
    try:
        data = files.load_yaml(path) or {}
        return {str(game): {str(level): str(spec) for level, spec in (levels or {}).items()}
                for game, levels in data.items()}
    except (ValueError, AttributeError, TypeError) as error:
        raise ProgramFileDamaged(path, error) from None


def presets(game: Game) -> dict[str, str]:
    """Friendly presets (Easy, Medium, Hard, Strongest) for ``game``: preset name -> engine spec."""
    table = _load_presets()
    return dict(table.get(game.name, table.get("default", {})))
