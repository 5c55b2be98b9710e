"""Application-wide settings: described in ``game/menus/settings.yaml``, kept as YAML in the user's folder.

``SettingsSchema`` reads the description (typed, validated items grouped in cards); ``Settings`` holds the
values; ``SettingsStore`` reads and writes the user's file atomically.  A malformed or unknown settings file is
never fatal: it is set aside under another name, the problems are returned for the screen to show, and defaults
are used, so the game always starts.

Engine choices are stored per game and role (``opponent``, ``watch``, ``hint``) as one text each: either
``preset:<Name>`` (a friendly preset from ``ai/data/presets.yaml``) or an engine spec ``name:key=value,...``
exactly as the command line reads it.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

import rules
from guarded import files
from guarded.files import FileProblem, clip, quote, write_atomically  # noqa: F401 (records and statistics import it from here)
from guarded.kinds import ProgramFileDamaged
from rules import RulesError

SCHEMA_PATH = Path(__file__).parent / "menus" / "settings.yaml"
SETTINGS_FILE = "settings.yaml"
FILE_VERSION = 1
CONFIG_ENV = "STONECAVE_CONFIG_DIR"
PRESET_PREFIX = "preset:"


class SettingsError(ValueError):
    """A settings description or value that is not valid; the message says what would be."""


@dataclass(frozen=True)
class SettingItem:
    """One setting as the YAML describes it."""

    key: str
    type: str
    default: Any
    label: str
    help: str
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    choices: tuple[str, ...] = ()
    roles: tuple[tuple[str, str], ...] = ()
    """For the ``engines`` item: (role key, role label) pairs."""
    preference: tuple[str, ...] = ()
    preferred_preset: str = ""
    parameters: tuple[tuple[str, str], ...] = ()
    """For the ``engines`` item: (raw parameter name, the name a player reads) pairs."""
    developer: tuple[str, ...] = ()
    """For the ``engines`` item: parameters only an engine developer sets, shown with the Details setting on."""
    thinking: tuple[str, ...] = ()
    """For the ``engines`` item: parameters the one thinking time (``think_time``) stands for, never shown apart."""

    def parameter_label(self, name: str) -> str:
        """An engine parameter's name in a player's words (the raw name when the YAML gives none)."""
        return dict(self.parameters).get(name, name)

    def check(self, value: Any) -> Any:
        """``value`` converted to this item's type, or SettingsError saying what is expected."""
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            raise SettingsError(f"{self.key} must be true or false, not {quote(value)}")
        if self.type in ("float", "int"):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise SettingsError(f"{self.key} must be a number from {self.minimum} to {self.maximum}, not {quote(value)}")
            number = float(value) if self.type == "float" else value
            if self.type == "int" and number != int(number):
                raise SettingsError(f"{self.key} must be a whole number, not {quote(value)}")
            if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum
            ):
                raise SettingsError(f"{self.key} must be from {self.minimum} to {self.maximum}, not {quote(value)}")
            return int(number) if self.type == "int" else number
        if self.type == "choice":
            if value not in self.choices:
                raise SettingsError(f"{self.key} must be one of {', '.join(self.choices)}, not {quote(value)}")
            return value
        raise SettingsError(f"{self.key} cannot be set directly")


@dataclass(frozen=True)
class SettingsGroup:
    """A card on the Settings screen."""

    heading: str
    items: tuple[SettingItem, ...]


