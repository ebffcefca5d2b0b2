"""``python -m backgammon.engine.bearoff build [--dir DIR]``: build both databases."""

import sys

from backgammon.engine.bearoff.build import main

sys.exit(main())
