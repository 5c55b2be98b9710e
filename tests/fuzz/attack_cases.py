"""Generate the attacks: from the command-line parser (every command, every option) and from the file kinds.

``option_cases`` walks ``game.cli.parser()``: every sub-command, every option of it (``parser._actions``), and
gives each one hostile values chosen by what the option takes (its type, choices, nargs, metavar and name):
hostile numbers, Unicode digits, huge values, empty and very long text, duplicates, special files for paths,
game and engine specs with hostile parameters (the parameters from the game and engine registries), positions
with hostile counts, a server that accepts and never answers for addresses.  ``kind_cases`` takes every kind of
``guarded.kinds``, damages its sample in each of ``attack_files.MUTATIONS`` and runs what reads it.  A new option,
game parameter, engine parameter or file kind is attacked without being listed here.
"""
from __future__ import annotations

import argparse
import functools
import random
import shutil
import socket
import threading
from pathlib import Path
from typing import Callable, Iterator

from guarded.kinds import KINDS, TABLE_GAME, FileKind
from attack_runner import Case, Result
from attack_files import (MUTATIONS, SPECIALS, Samples, copy_samples, detach, mutate, overlay, probe_code, sha,
                       special)

LONG = ("compare", "solve", "tables build", "review")
"""What may legitimately run past the bound (judged by how it stops on Ctrl-C)."""
BASELINES: dict[str, list[list[str]]] = {
    "text": [["text", "kalah:pits=4,seeds=3"], ["text", "solitaire"], ["text", "cave"]],
    "compare": [["compare", "--game", TABLE_GAME, "--engine", "random", "--engine", "random", "--games", "2"]],
    "games": [["games"]],
    "engines": [["engines", "kalah"]],
    "doctor": [["doctor"]],
    "desktop": [["desktop", "uninstall"]],
    "tables": [["tables", "status", "kalah:pits=3", "--folder", "{config}/tables"],
               ["tables", "build", "kalah:pits=3", "--seeds", "4", "--folder", "{config}/tables"]],
    "solve": [["solve", TABLE_GAME, "--folder", "{config}/tables"]],
    "gui": [["gui"]],
    "review": [["review", "{config}/saves/kalah-fuzz.save", "--time", "0.1"]],
}
"""A quick, valid command line of each sub-command, into which one option at a time is put with a hostile
value.  A sub-command the parser has and this lacks fails tests/fuzz/test_generated_attacks.py."""

NUMBERS = ("-1", "0", "1e12", "1" + "0" * 40, "nan", "inf", "-inf", "١٢", "１２", "", " 7", "0x10", "1_000",
           "9" * 400, "2.5", "-0", "+3", "1e-320", "७", "4\n5")
TEXTS = ("", " ", "-", "--", "x" * 20000, "١٢", "a\nb", "../../../../etc/passwd", "%s%n{0}", ":", "=", ",",
         "\u202e\u0000"[:1], "é" * 50, "-h")
NOT_DECIMALS = ("١٢", "１２", "७", "", "0x10", "1_000", "4\n5")
"""Values the one rule for numbers (ASCII digits only; docs/architecture.md) refuses wherever a number is read
(spaces around one are ignored): a command given one of them for a number must stop with a message, not run
with a number Python made of it."""
NOT_WHOLE_NUMBERS = NOT_DECIMALS + ("+3", "-0", "2.5")
"""And for a whole number, a sign or a fraction too."""
PARAMETER_VALUES = ("-1", "0", "1" + "0" * 40, "nan", "١٢", "１２", "", "99999999999", "2.5", "true")