@dataclass(frozen=True)
class SettingsSchema:
    """The whole description: groups of items, looked up by key."""

    groups: tuple[SettingsGroup, ...]

    @classmethod
    def load(cls, path: Path = SCHEMA_PATH) -> SettingsSchema:
        """Read and validate the YAML description; a broken one raises ProgramFileDamaged naming the file."""
        try:
            schema = cls._read(path)
            schema.engines_item  # the one item the code cannot do without (a cut file may have lost it)
            return schema
        except (ValueError, AttributeError, KeyError, TypeError) as error:  # SettingsError and FileProblem too
            raise ProgramFileDamaged(path, error) from None

    @classmethod
    def _read(cls, path: Path) -> SettingsSchema:
        data = files.load_yaml(path)
        if not isinstance(data, dict) or not isinstance(data.get("groups"), list):
            raise SettingsError(f"{path.name}: expected a mapping with a 'groups' list")
        groups = []
        for raw_group in data["groups"]:
            items = []
            for raw in raw_group.get("items") or []:
                kind = raw.get("type")
                if kind not in ("bool", "choice", "float", "int", "engines"):
                    raise SettingsError(f"{path.name}: item {raw.get('key')!r} has unknown type {kind!r}")
                item = SettingItem(
                    key=str(raw["key"]), type=kind, default=raw.get("default"), label=str(raw.get("label", raw["key"])),
                    help=str(raw.get("help", "")), minimum=raw.get("min"), maximum=raw.get("max"),
                    step=raw.get("step"), choices=tuple(str(c) for c in raw.get("choices") or ()),
                    roles=tuple((str(k), str(v)) for k, v in (raw.get("roles") or {}).items()),
                    preference=tuple(str(p) for p in raw.get("preference") or ()),
                    preferred_preset=str(raw.get("preferred_preset", "")),
                    parameters=tuple((str(k), str(v)) for k, v in (raw.get("parameters") or {}).items()),
                    developer=tuple(str(name) for name in raw.get("developer") or ()),
                    thinking=tuple(str(name) for name in raw.get("thinking") or ()),
                )
                if kind != "engines":
                    item.check(item.default)
                items.append(item)
            groups.append(SettingsGroup(str(raw_group.get("heading", "")), tuple(items)))
        return cls(tuple(groups))

    def item(self, key: str) -> SettingItem:
        for group in self.groups:
            for item in group.items:
                if item.key == key:
                    return item
        raise SettingsError(f"no setting named {quote(key)}")

    def items(self) -> list[SettingItem]:
        return [item for group in self.groups for item in group.items]

    @property
    def engines_item(self) -> SettingItem:
        for item in self.items():
            if item.type == "engines":
                return item
        raise SettingsError("the settings description has no engines item")


def default_engine_choice(schema: SettingsSchema, game: Any) -> str:
    """The engine choice for ``game`` when the user has made none: a preset if any, else a preferred engine."""
    from ai import registry

    item = schema.engines_item
    presets = registry.presets(game)
    if presets:
        name = item.preferred_preset if item.preferred_preset in presets else next(iter(presets))
        return PRESET_PREFIX + name
    suited = [info.name for info in registry.engines(game)]
    for name in item.preference:
        if name in suited:
            return name
    if not suited:
        raise SettingsError(f"no engine plays {game.title}")
    return suited[0]


def resolve_engine_choice(choice: str, game: Any) -> str:
    """An engine spec for ``choice`` (a preset name is looked up; a spec is checked) or SettingsError."""
    from ai import registry
    from ai.base import EngineError

    if choice.startswith(PRESET_PREFIX):
        name = choice[len(PRESET_PREFIX):]
        table = registry.presets(game)
        if name not in table:
            raise SettingsError(f"{game.title} has no preset {quote(name)} (valid: {', '.join(table) or 'none'})")
        return table[name]
    try:
        registry.check_engine_spec(choice, game)
    except EngineError as error:
        raise SettingsError(str(error)) from None
    return choice


def _engine_words(spec: str) -> str:
    """``pvs:time=2`` -> ``PVS, 2 s per move``: the engine's short name and its limits, in words."""
    from ai import registry
    from ai.base import EngineError

    try:
        info, params = registry.parse_engine_spec(spec)
    except EngineError:
        return spec
    title = info.title
    if "(" in title and title.endswith(")"):
        title = title[title.index("(") + 1:-1]  # "Iterative deepening (PVS)" -> "PVS"
    limits = []
    for key, words in (("time", "{:g} s per move"), ("depth", "{} moves deep"), ("iterations", "{} play-outs"),
                       ("nodes", "{} positions")):
        if params.get(key) is not None:
            limits.append(words.format(params[key]))
    thinking = (params.get("time") is None and info.kind != "single-agent"
                and any(param.name == "time" for param in info.params))  # its own time unset: the thinking time
    if thinking and limits:
        return ", ".join([title] + limits) + " (within the thinking time)"
    return ", ".join([title] + limits + (["the thinking time per move"] if thinking else []))


