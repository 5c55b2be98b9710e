"""Level files (solitaire deals and other puzzles), shipped as package data."""
