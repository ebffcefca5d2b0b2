"""``python -m backgammon.engine.hypergammon build --checkers N``: builds a database
(:func:`~backgammon.engine.hypergammon.build.main`)."""

import sys

from backgammon.engine.hypergammon.build import main

if __name__ == "__main__":
    sys.exit(main())
