"""Test-session set-up for the window tests: one hidden X server, one window, deterministic frames.

- If ``DISPLAY`` is unset, one ``Xvfb`` is started when the session is configured (``-displayfd`` picks a free
  display), before any test module is collected and so before anything imports arcade (pyglet binds to the
  display it finds), and stopped when the session ends.  It costs about 0.1 s and no window.
- ``window``: one session-wide 1280x720 window (no antialiasing, events dispatched at once).
- ``gui`` helpers step frames (events, a fixed 1/60 s update, a draw, a flip), click, press keys and grab
  screenshots.
- Under ``CI=true`` a skipped ``gui`` test is a failure: the window tests must really run in CI.
- A compiled core that no longer matches its ``.pyx``/``.pxi`` sources (edited and not rebuilt) stops the run
  before collection, with the rebuild command: tests passing against an old build would prove nothing.
- The slow jobs of child processes (a wheel, the other Pythons' suites, the generated attacks) start when
  collection ends and run beside the suite (``tests/background.py``).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests import background

_XVFB: subprocess.Popen | None = None


def _start_xvfb() -> None:
    """Start Xvfb on a free display and point DISPLAY at it (only when no display is set)."""
    global _XVFB
    if os.environ.get("DISPLAY") or _XVFB is not None:
        return
    binary = shutil.which("Xvfb")
    if binary is None:
        return  # the gui tests then skip, which CI turns into failures
    read_end, write_end = os.pipe()
    _XVFB = subprocess.Popen(
        [binary, "-displayfd", str(write_end), "-screen", "0", "1920x1080x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    number = b""
    deadline = time.monotonic() + 15
    with os.fdopen(read_end, "rb") as stream:
        while time.monotonic() < deadline:
            chunk = stream.read(1)
            if not chunk or chunk == b"\n":
                break
            number += chunk
    if not number.strip():
        _XVFB.kill()
        _XVFB = None
        return
    os.environ["DISPLAY"] = f":{number.decode().strip()}"


SLOW_LIST = Path(__file__).with_name("slow.txt")
"""Tests measured at more than 3 s each, marked ``slow`` here so the suites others edit need no decorator."""


def _slow_ids() -> set[str]:
    lines = SLOW_LIST.read_text(encoding="utf-8").splitlines() if SLOW_LIST.exists() else []
    return {line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = _slow_ids()
    found = set()
    for item in items:
        if "test_gui_" in item.nodeid:
            item.add_marker(pytest.mark.gui)
        for name in (item.nodeid, item.nodeid.partition("[")[0]):  # a listed function marks all its cases
            if name in slow:
                item.add_marker(pytest.mark.slow)
                found.add(name)
    # A listed test that is gone from a file that was collected: say so, or the list would drift silently.
    files = {item.nodeid.partition("::")[0] for item in items}
    stale = sorted(name for name in slow - found if name.partition("::")[0] in files)
    if stale:
        config.issue_config_time_warning(pytest.PytestWarning(f"tests/slow.txt names tests that no longer exist: "
                                                              f"{', '.join(stale)}"), stacklevel=2)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the background jobs (``tests/background.py``) the collected tests need: those they are marked with
    (``@pytest.mark.background(NAME)``) or use as a fixture of the job's name, in the order the tests come."""
    if session.config.option.collectonly:
        return
    names = []
    for item in session.items:
        names += [marker.args[0] for marker in item.iter_markers("background")]
        names += [name for name in getattr(item, "fixturenames", ()) if name in background.JOBS]
    background.start(names)


def stale_core_message() -> str | None:
    """Why the suite must not run on this checkout's compiled core (it is stale), or None."""
    import importlib.util

    if importlib.util.find_spec("ai.core._core") is None:
        return None  # not built (or not for this Python): the pure-Python kernels run, and CI says so
    import ai.core

    try:
        from ai.core import _core
    except ImportError:
        return None
    reason = ai.core.stale_reason(_core)
    if reason is None:
        return None
    return f"the compiled search core {Path(_core.__file__).name} is stale: {reason.partition(': ')[2]}"


def pytest_configure(config: pytest.Config) -> None:
    message = stale_core_message()
    if message is not None:
        pytest.exit(f"refusing to test a stale build: {message}", returncode=pytest.ExitCode.USAGE_ERROR)
    # pyglet binds to DISPLAY when arcade is first imported, which test modules do at collection: start the
    # server before collection whenever window tests might be collected.
    _start_xvfb()


