"""The engine: neural evaluation, bearoff databases, n-ply search, rollouts, cube
decisions, match equity, and simple baseline players."""

from backgammon.engine.baseline import HeuristicCube, HeuristicPlayer, Player, RandomPlayer
from backgammon.engine.evaluator import (
    BearoffEvaluator,
    Engine,
    Evaluation,
    ExactEvaluator,
    PlayEvaluation,
    PositionClass,
    PositionwiseBearoff,
    classify,
)
from backgammon.engine.network import Network, Networks, WeightsMetadata

__all__ = [
    "BearoffEvaluator",
    "Engine",
    "Evaluation",
    "ExactEvaluator",
    "HeuristicCube",
    "HeuristicPlayer",
    "Network",
    "Networks",
    "PlayEvaluation",
    "Player",
    "PositionClass",
    "PositionwiseBearoff",
    "RandomPlayer",
    "WeightsMetadata",
    "classify",
]