# -- reading the parser ------------------------------------------------------------------------------------------
def commands() -> dict[str, argparse.ArgumentParser]:
    from game.cli import parser

    whole = parser()
    for action in whole._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("game.cli.parser() has no sub-commands")


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Every option and positional of ``parser`` but help."""
    return [action for action in parser._actions if not isinstance(action, argparse._HelpAction)]


def classify(action: argparse.Action) -> str:
    """What an option takes, from its type, choices, nargs, metavar and name."""
    name = (action.dest + " " + str(action.metavar or "")).lower()
    if action.nargs == 0:
        return "flag"
    if action.choices:
        return "choice"
    if action.type is Path or any(word in name for word in ("file", "folder", "dir", "load", "checkpoint",
                                                              "resume", "csv", "json")):
        return "path"
    if "address" in name or "cluster" in name:
        return "address"
    if action.dest in ("position",):
        return "position"
    if action.dest == "game":
        return "game"
    if "spec" in name or action.dest in ("engine", "judge"):
        return "engine"
    if str(action.metavar or "").upper() in ("N", "MB", "SECONDS"):  # a number its command reads itself
        return "number"
    if action.type is not None:
        try:
            sample = action.type("2")
        except (ValueError, TypeError, argparse.ArgumentTypeError):
            return "text"
        if isinstance(sample, (int, float)):
            return "number"
    return "text"


def _spec_values(spec: str, rng: random.Random, known: dict[str, list[str]]) -> list[str]:
    """Hostile variants of a game or engine spec: each parameter with hostile values, duplicated, unknown."""
    name, _, rest = spec.partition(":")
    params = dict(item.split("=", 1) for item in rest.split(",") if "=" in item)
    names = sorted(set(params) | set(known.get(name, [])))
    values = [f"{name}:", f"{name}:=", f"{name}:,,", f"{name}:nosuch=1", name.upper(), f"{name}:{'x=1,' * 3000}",
              f"{name}_" * 4000]
    for param in names:
        for value in PARAMETER_VALUES:
            values.append(":".join([name, ",".join(f"{k}={v}" for k, v in {**params, param: value}.items())]))
        twice = f"{param}=5" if param in params else f"{param}=4,{param}=5"  # a parameter given twice
        values.append(f"{spec}{',' if rest else ':'}{twice}")
    return values


@functools.lru_cache(maxsize=None)
def _registries() -> tuple[dict[str, list[str]], dict[str, list[str]], list[str]]:
    import rules
    from ai import registry

    games = {info.name: [param.name for param in info.params] for info in rules.list_games()}
    engines = {info.name: [param.name for param in info.params] for info in registry.engines()}
    return games, engines, sorted(engines)


def values_for(action: argparse.Action, baseline: str | None, rng: random.Random, silent: str) -> list[str]:
    """Every hostile value generated for ``action`` (``baseline``: its value in the baseline command)."""
    kind = classify(action)
    games, engines, engine_names = _registries()
    if kind == "flag":
        return [""]  # given once (and, as every option, given again: a duplicate)
    if kind == "number":
        return list(NUMBERS)
    if kind == "choice":
        return [*TEXTS[:8], *(str(choice).upper() + " " for choice in action.choices or ())]
    if kind == "path":
        return [f"@special:{name}" for name in SPECIALS] + ["@sample:save", "@sample:checkpoint", "@sample:table-lock",
                                                              "", "x" * 5000]
    if kind == "address":
        return [silent, "tcp://127.0.0.1:1", "tcp://[::1", "tcp://256.1.1.1:8786", "local:", "x" * 3000, ""]
    if kind == "position":
        return _position_values()
    if kind == "game":
        spec = baseline or "kalah"
        return [*_spec_values(spec, rng, games), *(name for name in games if name != spec.partition(":")[0])]
    if kind == "engine":
        spec = baseline or rng.choice(engine_names)
        other = rng.choice(engine_names)
        return [*_spec_values(spec, rng, engines), *_spec_values(other, rng, engines)[-6:], "computer", "human"]
    return list(TEXTS)


def _position_values() -> list[str]:
    import rules

    game = rules.parse_game_spec(TABLE_GAME)
    start = game.to_text(game.initial_state())  # pits=2,2,2/2,2,2 stores=0,0 move=S
    values = []
    for number in ("65536", "-1", "1" + "0" * 40, "١٢", "nan", "0", "2.5", "99999"):
        values.append(start.replace("2,2,2/", f"{number},2,2/", 1))
        values.append(start.replace("stores=0,0", f"stores={number},0"))
    values += [start.replace("move=S", "move=X"), start + " " + start, start.replace("/", "//"), "", "pits=",
               start.replace("pits=2,2,2/2,2,2", "pits=0,0,0/0,0,0")]
    return values


# -- the option cases ------------------------------------------------------------------------------------------
class Listener:
    """A server that accepts connections and never answers (a cluster address that hangs)."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(64)
        self.held: list[socket.socket] = []
        self.address = f"tcp://127.0.0.1:{self.socket.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.held.append(connection)

    def close(self) -> None:
        self.socket.close()
        for connection in self.held:
            connection.close()