def without_own_time(spec: str, names: tuple[str, ...]) -> str:
    """``spec`` with its optional parameters ``names`` (the engine's own time per move) unset: the thinking time
    then applies alone.  A spec that cannot be read, or whose time cannot be unset, is returned as it is."""
    from ai import registry
    from ai.base import EngineError

    try:
        info, params = registry.parse_engine_spec(spec)
    except EngineError:
        return spec
    if info.kind == "single-agent":
        return spec  # a puzzle's solver has no thinking time but its own
    optional = {param.name for param in info.params if param.optional}
    changed = {name: None for name in names if name in optional and params.get(name) is not None}
    return registry.format_engine_spec(info.name, {**params, **changed}) if changed else spec


def describe_engine(spec: str, game: Any = None) -> str:
    """An engine choice or spec in a player's words: ``Computer (Hard)`` for a preset (or a spec one of the
    game's presets plays), ``PVS, 2 s per move`` for an engine; ``A vs B`` both described."""
    from ai import registry

    if " vs " in spec:
        return " vs ".join(describe_engine(part.strip(), game) for part in spec.split(" vs "))
    if spec == "hot-seat":
        return "Two players"
    if spec.startswith(PRESET_PREFIX):
        return f"Computer ({spec[len(PRESET_PREFIX):]})"
    if game is not None:
        for name, preset_spec in registry.presets(game).items():
            if preset_spec == spec:
                return f"Computer ({name})"
    return _engine_words(spec)


