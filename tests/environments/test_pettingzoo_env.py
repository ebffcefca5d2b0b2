"""The PettingZoo AEC environment: PettingZoo's API test, seeding, zero-sum rewards,
the cube between two agents, illegal indices."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from backgammon import Double, Take
from backgammon.environments import BackgammonAECEnv
from backgammon.errors import IllegalActionError

CHECKED = [
    ("standard", False, 0),
    ("standard", True, 0),
    ("standard", True, 3),
    ("hypergammon", True, 5),
    ("acey-deucey", False, 0),
    ("atomic", True, 0),
    ("plakoto", False, 0),
    ("long-nardy", False, 0),
    ("russian", False, 0),
]

# PettingZoo warns about any observation that is not an array, though a dict with an
# action mask is what it recommends (its own classic games are exempted by name).
DICT_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent")


@pytest.mark.parametrize(("variant", "cube", "match_length"), CHECKED)
def test_pettingzoo_api_test(variant: str, cube: bool, match_length: int) -> None:
    env = BackgammonAECEnv(variant, cube=cube, match_length=match_length, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=400)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(DICT_WARNINGS)]
    assert unexpected == []


def play(
    env: BackgammonAECEnv, seed: int, choose: Any = None
) -> tuple[list[Any], dict[str, float]]:
    """One episode: masked random actions from a seeded generator (or ``choose``);
    returns the record and each agent's total reward."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    record: list[Any] = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) == len(info["legal_actions"])
        action = int(rng.choice(legal)) if choose is None else choose(info)
        record += [agent, action, observation["observation"].tobytes()]
        env.step(action)
    return record, totals


def test_seeded_episodes_replay_and_are_zero_sum() -> None:
    env = BackgammonAECEnv("nackgammon", cube=True)
    first, totals = play(env, 4)
    assert play(env, 4)[0] == first
    assert play(env, 5)[0] != first
    assert sum(totals.values()) == 0 and max(totals.values()) >= 1


def test_two_agents_play_a_game_with_the_cube() -> None:
    """Both agents double whenever they may and always take: the cube climbs."""

    def cube_happy(info: dict[str, Any]) -> int:
        legal = info["legal_actions"]
        if Double() in legal:
            return legal.index(Double())
        if Take() in legal:
            return legal.index(Take())
        return 0

    env = BackgammonAECEnv("standard", cube=True)
    record, totals = play(env, 9, cube_happy)
    assert env.agents == []  # both agents have left after their last step
    outcome = env.table.game.outcome
    assert outcome is not None and outcome.cube >= 4  # doubled and redoubled
    winner, loser = f"player_{outcome.winner}", f"player_{1 - outcome.winner}"
    assert totals[winner] == -totals[loser] == outcome.points
    assert set(record[0::3]) == {"player_0", "player_1"}


def test_only_the_agent_to_act_has_a_mask() -> None:
    env = BackgammonAECEnv("standard", cube=True)
    env.reset(seed=2)
    other = next(agent for agent in env.agents if agent != env.agent_selection)
    assert env.observe(env.agent_selection)["action_mask"].any()
    assert not env.observe(other)["action_mask"].any()
    assert env.infos[other] == {}


def test_illegal_index() -> None:
    strict = BackgammonAECEnv("standard", illegal_action="raise")
    strict.reset(seed=1)
    agent = strict.agent_selection
    with pytest.raises(IllegalActionError, match="is not legal here"):
        strict.step(4000)
    with pytest.raises(IllegalActionError, match="must act"):
        strict.step(None)
    assert strict.agent_selection == agent and not any(strict.terminations.values())
    lenient = BackgammonAECEnv("standard")
    lenient.reset(seed=1)
    offender = lenient.agent_selection
    lenient.step(4000)
    assert all(lenient.terminations.values())
    assert lenient.rewards[offender] == -3.0
    assert lenient.infos[offender]["forfeited"] == int(offender[-1])