def _is_long(words: list[str]) -> bool:
    return words[0] in ("compare", "solve", "gui", "review") or words[:2] == ["tables", "build"]


def _window(case: Case) -> Case:
    """``stonecave gui`` gets the fuzz's X display: its options are parsed and its files read, and the window
    it opens must close within a second of a Ctrl-C (it need not say anything)."""
    if case.argv[:1] == ["gui"]:
        case.display = case.silent_ok = True
    return case


def option_cases(rng: random.Random, samples: Samples, scratch: Path, silent: str,
                 per_option: int | None = None) -> Iterator[tuple[Callable[[], Case], str]]:
    """Every generated case of the options (or ``per_option`` of them per option, chosen by ``rng``), each as a
    function that prepares its folder and returns it, with the name of the option it attacks."""
    counter = iter(range(10**9))
    for command, parser in commands().items():
        baselines = BASELINES.get(command)
        if baselines is None:
            raise AssertionError(f"no baseline command line for the sub-command {command!r}: add one to BASELINES")
        window = command == "gui" and per_option is not None  # a window case costs seconds: fewer in a short run
        for baseline in baselines:  # the baseline itself, then with a word no parser expects
            for extra in ((("--nosuch",),) if window else ((), ("--nosuch",), ("x" * 5000,), ("-1",))):
                number = next(counter)
                yield functools.partial(_extra_case, number, command, [*baseline, *extra], samples,
                                        scratch), f"{command} (extra words)"
        for action in options(parser):
            flag = action.option_strings[-1] if action.option_strings else None
            chosen = []
            for baseline in baselines:
                value_in_baseline = _value_in(baseline, action, parser)
                values = values_for(action, value_in_baseline, rng, silent)
                for value in values:
                    chosen.append((baseline, value, False))
                if flag is not None:
                    chosen.append((baseline, rng.choice(values) if values else "", True))
            if per_option is not None:
                chosen = rng.sample(chosen, min(1 if window else per_option, len(chosen)))
            name = f"{command} {flag or action.dest}"
            for baseline, value, duplicate in chosen:
                number = next(counter)
                yield functools.partial(_option_case, number, name, baseline, parser, action, value, duplicate,
                                        samples, scratch), name


def _extra_case(number: int, command: str, words: list[str], samples: Samples, scratch: Path) -> Case:
    folder = scratch / f"case-{number}"
    folder.mkdir(parents=True)
    config, _files = copy_samples(samples, folder)
    words = [word.format(config=config) for word in words]
    watched = _snapshot(config)
    case = Case(f"{' '.join(words)[:80]}", words, long=_is_long(words), env={"STONECAVE_CONFIG_DIR": str(config)},
                cwd=str(folder))
    case.keep = functools.partial(_unchanged, watched, config)
    case.oracle = oracle_for(words)
    return _window(case)


def _refused(flag: str, value: str, result: Result) -> list[str]:
    if result.returncode in (1, 2) and not result.interrupted:
        return []
    return [f"wrong value: {flag} {value!r} was taken as a number (only ASCII digits are; it must be refused)"]


