"""Research environments: Gymnasium (one agent against an opponent) and PettingZoo
(two agents), over every variant, with the cube and match play as options.

Importing this package registers ``backgammon/Backgammon-v0`` with Gymnasium, so
``gymnasium.make("backgammon/Backgammon-v0", variant="nackgammon")`` works too. See
``docs/environments.md``.
"""

from gymnasium.envs.registration import register, registry

from backgammon.environments.gym_env import BackgammonEnv
from backgammon.environments.observation import EXTRA_NAMES, Phase, observation_size
from backgammon.environments.opponents import EngineOpponent, Opponent, RandomOpponent
from backgammon.environments.pettingzoo_env import BackgammonAECEnv
from backgammon.environments.table import MAX_ACTIONS, RollDice, Table, TooManyActionsError

__all__ = [
    "ENV_ID",
    "EXTRA_NAMES",
    "MAX_ACTIONS",
    "BackgammonAECEnv",
    "BackgammonEnv",
    "EngineOpponent",
    "Opponent",
    "Phase",
    "RandomOpponent",
    "RollDice",
    "Table",
    "TooManyActionsError",
    "observation_size",
]

ENV_ID = "backgammon/Backgammon-v0"
"""The Gymnasium id of :class:`BackgammonEnv`."""

if ENV_ID not in registry:
    register(id=ENV_ID, entry_point="backgammon.environments.gym_env:BackgammonEnv")
