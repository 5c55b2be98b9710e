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

from game.autosave import Autosave
from game.settings import Settings, SettingsStore
from game.sound import SoundBank
from game.statistics import StatisticsStore

if TYPE_CHECKING:
    from game.session import Session

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
    statistics: StatisticsStore | None = None
    """Finished two-player games (``statistics.yaml`` beside the settings), read when first needed."""
    autosave: Autosave | None = None
    """The game in progress, kept after every move (``autosave.save`` in the saves folder)."""

    def __post_init__(self) -> None:
        self.sounds.enabled = bool(self.settings.get("sound"))
        if self.save_dir is None:
            self.save_dir = self.store.directory / "saves"
        if self.statistics is None:
            self.statistics = StatisticsStore(self.store.directory)
        if self.autosave is None:
            self.autosave = Autosave(self.save_dir)

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
        # The window's own keys sit above every screen's handlers (a screen's are pushed by show_view).
        self.window.remove_handlers(on_key_press=self.window_keys)
        self.window.push_handlers(on_key_press=self.window_keys)

    def window_keys(self, symbol: int, modifiers: int) -> bool | None:
        """Keys that mean the same on every screen: F11 switches full screen on or off."""
        if symbol == arcade.key.F11:
            self.toggle_fullscreen()
            return True
        return None

    def toggle_fullscreen(self) -> None:
        """Full screen on or off, remembered in the settings."""
        self.settings.set("fullscreen", not self.settings.get("fullscreen"))
        self.save_settings()

    def show_title(self) -> None:
        from game.views.title import TitleView

        self.show(TitleView(self))

    def show_play(self) -> None:
        from game.views.play_menu import PlayMenuView

        self.show(PlayMenuView(self))

    def show_seats(self, game_name: str) -> None:
        from game.views.seats import SeatSetupView

        self.show(SeatSetupView(self, game_name))

    def show_learn(self) -> None:
        """Learn to play: the guided first games."""
        from game.views.tutorial_view import LearnMenuView

        self.show(LearnMenuView(self))

    def show_settings(self) -> None:
        from game.views.settings_view import SettingsView

        self.show(SettingsView(self))

    def show_load(self) -> None:
        from game.views.load_view import LoadView

        self.show(LoadView(self))

    def show_puzzles(self) -> None:
        from game.views.puzzles import PuzzlesView

        self.show(PuzzlesView(self))

    def show_statistics(self) -> None:
        from game.views.statistics_view import StatisticsView

        self.show(StatisticsView(self))

    def show_rules(self, game_name: str | None = None, back: arcade.View | None = None) -> None:
        """The rules screen of ``game_name`` (the first game when None); Back returns to ``back`` (a game
        screen) or the title screen."""
        from game.views.rules_view import RulesView

        self.show(RulesView(self, game_name, back))

    def show_match(self, match: Session, **options: Any) -> None:
        """The game screen for the match's game (the one its registration's scene names in ``catalogue.SCENES``)."""
        from game import catalogue

        screen = catalogue.SCENES[catalogue.registration(match.game).scene] or catalogue.SCENES["sowing"]
        self.show(catalogue.load(screen)(self, match, **options))

    def quit(self) -> None:
        current = self.window.current_view
        if current is not None and hasattr(current, "cancel_search"):
            current.cancel_search()
        arcade.exit()
