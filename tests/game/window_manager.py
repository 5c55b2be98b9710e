"""A window manager for the journeys' maximise: Xvfb has none, and a maximise is the window manager's to do.

``jwm`` (Debian's package; ``.ci/run`` installs it) is started for as long as the window is maximised and asked
through the real request (the EWMH ``_NET_WM_STATE`` client message that ``window.maximize()`` sends, and its
removal to restore); the other steps and tests run without one, as before.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable

import arcade

WINDOW_MANAGER = "jwm"
"""The window manager a journey runs while the window is maximised (Debian's ``jwm``: small, and it honours the
EWMH maximise request that ``window.maximize()`` sends)."""
WM_CONFIG = '<?xml version="1.0"?>\n<JWM><Desktops width="1" height="1"/></JWM>\n'
"""One desktop, no tray, no menu: the window has the whole screen less its frame."""


def has_window_manager() -> bool:
    return shutil.which(WINDOW_MANAGER) is not None


def wm_state(window: arcade.Window, add: bool) -> None:
    """Ask the window manager to add or remove the maximised state (the EWMH client message a title bar's
    maximise button or a double click makes it act on; pyglet's ``maximize`` sends the same one to add)."""
    if add:
        window.maximize()
        return
    from ctypes import byref, cast, POINTER

    from pyglet.libs.x11 import xlib

    display, handle = window._x_display, window._window  # type: ignore[attr-defined]
    state = xlib.XInternAtom(display, b"_NET_WM_STATE", False)
    event = xlib.XEvent()
    event.xclient.type = xlib.ClientMessage
    event.xclient.message_type = state
    event.xclient.display = cast(display, POINTER(xlib.Display))
    event.xclient.window = handle
    event.xclient.format = 32
    event.xclient.data.l[0] = 0  # _NET_WM_STATE_REMOVE
    event.xclient.data.l[1] = xlib.XInternAtom(display, b"_NET_WM_STATE_MAXIMIZED_HORZ", False)
    event.xclient.data.l[2] = xlib.XInternAtom(display, b"_NET_WM_STATE_MAXIMIZED_VERT", False)
    xlib.XSendEvent(display, window._get_root(), False, xlib.SubstructureRedirectMask,  # type: ignore[attr-defined]
                    byref(event))
    xlib.XFlush(display)


class WindowManager:
    """``jwm`` on the display for as long as a window is maximised: ``maximise`` starts it and asks it to maximise
    the window, ``restore`` asks it to put the window back and stops it.  Each says whether the window's size
    changed within a few seconds (the manager is another process: events are dispatched meanwhile)."""

    def __init__(self, window: arcade.Window) -> None:
        self.window = window
        self.process: subprocess.Popen | None = None
        self._config: Path | None = None
        self.maximised_size: tuple[int, int] = (0, 0)

    @property
    def running(self) -> bool:
        return self.process is not None

    def maximise(self) -> bool:
        if self.process is None:
            folder = Path(tempfile.mkdtemp(prefix="stonecave-wm-"))
            self._config = folder / "jwmrc"
            self._config.write_text(WM_CONFIG, encoding="utf-8")
            self.process = subprocess.Popen([WINDOW_MANAGER, "-f", str(self._config)], stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, env={**os.environ})
        # Asked again until the manager, which is starting, takes the window and acts on it.
        done = self._until_resized(lambda: wm_state(self.window, True))
        self.maximised_size = self.window.get_size()
        return done

    def restore(self) -> bool:
        """Un-maximise and stop; False when the window stayed at its maximised size.  A window no longer at that
        size (the game switched to full screen meanwhile, from its settings) has nothing to restore."""
        if self.process is None:
            return False
        if self.window.fullscreen or self.window.get_size() != self.maximised_size:
            self.stop()
            return True
        restored = self._until_resized(lambda: wm_state(self.window, False))
        self.stop()
        return restored

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            self.window._set_wm_state()  # type: ignore[attr-defined]  # forget the maximised state asked for
            self.window.dispatch_events()
        if self._config is not None:
            shutil.rmtree(self._config.parent, ignore_errors=True)
            self._config = None

    def _until_resized(self, ask: Callable[[], None], seconds: float = 5.0) -> bool:
        before = self.window.get_size()
        deadline = time.monotonic() + seconds
        asked = 0.0
        while time.monotonic() < deadline:
            if time.monotonic() - asked > 0.1:  # again every tenth of a second meanwhile
                ask()
                asked = time.monotonic()
            time.sleep(0.01)
            self.window.dispatch_events()  # the manager's events (the caller's frames draw afterwards)
            if self.window.get_size() != before:
                return True
        return False
