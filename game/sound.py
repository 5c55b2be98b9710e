"""Short, soft sounds from arcade's bundled resources: a stone drop, a pick-up, a capture, a brick, the end.

The scenes call their ``on_sound(name)`` hook; the game screens route it to the context's ``SoundBank``, which
plays the named sound at a low volume when the Sound setting is on.  A machine with no audio device (a CI
machine under Xvfb, a muted server) must never stop the game: a sound that cannot be loaded or played is
dropped, and the first such failure is logged once, clearly, so a silent game can be explained.
"""
from __future__ import annotations

import logging
from typing import Any, Callable

import arcade

LOG = logging.getLogger("stonecave.sound")

SOUNDS = {
    "drop": ":resources:sounds/hit1.wav",
    "pick": ":resources:sounds/coin2.wav",
    "capture": ":resources:sounds/coin5.wav",
    "brick": ":resources:sounds/rockHit2.wav",
    "end": ":resources:sounds/upgrade1.wav",
}
"""Each sound the scenes name, from arcade's resources (Kenney's CC0 set): the softest of each kind."""
VOLUMES = {"drop": 0.12, "pick": 0.15, "capture": 0.3, "brick": 0.25, "end": 0.4}


class SoundBank:
    """Plays the named sounds; silent when ``enabled`` is false or no audio device exists.

    ``loader`` builds a sound from a resource path (``arcade.load_sound``; a test passes a fake).  Sounds are
    loaded on first use, so a game that never makes a sound never opens the audio device.
    """

    def __init__(self, loader: Callable[[str], Any] | None = None) -> None:
        self.enabled = True
        self._loader = loader or arcade.load_sound
        self._sounds: dict[str, Any] = {}
        self.failed = False
        """True once a sound could not be loaded or played (logged once; the game goes on silently)."""

    def play(self, name: str) -> None:
        """Play sound ``name`` (one of ``SOUNDS``) if sound is on; never raises for a missing device."""
        if name not in SOUNDS:  # checked even when silent, so the (silent) window tests catch a misnamed sound
            raise ValueError(f"unknown sound {name!r} (known: {', '.join(SOUNDS)})")
        if not self.enabled:
            return
        if name not in self._sounds:
            try:
                self._sounds[name] = self._loader(SOUNDS[name])
            except Exception as error:  # noqa: BLE001 - no audio driver or file: the game goes on silently
                self._fail(name, error)
                return
        sound = self._sounds[name]
        if sound is None:
            return
        try:
            sound.play(volume=VOLUMES.get(name, 0.3))
        except Exception as error:  # noqa: BLE001 - a missing audio device must never stop the game
            self._fail(name, error)

    def _fail(self, name: str, error: Exception) -> None:
        self._sounds[name] = None
        if not self.failed:
            self.failed = True
            LOG.warning("StoneCave: sound %r could not be played (%s: %s); the game goes on without it",
                        name, type(error).__name__, error)
