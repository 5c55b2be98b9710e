"""Run one generated attack in a bounded process and judge what it did.

A case is a ``stonecave`` command line (or a few lines of Python that read a file the way the window does) run
as ``python -m game ...`` with standard input closed, no display, its own settings folder, a memory cap
(``RLIMIT_AS``) and a time bound.  A command that is still running at the bound gets a SIGINT (a Ctrl-C): a
long-running command (``tables build``, ``solve``, ``compare``) passes when it then stops within a second,
having said something; any other command has hung.  ``judge`` lists what went wrong: a Python traceback, an
exit by a signal, a hang, an exit status outside the command line's convention, a failure without a message,
a wrong value (the case's oracle) or a lost file.
"""
from __future__ import annotations

import os
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
MEMORY_LIMIT = 2 * 1024**3
"""Address space of one case (2 GB: the 1 GB default transposition table of ``solve`` fits)."""
GRACE = 1.0
"""Seconds a command has to stop after its Ctrl-C."""
EXIT_CODES = {0, 1, 2, 130}
"""The command line's convention: 0 done, 1 failed (said why), 2 bad command line, 130 stopped by Ctrl-C
(141, a closed pipe, cannot happen here: the output goes to files)."""
OUTPUT_LIMIT = 1 << 20
"""Most bytes of each stream kept for judging."""
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|^\w+(\.\w+)*(Error|Exception): |"
                       r"Exception ignored in|Fatal Python error|core dumped", re.MULTILINE)


@dataclass
class Case:
    """One attack: what to run and what it must not do."""

    label: str
    argv: list[str]
    """``stonecave`` words, or ``["--probe", CODE]`` for Python run as the window would (written to
    ``probe.py`` in the case's folder and run from there)."""
    long: bool = False
    """A command that may legitimately run past the bound (judged by how it stops on Ctrl-C)."""
    env: dict[str, str] = field(default_factory=dict)
    stdin: str | None = None
    pythonpath: str = str(ROOT)
    cwd: str = ""
    oracle: Callable[[Result], list[str]] | None = None
    """A check of the answer (a wrong value), given the result."""
    keep: Callable[[], list[str]] | None = None
    """A check, after the run, that no file the case did not mean to damage was lost."""
    seed: int = 0
    display: bool = False
    """Give it the X display of the fuzz (``stonecave gui`` opens its window there)."""
    silent_ok: bool = False
    """A long command that may stop on Ctrl-C without a word (the window)."""

    def command(self) -> str:
        """The command that reproduces the case (environment, folder and words)."""
        env = " ".join(f"{key}={shlex.quote(value)}" for key, value in sorted(self.env.items()))
        words = ["python", "probe.py"] if self.argv[:1] == ["--probe"] else ["python", "-m", "game", *self.argv]
        stdin = "< /dev/null" if self.stdin is None else f"<<< {shlex.quote(self.stdin)}"
        return f"cd {shlex.quote(self.cwd or '.')} && PYTHONPATH={shlex.quote(self.pythonpath)} {env} " \
               f"{shlex.join(words)} {stdin}".replace("  ", " ")


@dataclass
class Result:
    case: Case
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    interrupted: bool = False
    """Still running at the bound: it got a Ctrl-C."""
    stopped: bool = True
    """It ended (by itself or after the Ctrl-C) rather than being killed."""
    failures: list[str] = field(default_factory=list)


def _limit_memory() -> None:
    os.setsid()  # its own process group: the Ctrl-C and a last kill reach its workers too
    # a Ctrl-C must reach it as it reaches a command typed in a terminal, even when the fuzz itself was started
    # in the background (where the shell ignores SIGINT, and an ignored signal stays ignored across exec)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (512 * 1024**2, 512 * 1024**2))


