"""``python -m game`` does what the ``stonecave`` command does."""
import sys

from game.cli import main

sys.exit(main())
