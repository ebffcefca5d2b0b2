"""The Gymnasium environment: Gymnasium's own checker, seeding, the action mask,
illegal indices, the cube and matches, the opponents."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from backgammon import Double, Drop, Take, variants
from backgammon.environments import ENV_ID, BackgammonEnv, EngineOpponent, RollDice
from backgammon.errors import IllegalActionError
from backgammon.rules.play import Play

CHECKED = [
    ("standard", False, 0),
    ("standard", True, 0),
    ("standard", True, 3),
    ("nackgammon", True, 0),
    ("hypergammon", True, 5),
    ("acey-deucey", False, 0),
    ("atomic", True, 0),
    ("plakoto", False, 0),
    ("long-nardy", False, 3),
    ("russian", False, 0),
]


@pytest.mark.parametrize(("variant", "cube", "match_length"), CHECKED)
def test_gymnasium_env_checker(variant: str, cube: bool, match_length: int) -> None:
    env = gymnasium.make(
        ENV_ID, variant=variant, cube=cube, match_length=match_length, render_mode="ansi"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning from the checker either
        check_env(env.unwrapped)


def test_made_through_the_registry_with_gymnasiums_wrappers() -> None:
    env = gymnasium.make(ENV_ID, variant="hypergammon", render_mode="ansi")
    observation, info = env.reset(seed=0)
    assert observation.shape == env.observation_space.shape
    assert "X" in env.render()
    observation, *_ = env.step(env.action_space.sample(info["action_mask"]))
    assert env.observation_space.contains(observation)


def masked_random_episode(env: BackgammonEnv, seed: int) -> list[Any]:
    """Play one episode with seeded masked random actions; record everything."""
    env.action_space.seed(seed)
    observation, info = env.reset(seed=seed)
    record: list[Any] = [observation, info["legal_actions"]]
    terminated = False
    while not terminated:
        action = env.action_space.sample(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        record += [action, observation, reward, info["legal_actions"]]
    return record


def same(first: list[Any], second: list[Any]) -> bool:
    return len(first) == len(second) and all(
        np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
        for a, b in zip(first, second, strict=True)
    )


def test_seeded_episodes_replay() -> None:
    env = BackgammonEnv("standard", cube=True)
    first = masked_random_episode(env, 11)
    assert same(first, masked_random_episode(env, 11))
    assert same(first, masked_random_episode(BackgammonEnv("standard", cube=True), 11))
    assert not same(first, masked_random_episode(env, 12))


@pytest.mark.parametrize(
    "variant", [variant.name for variant in variants.all_variants() if variant.dice == 2]
)
def test_every_variant_plays_within_its_spaces(variant: str) -> None:
    env = BackgammonEnv(variant, cube=True)
    for seed in range(3):
        env.action_space.seed(seed)
        observation, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            assert env.observation_space.contains(observation)
            mask = info["action_mask"]
            assert mask.shape == (env.action_space.n,)
            legal = info["legal_actions"]
            assert int(mask.sum()) == len(legal) and mask[: len(legal)].all()
            if info["phase"] == "play":
                assert all(isinstance(action, Play) for action in legal)
                assert info["afterstates"].shape == (len(legal), 242)
            observation, reward, terminated, _, info = env.step(env.action_space.sample(mask))
        assert info["phase"] == "over" and not info["action_mask"].any()
        assert "forfeited" not in info
        outcome = info["outcome"]
        assert reward == (outcome.points if outcome.winner == 0 else -outcome.points)


def test_illegal_index_raises_and_changes_nothing() -> None:
    env = BackgammonEnv("standard", illegal_action="raise")
    observation, info = env.reset(seed=5)
    legal = len(info["legal_actions"])
    with pytest.raises(IllegalActionError, match=rf"action {legal} is not legal here"):
        env.step(legal)
    with pytest.raises(IllegalActionError, match="is not legal here"):
        env.step(-1)
    assert env.table.legal_actions == info["legal_actions"]
    again, _, _, _, _ = env.step(0)  # the game goes on
    assert again.shape == observation.shape


def test_illegal_index_loses_by_default() -> None:
    env = BackgammonEnv("standard", cube=True)
    env.reset(seed=5)
    _, reward, terminated, _, info = env.step(env.action_space.n - 1)
    assert terminated and reward == -3.0 and info["forfeited"] == 0
    with pytest.raises(IllegalActionError, match="episode is over"):
        env.step(0)
    env.reset(seed=5)  # a new episode plays on
    match = BackgammonEnv("standard", match_length=3)
    match.reset(seed=5)
    assert match.step(4095)[1] == -1.0


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="illegal_action"):
        BackgammonEnv(illegal_action="ignore")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="render_mode"):
        BackgammonEnv(render_mode="human")
    with pytest.raises(KeyError, match="unknown"):
        BackgammonEnv("chess")
    with pytest.raises(ValueError, match="match length"):
        BackgammonEnv(match_length=-1)


def test_a_whole_game_with_the_cube() -> None:
    """The agent doubles whenever it may and always takes; the random opponent answers."""
    env = BackgammonEnv("standard", cube=True)
    seen: set[str] = set()
    for seed in range(20):
        observation, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            legal = info["legal_actions"]
            seen.add(info["phase"])
            if info["phase"] == "pre-roll":
                assert legal[0] == RollDice() and Double() in legal
                action = legal.index(Double())
            elif info["phase"] == "double":
                assert legal == (Take(), Drop())
                action = 0
            else:
                action = 0
            observation, reward, terminated, _, info = env.step(action)
        outcome = info["outcome"]
        assert outcome.points == abs(reward)
        if outcome.cube > 1:
            break
    assert {"pre-roll", "double", "play"} <= seen
    assert outcome.cube > 1
    assert observation[242 + 17] == pytest.approx(np.log2(outcome.cube) / 6)


def test_a_match_is_one_episode() -> None:
    env = BackgammonEnv("hypergammon", cube=True, match_length=3)
    env.action_space.seed(1)
    _, info = env.reset(seed=1)
    terminated = False
    while not terminated:
        _, reward, terminated, _, info = env.step(env.action_space.sample(info["action_mask"]))
    score = info["score"]
    assert max(score) >= 3
    assert reward == (1.0 if score[0] >= 3 else -1.0)
    assert len(env.table.match.games) >= 1


def test_engine_opponent_beats_random_play() -> None:
    env = BackgammonEnv("standard", opponent=EngineOpponent(), cube=True)
    total = 0.0
    for seed in range(6):
        env.action_space.seed(seed)
        _, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            _, reward, terminated, _, info = env.step(env.action_space.sample(info["action_mask"]))
        total += float(reward)
    assert total < 0