def pytest_unconfigure(config: pytest.Config) -> None:
    global _XVFB
    if _XVFB is not None:
        _XVFB.terminate()
        try:
            _XVFB.wait(5)
        except subprocess.TimeoutExpired:
            _XVFB.kill()
        _XVFB = None


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):  # type: ignore[no-untyped-def]
    outcome = yield
    report = outcome.get_result()
    if report.skipped and _in_ci() and (item.get_closest_marker("gui") or "[compiled" in item.nodeid):
        report.outcome = "failed"
        report.longrepr = f"test skipped under CI=true (skips are failures in CI): {report.longrepr}"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under CI the run must prove that the compiled core, not the pure-Python fallback, searched."""
    background.clean()
    if not _in_ci() or session.testscollected < 50 or exitstatus != 0:
        return
    import ai.core

    if ai.core.module() is None or ai.core.runs_started == 0:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        why = ai.core.status().why if ai.core.module() is None else "no compiled search ran"
        message = f"CI=true: the compiled search core was not used ({why})"
        if reporter is not None:
            reporter.write_line(message, red=True, bold=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    else:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"compiled search core: {ai.core.runs_started} compiled searches ran "
                                f"({ai.core.status().why})")


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:  # type: ignore[no-untyped-def]
    """The Pythons the run covered (tests/test_pythons.py records a line per supported version), printed in the
    summary so CI's log says which versions were tested."""
    lines = [value for reports in terminalreporter.stats.values() for report in reports
             if getattr(report, "when", None) == "call"
             for name, value in getattr(report, "user_properties", ()) if name == "python_versions"]
    if lines:
        terminalreporter.section("supported Pythons")
        for line in lines:
            terminalreporter.write_line(line)


# -- the window and helpers ----------------------------------------------------------------------------------
class Gui:
    """Drives the session window: frames, clicks, keys and screenshots."""

    def __init__(self, window) -> None:  # type: ignore[no-untyped-def]
        self.window = window

    def frame(self, count: int = 1, dt: float = 1 / 60) -> None:
        for _ in range(count):
            self.window.dispatch_events()
            self.window._dispatch_updates(dt)
            self.window.dispatch_event("on_draw")
            self.window.flip()

    def update(self, dt: float = 1 / 60) -> None:
        """A frame's events and update without its draw (for a caller that draws the frame itself next, as
        ``journeys.violations`` does)."""
        self.window.dispatch_events()
        self.window._dispatch_updates(dt)

    def frames_until(self, condition, limit: int = 600, dt: float = 1 / 60) -> int:  # type: ignore[no-untyped-def]
        """Step frames until ``condition()`` is true; the number of frames taken (fails after ``limit``)."""
        for count in range(limit):
            if condition():
                return count
            self.frame(dt=dt)
            time.sleep(0.0005)  # let a search thread run
        assert condition(), f"condition not met after {limit} frames"
        return limit

    def updates_until(self, condition, limit: int = 600, dt: float = 1 / 60) -> int:  # type: ignore[no-untyped-def]
        """Like ``frames_until``, but the frames in between are updates only (events and a fixed ``dt``, no draw
        or flip), and one whole frame is drawn at the end.  For waits whose subject is what ``on_update`` moves
        (the stones' physics settling), not the pictures in between: a drawn frame costs ten times an update.
        Not for a view whose drawing feeds its state (the title's stones keep clear of what it drew)."""
        for count in range(limit):
            if condition():
                self.frame()
                return count
            self.update(dt)
        assert condition(), f"condition not met after {limit} updates"
        self.frame()
        return limit

    def click(self, x: float, y: float, button: int = 1) -> None:
        self.window.dispatch_event("on_mouse_motion", int(x), int(y), 0, 0)
        self.window.dispatch_event("on_mouse_press", int(x), int(y), button, 0)
        self.window.dispatch_event("on_mouse_release", int(x), int(y), button, 0)
        self.frame()

    def move(self, x: float, y: float) -> None:
        self.window.dispatch_event("on_mouse_motion", int(x), int(y), 0, 0)

    def key(self, symbol: int, modifiers: int = 0) -> None:
        self.window.dispatch_event("on_key_press", symbol, modifiers)
        self.window.dispatch_event("on_key_release", symbol, modifiers)
        self.frame()

    def widgets(self, kind=None):  # type: ignore[no-untyped-def]
        """Every widget of the current view's UIManager (all layers), optionally of one class."""
        view = self.window.current_view
        manager = getattr(view, "ui", None)
        found = []
        if manager is None:
            return found

        def walk(widget):  # type: ignore[no-untyped-def]
            found.append(widget)
            for child in getattr(widget, "children", []):
                walk(child)

        for layer in manager.children.values():
            for widget in layer:
                walk(widget)
        return [w for w in found if kind is None or isinstance(w, kind)]

    def button(self, text: str):  # type: ignore[no-untyped-def]
        """The first button whose text starts with ``text``."""
        import arcade.gui

        for widget in self.widgets(arcade.gui.UIFlatButton):
            if widget.text.startswith(text):
                return widget
        names = [w.text for w in self.widgets(arcade.gui.UIFlatButton)]
        raise AssertionError(f"no button {text!r} on {type(self.window.current_view).__name__}: {names}")

    def press(self, text: str) -> None:
        """Click the centre of the button labelled ``text``."""
        self.frame()
        widget = self.button(text)
        self.click(*widget.rect.center)
        self.frame()

    def screenshot(self, path: Path | None = None):  # type: ignore[no-untyped-def]
        """The current frame as a PIL image (drawn, read back before the flip); saved when ``path`` is given."""
        import arcade

        self.window.dispatch_events()
        self.window.dispatch_event("on_draw")
        image = arcade.get_image(0, 0, self.window.width, self.window.height)
        self.window.flip()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            image.save(path)
        return image