def _value_in(baseline: list[str], action: argparse.Action, parser: argparse.ArgumentParser) -> str | None:
    if action.option_strings:
        for index, word in enumerate(baseline[:-1]):
            if word in action.option_strings:
                return baseline[index + 1]
        return None
    positionals = [a for a in options(parser) if not a.option_strings]
    words = [w for w in baseline[1:] if not w.startswith("-")]
    place = positionals.index(action) if action in positionals else -1
    return words[place] if 0 <= place < len(words) else None


def _option_case(number: int, name: str, baseline: list[str], parser: argparse.ArgumentParser,
                 action: argparse.Action, value: str, duplicate: bool, samples: Samples, scratch: Path) -> Case:
    folder = scratch / f"case-{number}"
    folder.mkdir(parents=True)
    config, files = copy_samples(samples, folder)
    if value.startswith("@special:"):
        value = special(folder / "special", value.split(":", 1)[1])
    elif value.startswith("@sample:"):
        wanted = value.split(":", 1)[1]
        kind = next(kind for kind in KINDS if kind.name == wanted)
        source = Samples.path(kind, config, files)
        value = str(shutil.copy(source, folder / f"other-{source.name}"))
    words = [word.format(config=config) for word in baseline]
    if action.nargs == 0:
        words = words + ([action.option_strings[-1]] * (3 if duplicate else 1))
    elif action.option_strings:
        flag = action.option_strings[-1]
        cut = []
        skip = False
        for word in words:  # the baseline without the option, then the option with the hostile value
            if skip:
                skip = False
                continue
            if word in action.option_strings:
                skip = True
                continue
            cut.append(word)
        old = _value_in(words, action, parser)
        words = cut + ([flag, old or "2"] if duplicate else []) + [flag, value]
    else:
        positionals = [a for a in options(parser) if not a.option_strings]
        place = positionals.index(action)
        free = [i for i, word in enumerate(words) if i > 0 and not word.startswith("-")
                and (i == 1 or not words[i - 1].startswith("--"))]
        if place < len(free):
            words[free[place]] = value
        else:
            words.insert(1 + place, value)
    watched = _snapshot(config, option=name)
    case = Case(f"{name} {'(twice) ' if duplicate else ''}= {value[:60]!r}", words, long=_is_long(words),
                env={"STONECAVE_CONFIG_DIR": str(config)}, cwd=str(folder))
    case.keep = functools.partial(_unchanged, watched, config)
    case.oracle = oracle_for(words)
    if classify(action) == "number" and value in (NOT_WHOLE_NUMBERS if _is_whole(action) else NOT_DECIMALS):
        case.oracle = functools.partial(_refused, action.option_strings[-1] if action.option_strings else
                                        action.dest, value)
    return _window(case)


def _is_whole(action: argparse.Action) -> bool:
    """A number option whose parser makes an int (one its command reads itself, with no type, takes decimals)."""
    return action.type is not None and isinstance(action.type("2"), int)


# -- keeping files ---------------------------------------------------------------------------------------------
def _snapshot(config: Path, leave_out: Path | None = None, option: str = "") -> dict[Path, str | None]:
    """The hash of every file of a kind that must be kept, under ``config`` (but those ``option`` changes by
    design)."""
    precious = {}
    for path in config.rglob("*"):
        relative = path.relative_to(config).as_posix()
        kind = next((kind for kind in KINDS if not kind.is_package_data and not kind.is_option_only
                     and kind.matches(relative)), None)
        if kind is not None and kind.keep and path != leave_out and path.is_file() and option not in kind.changed_by:
            precious[path] = sha(path)
    return precious


def _unchanged(watched: dict[Path, str | None], config: Path) -> list[str]:
    lost = []
    for path, digest in watched.items():
        now = sha(path)
        if now != digest:
            what = now if now and " " in now else "changed"  # a hash, or why there is none
            lost.append(f"lost: {path.relative_to(config)} changed or vanished ({what})")
    return lost


