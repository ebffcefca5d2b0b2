"""The engine. For now only simple baseline players; neural evaluation, bearoff
databases, search, rollouts and cube decisions arrive with issue 5."""

from backgammon.engine.baseline import HeuristicCube, HeuristicPlayer, Player, RandomPlayer

__all__ = ["HeuristicCube", "HeuristicPlayer", "Player", "RandomPlayer"]
