"""The terminal consoles (``stonecave text ...``): ``manager`` (the start menu and command line of every
two-player game), ``play`` (the turns of one game and the line dialogue), ``seats`` (who sits in each seat and
how long a computer thinks) and ``solitaire`` (the Solitaire Mancala console).  The game in progress is
``game.session.Session``, the same model the screens use."""
