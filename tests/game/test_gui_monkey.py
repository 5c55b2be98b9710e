"""A monkey test: thousands of random clicks, keys, drags, scrolls, resizes and F11s on every screen, with no
exception and the journeys' invariants holding after every burst (``journeys.violations``: everything inside the
window, nothing overlapping or cut off, readable sizes, the game screens' bars, panel and board where they
belong), and resizes in the middle of a sowing animation or a puzzle round.

Events are dispatched in bursts with one frame (update, then the draw the invariants are checked on) after each
burst, so any handler, update or draw that raises fails the test.  Quit is replaced by a flag (the session window
must stay open); F11 changes the setting and writes it, but the test fixture does not switch the virtual display to
full screen (that only slows the run down).
"""
from __future__ import annotations

import random

import arcade

from game.views.sowing_view import SowingView
from journeys import violations

KEYS = [arcade.key.ESCAPE, arcade.key.ENTER, arcade.key.SPACE, arcade.key.TAB, arcade.key.LEFT, arcade.key.RIGHT,
        arcade.key.UP, arcade.key.DOWN, arcade.key.H, arcade.key.U, arcade.key.R, arcade.key.N, arcade.key.P,
        arcade.key.S, arcade.key.Z, arcade.key.Y, arcade.key.PLUS, arcade.key.MINUS, arcade.key.A, arcade.key.Q,
        *range(arcade.key.KEY_0, arcade.key.KEY_9 + 1)]
SCREENS = ["title", "play", "seats-kalah", "seats-hus", "settings", "load", "kalah", "oware", "hus", "watch",
           "magnetic-cave", "statistics", "rules"]


def test_random_clicks_and_keys_never_raise(gui):  # type: ignore[no-untyped-def]
    quits = []
    gui.context.quit = lambda: quits.append(True)
    gui.context.settings.set("think_time", 0.25)
    rng = random.Random(8)
    window = gui.window
    events = 0
    visited = set()
    for screen in SCREENS:
        _open(gui, screen)
        for _burst in range(10):
            for _ in range(20):
                visited.add(type(window.current_view).__name__)
                x, y = rng.randrange(window.width), rng.randrange(window.height)
                kind = rng.random()
                if kind < 0.6:
                    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
                    window.dispatch_event("on_mouse_press", x, y, arcade.MOUSE_BUTTON_LEFT, 0)
                    window.dispatch_event("on_mouse_release", x, y, arcade.MOUSE_BUTTON_LEFT, 0)
                elif kind < 0.7:
                    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
                else:
                    symbol = rng.choice(KEYS)
                    modifiers = arcade.key.MOD_CTRL if rng.random() < 0.2 else 0
                    window.dispatch_event("on_key_press", symbol, modifiers)
                    window.dispatch_event("on_key_release", symbol, modifiers)
                events += 1
            gui.update(dt=rng.choice((1 / 60, 0.05, 0.2)))  # the burst's frame: its draw is the check's
            _assert_invariants(window, screen)
    assert events >= 2000
    assert {"TitleView", "SowingView", "SettingsView"} <= visited


def _assert_invariants(window, screen: str) -> None:  # type: ignore[no-untyped-def]
    wrong = violations(window)
    assert not wrong, (f"opened {screen}, now {type(window.current_view).__name__} at {window.width}x{window.height}:"
                       "\n" + "\n".join(wrong))


def _open(gui, screen: str) -> None:  # type: ignore[no-untyped-def]
    import rules
    from game.session import Session
    from game.savegame import Seat

    context = gui.context
    if screen == "title":
        context.show_title()
    elif screen == "play":
        context.show_play()
    elif screen.startswith("seats-"):
        context.show_seats(screen.split("-", 1)[1])
    elif screen == "settings":
        context.show_settings()
    elif screen == "load":
        context.show_load()
    elif screen == "statistics":
        context.show_statistics()
    elif screen == "rules":
        context.show_rules("hus")
    elif screen == "watch":
        context.show_match(Session.new(rules.get_game("kalah"), (Seat("random", 0.1), Seat("random", 0.1))))
    else:
        context.show_match(Session.new(rules.get_game(screen), (Seat(), Seat("random", 0.1))))
    gui.frame()
    if isinstance(gui.window.current_view, SowingView):
        gui.window.current_view.controller.speed_index = 3


