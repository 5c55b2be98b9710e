"""The application context: what every screen shares, passed to each view's constructor.

It holds the window, the settings and where they are stored, messages waiting to be shown (a settings file
that had to be set aside, for instance), the sounds, and the navigation between screens.  Views import each
other only through ``show_*`` here, so a screen never needs to know how another is built.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import arcade

from game.settings import Settings, SettingsStore

if TYPE_CHECKING:
    from game.match import Match

SOUNDS = {
    "drop": ":resources:sounds/hit1.wav",
    "pick": ":resources:sounds/coin2.wav",
    "capture": ":resources:sounds/coin5.wav",
    "end": ":resources:sounds/upgrade1.wav",
}
VOLUMES = {"drop": 0.12, "pick": 0.15, "capture": 0.3, "end": 0.4}


class SoundBank:
    """Short sounds from arcade's bundled resources; silent when sound is off or no audio device exists."""

    def __init__(self) -> None:
        self._sounds: dict[str, arcade.Sound | None] = {}
        self.enabled = True

    def play(self, name: str) -> None:
        if not self.enabled:
            return
        if name not in self._sounds:
            try:
                self._sounds[name] = arcade.load_sound(SOUNDS[name])
            except Exception:  # noqa: BLE001 - no audio driver or file: the game goes on silently
                self._sounds[name] = None
        sound = self._sounds[name]
        if sound is not None:
            try:
                sound.play(volume=VOLUMES.get(name, 0.3))
            except Exception:  # noqa: BLE001 - a missing audio device must never stop the game
                self._sounds[name] = None


@dataclass
class AppContext:
    """Shared state of the running application."""

    window: arcade.Window
    store: SettingsStore
    settings: Settings
    notices: list[str] = field(default_factory=list)
    """Messages for the player that no screen has shown yet (shown and cleared by the title screen)."""
    sounds: SoundBank = field(default_factory=SoundBank)
    save_dir: Path | None = None

    def __post_init__(self) -> None:
        self.sounds.enabled = bool(self.settings.get("sound"))
        if self.save_dir is None:
            self.save_dir = self.store.directory / "saves"

    # -- settings ---------------------------------------------------------------------------------------------
    def save_settings(self) -> None:
        """Write the settings; a failure becomes a notice, never a crash."""
        try:
            self.store.save(self.settings)
        except OSError as error:
            self.notices.append(f"Could not save the settings to {self.store.path}: {error.strerror or error}")
        self.apply_settings()

    def apply_settings(self) -> None:
        self.sounds.enabled = bool(self.settings.get("sound"))
        fullscreen = bool(self.settings.get("fullscreen"))
        if self.window.fullscreen != fullscreen:
            try:
                self.window.set_fullscreen(fullscreen)
            except Exception as error:  # noqa: BLE001 - e.g. no screen mode on a virtual display
                self.notices.append(f"Full screen is not available here: {error}")

    # -- navigation -------------------------------------------------------------------------------------------
    def show(self, view: arcade.View) -> None:
        self.window.show_view(view)

    def show_title(self) -> None:
        from game.views.title import TitleView

        self.show(TitleView(self))

    def show_play(self) -> None:
        from game.views.play_menu import PlayMenuView

        self.show(PlayMenuView(self))

    def show_seats(self, game_name: str) -> None:
        from game.views.seats import SeatSetupView

        self.show(SeatSetupView(self, game_name))

    def show_settings(self) -> None:
        from game.views.settings_view import SettingsView

        self.show(SettingsView(self))

    def show_load(self) -> None:
        from game.views.load_view import LoadView

        self.show(LoadView(self))

    def show_puzzles(self) -> None:
        from game.views.puzzles import PuzzlesView

        self.show(PuzzlesView(self))

    def show_match(self, match: Match, **options: Any) -> None:
        """The game screen for the match's game (the scene named for it in the Play menu's YAML)."""
        from game import catalogue

        scene = next((entry.scene for entry in catalogue.games() if entry.name == match.game.name), "sowing")
        if scene == "cave":
            from game.views.cave_view import CaveView

            self.show(CaveView(self, match, **options))
            return
        from game.views.sowing_view import SowingView

        self.show(SowingView(self, match, **options))

    def quit(self) -> None:
        current = self.window.current_view
        if current is not None and hasattr(current, "cancel_search"):
            current.cancel_search()
        arcade.exit()
