"""backgammon: the complete open backgammon system.

``import backgammon as bg`` gives the everyday names:

>>> import backgammon as bg
>>> position = bg.Position.initial()
>>> plays = position.legal_plays((3, 1))
>>> len(plays), str(bg.Play.parse("8/5 6/5", position, (3, 1)))
(16, '8/5 6/5')

Heavier features live in subpackages: :mod:`backgammon.rules`,
:mod:`backgammon.notation`, and (as they arrive) formats, engine, analysis and apps.
"""

# kernel_cache first: where numba has nowhere to cache the kernels, it points numba
# at a temporary folder before any kernel is compiled.
from backgammon import kernel_cache, variants  # noqa: F401
from backgammon.errors import (
    AmbiguousPlayError,
    BackgammonError,
    EngineError,
    IllegalActionError,
    IllegalPlayError,
    InvalidIdError,
    InvalidNotationError,
    InvalidPositionError,
    MatchFileError,
    XgFileError,
)
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    CubeRules,
    CubeState,
    Double,
    Drop,
    MatchContext,
    Raccoon,
    RejectResignation,
    Resign,
    ResignLevel,
    Take,
)
from backgammon.rules.dice import (
    ALL_ROLLS,
    ALL_THROWS_OF_THREE,
    DiceSource,
    Roll,
    ScriptedDice,
    SecureDice,
    SeededDice,
)
from backgammon.rules.game import (
    ChooseDouble,
    Ending,
    Explode,
    Game,
    OpeningRoll,
    Outcome,
    WinKind,
)
from backgammon.rules.match import Match
from backgammon.rules.match_state import MatchState
from backgammon.rules.play import Play, PlayList, Step
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant

__version__ = "0.1.0"

__all__ = [
    "ALL_ROLLS",
    "ALL_THROWS_OF_THREE",
    "AcceptResignation",
    "AmbiguousPlayError",
    "BackgammonError",
    "Beaver",
    "ChooseDouble",
    "CubeRules",
    "CubeState",
    "DiceSource",
    "Double",
    "Drop",
    "Ending",
    "EngineError",
    "Explode",
    "Game",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidIdError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Match",
    "MatchContext",
    "MatchFileError",
    "MatchState",
    "OpeningRoll",
    "Outcome",
    "Play",
    "PlayList",
    "Position",
    "Raccoon",
    "RejectResignation",
    "Resign",
    "ResignLevel",
    "Roll",
    "ScriptedDice",
    "SecureDice",
    "SeededDice",
    "Step",
    "Take",
    "Variant",
    "WinKind",
    "XgFileError",
    "__version__",
    "variants",
]