# -- every screen, every kind of window event (issue 22) -----------------------------------------------------------
MORE_SCREENS = ["puzzles", "solitaire-dose", "solitaire-lewis", "solitaire-level", "load-with-saves", "kalah-human",
                "hus", "settings", "title-with-autosave"]
SIZES = [(800, 500), (1280, 720), (1000, 800), (1600, 900), (820, 1000)]


def _window_event(window, rng: random.Random) -> str:  # type: ignore[no-untyped-def]
    """One random event, with the kinds the first test leaves out: F11, drag, scroll, right click, text (resizes,
    which cost a third of a second each on a software renderer, come once a burst from the test itself)."""
    x, y = rng.randrange(window.width), rng.randrange(window.height)
    kind = rng.random()
    if kind < 0.17:
        window.dispatch_event("on_key_press", arcade.key.F11, 0)
        window.dispatch_event("on_key_release", arcade.key.F11, 0)
        return "f11"
    if kind < 0.4:
        window.dispatch_event("on_mouse_press", x, y, arcade.MOUSE_BUTTON_LEFT, 0)
        for _ in range(rng.randrange(1, 5)):
            dx, dy = rng.randint(-60, 60), rng.randint(-60, 60)
            x, y = min(max(x + dx, 0), window.width - 1), min(max(y + dy, 0), window.height - 1)
            window.dispatch_event("on_mouse_drag", x, y, dx, dy, arcade.MOUSE_BUTTON_LEFT, 0)
        window.dispatch_event("on_mouse_release", x, y, arcade.MOUSE_BUTTON_LEFT, 0)
        return "drag"
    if kind < 0.55:
        window.dispatch_event("on_mouse_scroll", x, y, 0, rng.choice((-3, -1, 1, 3)))
        return "scroll"
    if kind < 0.62:
        window.dispatch_event("on_mouse_press", x, y, arcade.MOUSE_BUTTON_RIGHT, 0)
        window.dispatch_event("on_mouse_release", x, y, arcade.MOUSE_BUTTON_RIGHT, 0)
        return "right"
    if kind < 0.67:
        window.dispatch_event("on_text", rng.choice(["3", "٣", "a", " ", "\r"]))
        return "text"
    if kind < 0.85:
        window.dispatch_event("on_mouse_motion", x, y, 0, 0)
        window.dispatch_event("on_mouse_press", x, y, arcade.MOUSE_BUTTON_LEFT, 0)
        window.dispatch_event("on_mouse_release", x, y, arcade.MOUSE_BUTTON_LEFT, 0)
        return "click"
    symbol = rng.choice(KEYS + [arcade.key.F1, arcade.key.BACKSPACE, arcade.key.HOME, arcade.key.END])
    window.dispatch_event("on_key_press", symbol, arcade.key.MOD_CTRL if rng.random() < 0.2 else 0)
    window.dispatch_event("on_key_release", symbol, 0)
    return "key"


def test_every_screen_survives_resizes_f11_drags_scrolls_and_keys(gui):  # type: ignore[no-untyped-def]
    quits = []
    gui.context.quit = lambda: quits.append(True)
    gui.context.settings.set("think_time", 0.25)
    rng = random.Random(22)
    window = gui.window
    kinds: dict[str, int] = {}
    visited = set()
    for screen in MORE_SCREENS:
        _open_more(gui, screen)
        for burst in range(3):
            if burst == 1:
                width, height = rng.choice(SIZES)
                window.set_size(width, height)
                window.dispatch_event("on_resize", width, height)
                kinds["resize"] = kinds.get("resize", 0) + 1
            for _ in range(16):
                visited.add(type(window.current_view).__name__)
                kind = _window_event(window, rng)
                kinds[kind] = kinds.get(kind, 0) + 1
            gui.update(dt=rng.choice((1 / 60, 0.05, 0.2)))  # the burst's frame: its draw is the check's
            _assert_invariants(window, screen)
    assert sum(kinds.values()) >= 430 and kinds["resize"] == len(MORE_SCREENS) and kinds["f11"] >= 10
    assert kinds["drag"] >= 60 and kinds["scroll"] >= 30
    assert {"PuzzlesView", "SolitaireView", "SowingView", "LoadView"} <= visited, visited