@dataclass
class Settings:
    """The values in force: plain settings by key, and engine choices by (game, role)."""

    schema: SettingsSchema
    values: dict[str, Any] = field(default_factory=dict)
    engine_choices: dict[str, dict[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for item in self.schema.items():
            if item.type != "engines":
                self.values.setdefault(item.key, item.default)

    def get(self, key: str) -> Any:
        return self.values[self.schema.item(key).key]

    def set(self, key: str, value: Any) -> None:
        """Set one value (checked against the description)."""
        self.values[key] = self.schema.item(key).check(value)

    def engine_choice(self, game: Any, role: str) -> str:
        """The user's choice for ``game`` and ``role`` if it is still valid, else the default."""
        choice = self.engine_choices.get(game.name, {}).get(role)
        if choice is not None:
            try:
                resolve_engine_choice(choice, game)
                return choice
            except SettingsError:
                pass
        return default_engine_choice(self.schema, game)

    def engine_spec(self, game: Any, role: str) -> str:
        """The engine spec (``name:key=value``) to build for ``game`` and ``role``.  An engine chosen by hand
        thinks for the one thinking time (``think_time``, the search's limit): its own time parameter is left
        unset, so there is no second time to win over it; a preset keeps its own pace (within that time)."""
        choice = self.engine_choice(game, role)
        spec = resolve_engine_choice(choice, game)
        return spec if choice.startswith(PRESET_PREFIX) else without_own_time(spec, self.schema.engines_item.thinking)

    def set_engine_choice(self, game: Any, role: str, choice: str) -> None:
        resolve_engine_choice(choice, game)
        roles = dict(self.schema.engines_item.roles)
        if role not in roles:
            raise SettingsError(f"unknown role {role!r} (valid: {', '.join(roles)})")
        self.engine_choices.setdefault(game.name, {})[role] = choice

    def to_yaml_data(self) -> dict[str, Any]:
        return {"version": FILE_VERSION, **dict(sorted(self.values.items())),
                "engines": {game: dict(sorted(roles.items())) for game, roles in sorted(self.engine_choices.items())}}


def config_dir() -> Path:
    """Where the settings file lives: ``$STONECAVE_CONFIG_DIR`` if set, else the platform's settings folder."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    import pyglet.resource

    return Path(pyglet.resource.get_settings_path("stonecave"))


def set_aside(path: Path) -> Path:
    """Rename a file that could not be read out of the way (to ``NAME.bad-STAMP``, never over an earlier one),
    so the game can start afresh without losing it; the new path (OSError when it cannot be moved).  The stores
    use ``guarded.files.set_aside``, which reports instead of raising."""
    target, phrase = files.set_aside(path)
    if target is None:
        raise OSError(phrase)
    return target


class SettingsStore:
    """Reads and writes the settings file in ``directory``."""

    def __init__(self, directory: Path | None = None, schema: SettingsSchema | None = None) -> None:
        self.directory = Path(directory) if directory is not None else config_dir()
        self.schema = schema or SettingsSchema.load()

    @property
    def path(self) -> Path:
        return self.directory / SETTINGS_FILE

    def load(self) -> tuple[Settings, list[str]]:
        """The saved settings and a list of problems found (empty when the file was fine or absent).

        Any problem sets the file aside (``settings.yaml.bad-<time>``) and the values it held badly fall back
        to their defaults; good values in a partly bad file are kept.
        """
        settings = Settings(self.schema)
        problems: list[str] = []
        try:
            data = files.load_yaml(self.path)
        except FileNotFoundError:
            return settings, []
        except FileProblem as error:
            data = None
            problems.append(f"the file {error}")
        if not problems:
            if not isinstance(data, dict):
                problems.append("expected a mapping of settings, found " + type(data).__name__)
            elif data.get("version") != FILE_VERSION:
                problems.append(f"unknown settings version {quote(data.get('version'))} (expected {FILE_VERSION})")
            else:
                problems += self._read_values(settings, data)
        if problems:
            _aside, phrase = files.set_aside(self.path)
            problems = [f"Settings file {self.path} had problems; {phrase}, "
                        "and defaults are used where needed:"] + ["  " + problem for problem in problems]
        return settings, problems

    def _read_values(self, settings: Settings, data: dict[str, Any]) -> list[str]:
        problems = []
        for key, value in data.items():
            if key in ("version", "engines"):
                continue
            try:
                item = self.schema.item(str(key))
                settings.set(item.key, value)
            except SettingsError as error:
                problems.append(str(error) if "no setting" not in str(error) else f"unknown setting {quote(key)}")
        engines = data.get("engines") or {}
        if not isinstance(engines, dict):
            return problems + ["engines must be a mapping of game -> role -> engine"]
        roles = dict(self.schema.engines_item.roles)
        for game_name, choices in engines.items():
            where = f"engines.{clip(str(game_name), 30)}"
            if not isinstance(choices, dict):
                problems.append(f"{where} must be a mapping of role -> engine")
                continue
            try:
                game = rules.get_game(str(game_name))
            except (RulesError, ValueError):
                problems.append(f"{where}: unknown game (valid: {', '.join(i.name for i in rules.list_games())})")
                continue
            for role, choice in choices.items():
                if role not in roles or not isinstance(choice, str):
                    problems.append(f"{where}.{clip(str(role), 30)}: expected one of the roles {', '.join(roles)} "
                                    "with an engine or preset name")
                    continue
                try:
                    resolve_engine_choice(choice, game)
                except SettingsError as error:
                    problems.append(f"{where}.{role}: {error}; the default is used instead")
                    continue
                settings.engine_choices.setdefault(str(game_name), {})[str(role)] = choice
        return problems

    def save(self, settings: Settings) -> None:
        """Write the settings atomically."""
        text = "# StoneCave settings (written by the game; safe to edit while it is closed)\n"
        text += yaml.safe_dump(settings.to_yaml_data(), sort_keys=False)
        write_atomically(self.path, text)
