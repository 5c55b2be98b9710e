"""One arcade View per screen: title, play menu, seat setup, settings, load, puzzles and the sowing game."""