def _open_more(gui, screen: str) -> None:  # type: ignore[no-untyped-def]
    import rules
    from game import savegame
    from game.autosave import NAME
    from game.session import Session
    from game.savegame import Seat
    from game.puzzle_session import Puzzle
    from game.views.solitaire_view import SolitaireView
    from levels.solitaire import load_levels

    context = gui.context
    if screen == "puzzles":
        context.show_puzzles()
    elif screen.startswith("solitaire-"):
        variant = screen.split("-", 1)[1]
        puzzle = (Puzzle.from_level(load_levels()[0][0]) if variant == "level" else Puzzle.from_seed(variant, 7))
        context.show(SolitaireView(context, puzzle))
    elif screen == "load-with-saves":
        folder = context.save_dir
        folder.mkdir(parents=True, exist_ok=True)
        game = rules.get_game("oware")
        savegame.save(folder / "oware-one.save", savegame.new_game(game, (Seat(), Seat("random", 0.1))))
        (folder / "broken.save").write_text("StoneCave save 1\nmoves: ²\n")
        context.show_load()
    elif screen == "kalah-human":
        context.show_match(Session.new(rules.get_game("kalah"), (Seat(), Seat())))
    elif screen == "title-with-autosave":
        folder = context.save_dir
        folder.mkdir(parents=True, exist_ok=True)
        game = rules.get_game("kalah")
        saved = savegame.new_game(game, (Seat(), Seat()))
        saved = savegame.SavedGame(game, saved.seats, saved.start, (game.legal_moves(saved.start)[0],), None)
        savegame.save(folder / NAME, saved)
        context.show_title()
    elif screen == "settings":
        context.show_settings()
    else:
        context.show_match(Session.new(rules.get_game(screen), (Seat(), Seat("random", 0.1))))
    gui.frame()


def test_resizing_during_a_sowing_animation_keeps_the_game(gui):  # type: ignore[no-untyped-def]
    import rules
    from game.session import Session
    from game.savegame import Seat

    gui.context.show_match(Session.new(rules.get_game("kalah"), (Seat(), Seat())))
    gui.frame()
    view = gui.window.current_view
    gui.key(arcade.key.KEY_3)
    for width, height in ((900, 560), (1400, 800), (1280, 720)):
        assert view.scene.is_animating  # stones are in the sower's hand or in the air
        gui.window.set_size(width, height)
        gui.window.dispatch_event("on_resize", width, height)  # raised KeyError: -1 before
        gui.frame(3)
    gui.frames_until(lambda: not view.scene.is_animating)
    assert gui.window.current_view is view and len(view.match.moves) == 1
    assert view.scene.counts == view.spec.counts(view.match.state)


def test_resizing_during_a_puzzle_round_keeps_the_puzzle(gui):  # type: ignore[no-untyped-def]
    from game.scenes.solitaire_board import counts
    from game.puzzle_session import Puzzle
    from game.views.solitaire_view import SolitaireView

    view = SolitaireView(gui.context, Puzzle.from_seed("dose", 5))
    gui.context.show(view)
    gui.frame()
    view.play(view.session.game.legal_moves(view.session.state)[0])
    for width, height in ((900, 560), (1400, 800), (1280, 720)):
        gui.frame(2)
        gui.window.set_size(width, height)
        gui.window.dispatch_event("on_resize", width, height)
    gui.frames_until(lambda: not view.scene.is_animating)
    assert gui.window.current_view is view and view.session.rounds == 1
    assert view.scene.counts == counts(view.session.state)


def test_f11_toggles_full_screen_on_the_game_screens_too(gui):  # type: ignore[no-untyped-def]
    import rules
    from game.session import Session
    from game.savegame import Seat
    from game.puzzle_session import Puzzle
    from game.views.solitaire_view import SolitaireView

    settings = gui.context.settings
    for open_screen in (lambda: gui.context.show_match(Session.new(rules.get_game("oware"), (Seat(), Seat()))),
                        lambda: gui.context.show(SolitaireView(gui.context, Puzzle.from_seed("dose", 2)))):
        open_screen()
        gui.frame()
        before = settings.get("fullscreen")
        gui.key(arcade.key.F11)
        assert settings.get("fullscreen") is (not before)
        gui.key(arcade.key.F11)
        assert settings.get("fullscreen") is before
