"""StoneCave's game-playing AI: engines, evaluators, the background worker and tournaments.

Depends on ``rules`` only through the game protocol, never on the GUI.
"""