PLAIN = {key: value for key, value in os.environ.items()
         if key in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER", "SYSTEMROOT")}
"""The variables every case keeps, read once at import: the attacks run on threads beside tests that change the
environment, and a child forked while glibc reallocates ``environ`` can inherit a torn one (so every child here
gets an explicit ``env``)."""


def environment(case: Case) -> dict[str, str]:
    env = dict(PLAIN)
    env.update({"PYTHONPATH": case.pythonpath, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"})
    if case.display and os.environ.get("DISPLAY"):
        env["DISPLAY"] = os.environ["DISPLAY"]
    env.update(case.env)
    # `stonecave desktop install` writes under XDG_DATA_HOME: never the real home's application menu
    env.setdefault("XDG_DATA_HOME", str(Path(case.env.get("STONECAVE_CONFIG_DIR", tempfile.gettempdir()))
                                        / "stonecave-fuzz-desktop"))
    return env


def run(case: Case, timeout: float) -> Result:
    """Run ``case`` under the bounds; its result, judged."""
    words = [sys.executable, "-m", "game", *case.argv]
    made = None
    if case.argv[:1] == ["--probe"]:
        if not case.cwd:
            made = case.cwd = tempfile.mkdtemp(prefix="stonecave-probe-")
        (Path(case.cwd) / "probe.py").write_text(case.argv[1], encoding="utf-8")
        words = [sys.executable, "probe.py"]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        process = subprocess.Popen(
            words, stdin=subprocess.PIPE if case.stdin is not None else subprocess.DEVNULL, stdout=out, stderr=err,
            env=environment(case), cwd=case.cwd or None, preexec_fn=_limit_memory)
        interrupted, stopped = False, True
        try:
            if case.stdin is not None:
                try:
                    process.stdin.write(case.stdin.encode())  # type: ignore[union-attr]
                    process.stdin.close()  # type: ignore[union-attr]
                except OSError:
                    pass
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            interrupted = True
            _signal(process, signal.SIGINT)
            try:
                process.wait(GRACE)
            except subprocess.TimeoutExpired:
                stopped = False
                _signal(process, signal.SIGKILL)
                process.wait()
        finally:
            _signal(process, signal.SIGKILL)  # whatever it left running in its group
        seconds = time.monotonic() - start
        result = Result(case, process.returncode, _read(out), _read(err), seconds, interrupted, stopped)
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)
    result.failures = judge(result, timeout)
    return result


def _signal(process: subprocess.Popen, number: int) -> None:
    try:
        os.killpg(process.pid, number)
    except (ProcessLookupError, PermissionError):
        pass


def _read(stream) -> str:  # type: ignore[no-untyped-def]
    stream.seek(0)
    return stream.read(OUTPUT_LIMIT).decode("utf-8", "replace")


def judge(result: Result, timeout: float) -> list[str]:
    """What went wrong, each in a few words (empty when the case passed)."""
    case, failures = result.case, []
    code = result.returncode
    if not result.stopped:
        failures.append(f"hang: still running {timeout:g} s in and {GRACE:g} s after a Ctrl-C (killed)")
    elif result.interrupted and not case.long:
        failures.append(f"hang: still running after {timeout:g} s (stopped by Ctrl-C)")
    elif result.interrupted and not case.silent_ok and not (result.stdout.strip() or result.stderr.strip()):
        failures.append(f"silent: ran {timeout:g} s without a word, then stopped on Ctrl-C")
    match = TRACEBACK.search(result.stderr) or TRACEBACK.search(result.stdout)
    if match:
        failures.append(f"traceback: {_last_line(result.stderr or result.stdout, match.start())}")
    if code is not None and code < 0 and result.stopped:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        failures.append(f"crash: killed by {name}")
    elif code is not None and code not in EXIT_CODES and result.stopped:
        failures.append(f"exit status {code} (the convention: 0, 1, 2, or 130 after Ctrl-C)")
    if code not in (0, None) and result.stopped and not result.stderr.strip() and not result.stdout.strip():
        failures.append(f"exit status {code} without a message")
    if case.oracle is not None and not failures:
        failures.extend(case.oracle(result))
    if case.keep is not None:
        failures.extend(case.keep())
    return failures


def _last_line(text: str, start: int) -> str:
    """The line that names the exception (the last non-empty line of the traceback)."""
    lines = [line for line in text[start:].splitlines() if line.strip()]
    tail = [line for line in lines if re.match(r"^\w+(\.\w+)*(Error|Exception|Interrupt)\b", line)]
    return (tail[-1] if tail else lines[-1] if lines else text[start:start + 80]).strip()[:160]