@pytest.fixture(scope="session")
def window():  # type: ignore[no-untyped-def]
    if not os.environ.get("DISPLAY"):
        pytest.skip("no X display and no Xvfb: window tests cannot run")
    import arcade

    from game import theme

    theme.load_fonts()
    win = arcade.Window(1280, 720, "StoneCave tests", resizable=True, antialiasing=False, vsync=False)
    win._enable_event_queue = False
    yield win
    win.close()


@pytest.fixture
def gui(window, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """A fresh application on the session window, with settings and saves in a temporary folder."""
    from game import app

    monkeypatch.setenv("STONECAVE_CONFIG_DIR", str(tmp_path))
    if window.width != 1280 or window.height != 720:
        window.set_size(1280, 720)
        window.dispatch_event("on_resize", 1280, 720)
    driver = Gui(window)
    driver.context = app.start(window, tmp_path)
    driver.context.sounds.enabled = False
    driver.context.apply_settings = lambda: None  # no sound or full-screen switching in tests
    driver.config_dir = tmp_path
    driver.frame(2)
    yield driver
    view = window.current_view
    if view is not None and hasattr(view, "cancel_search"):
        view.cancel_search()


# -- small Kalah endgame tables (every Kalah(4) board of 0..8 seeds, empty-capture rule) ----------------------------
@pytest.fixture(scope="module")
def table_folder(tmp_path_factory):  # type: ignore[no-untyped-def]
    """Built once per module that asks (a module may define its own set under this name)."""
    from ai import tables

    folder = tmp_path_factory.mktemp("kalah-tables")
    tables.build_kalah_tables(folder, 4, True, 8, threads=1)
    return folder


@pytest.fixture
def with_tables(table_folder, monkeypatch):  # type: ignore[no-untyped-def]
    """The player's tables are ``table_folder``'s for the test."""
    from ai import tables

    monkeypatch.setenv(tables.ENV, str(table_folder))
    tables.forget()
    yield table_folder
    tables.forget()


# -- the first use's second stage stays off in the suite --------------------------------------------------------------
@pytest.fixture(autouse=True, scope="session")
def _no_grown_tables():  # type: ignore[no-untyped-def]
    """A test that plays a Strongest level after an in-process ``stonecave`` command has configured the settings
    folder starts the first-use build there (0..14 seeds, seconds); its second stage (0..20 seeds, 226 MB, minutes
    of a core) would go on in a daemon thread through the rest of the suite.  Off here; the tests of the second
    stage give it a small budget of their own (tests/ai/test_tables_grown.py)."""
    import dataclasses

    from ai.tables import games

    kept = dict(games.TABLE_GAMES)
    for name, kind in kept.items():
        games.TABLE_GAMES[name] = dataclasses.replace(kind, grown_bytes=0)
    yield
    games.TABLE_GAMES.update(kept)