def _kept(kind: FileKind, path: Path, mutated: bytes | None, original: bytes) -> list[str]:
    """The damaged file's content is not lost: set aside or left (``bytes``), or every whole record line that
    the damage did not touch is still there (``lines``)."""
    if kind.keep == "bytes" and mutated is not None:
        for candidate in path.parent.iterdir():
            if candidate.is_file() and not candidate.is_symlink() and candidate.read_bytes() == mutated:
                return []
        return [f"lost: the damaged {kind.name} ({len(mutated)} bytes) is neither left nor set aside"]
    if kind.keep == "lines" and mutated is not None:
        whole = mutated.replace(b"\r\n", b"\n").split(b"\n")[:-1]  # the lines that end (any line end)
        untouched = [line for line in original.split(b"\n")[1:] if line.strip() and line in whole]
        now = path.read_bytes() if path.is_file() else b""
        missing = [line for line in untouched if line not in now.replace(b"\r\n", b"\n").split(b"\n")]
        if missing:
            return [f"lost: {len(missing)} of the {len(untouched)} whole records the damage left in the "
                    f"{kind.name} are gone ({missing[0][:60]!r}...)"]
    return []


# -- the file-kind cases ---------------------------------------------------------------------------------------
def readers(kind: FileKind) -> list[tuple[str, ...]]:
    """The command lines (and probe, as ``("--probe",)``) that read ``kind``."""
    found = list(kind.readers)
    if kind.probe:
        found.append(("--probe",))
    return found


def kind_cases(rng: random.Random, samples: Samples, scratch: Path, every_reader: bool = True,
               mutations: tuple[str, ...] = MUTATIONS) -> Iterator[tuple[Callable[[], Case], str]]:
    """Each kind damaged in each way, read by each of its readers (or by one, in turn, when not
    ``every_reader``); the mutation ``none`` leaves the sample whole."""
    counter = iter(range(10**9))
    turn = 0
    for kind in KINDS:
        for mutation in mutations:
            chosen = readers(kind)
            if not every_reader:
                chosen = [chosen[turn % len(chosen)]]
                turn += 1
            for reader in chosen:
                seed = rng.randrange(10**9)
                yield functools.partial(_kind_case, next(counter), kind, mutation, reader, seed, samples,
                                        scratch), f"{kind.name} {mutation}"


def _kind_case(number: int, kind: FileKind, mutation: str, reader: tuple[str, ...], seed: int, samples: Samples,
               scratch: Path) -> Case:
    folder = scratch / f"kind-{number}"
    folder.mkdir(parents=True)
    config, files = copy_samples(samples, folder)
    pythonpath = str(Path(__file__).resolve().parents[2])
    package = Path(pythonpath)
    if kind.is_package_data:
        package = overlay(folder)
        pythonpath = str(package)
    path = Samples.path(kind, config, files, package)
    if kind.is_package_data:
        detach(path)
    original = path.read_bytes()
    watched = _snapshot(config, leave_out=path)
    mutated = mutate(path, kind, mutation, random.Random(seed))
    names = {"config": str(config), "file": str(path), "folder": str(path.parent), "package": str(package)}
    if reader == ("--probe",):
        words = ["--probe", probe_code(kind, kind.probe, config, path)]
    else:
        words = [word.format(**names) for word in reader]
    label = f"{kind.name} {mutation} -> {'probe' if reader == ('--probe',) else ' '.join(reader[:2])}"
    case = Case(label, words, long=words[0] != "--probe" and _is_long(words),
                env={"STONECAVE_CONFIG_DIR": str(config)}, pythonpath=pythonpath, cwd=str(folder), seed=seed)
    case.keep = lambda: _unchanged(watched, config) + _kept(kind, path, mutated, original)
    case.oracle = oracle_for(words)
    return _window(case)


def oracle_for(words: list[str]) -> Callable[[Result], list[str]] | None:
    """A check of the answer, where the fuzz knows the right one (see ``attack_oracles``)."""
    from attack_oracles import check_compare, check_solve

    if words[:1] == ["compare"]:
        return check_compare
    if words[:2] == ["solve", TABLE_GAME] and "--position" not in words:
        return check_solve
    return None
