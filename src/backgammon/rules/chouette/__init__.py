"""The chouette: three or more players at one board, the box against a captain and a
team, each member with their own cube, positions rotating after each game.

Pure rules, no I/O: :class:`Chouette` holds a session with ``push``/``pop``; the session
record (text that reads back) is :mod:`backgammon.formats.chouette`. The rules followed
and their sources are in ``docs/chouette.md``.
"""

from backgammon.rules.chouette.actions import (
    TEAM,
    BoardAction,
    ChouetteAction,
    CubeDouble,
    CubeDrop,
    CubeTake,
    Offer,
)
from backgammon.rules.chouette.lineup import rotate, validate_lineup
from backgammon.rules.chouette.results import CubeResult, GameResult
from backgammon.rules.chouette.settings import ChouetteRules
from backgammon.rules.chouette.table import Chouette

__all__ = [
    "TEAM",
    "BoardAction",
    "Chouette",
    "ChouetteAction",
    "ChouetteRules",
    "CubeDouble",
    "CubeDrop",
    "CubeResult",
    "CubeTake",
    "GameResult",
    "Offer",
    "rotate",
    "validate_lineup",
]
