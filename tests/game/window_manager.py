"""A window manager for the journeys' maximise: Xvfb has none, and a maximise is the window manager's to do.

``jwm`` (Debian's package; ``.ci/run`` installs it) is started for as long as the window is maximised and asked
through the real request (the EWMH ``_NET_WM_STATE`` client message that ``window.maximize()`` sends, and its
removal to restore); the other steps and tests run without one, as before.
"""
from __future__ import annotations

import shutil

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
