"""The TD agent of docs/environments.md still runs (a few games, not its figures)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np

from backgammon.environments import BackgammonEnv

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "td_agent.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("td_agent", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_td_agent_learns_and_plays() -> None:
    example = load_example()
    env = BackgammonEnv("hypergammon")
    network = example.ValueNetwork(242, 8, np.random.default_rng(0))
    before = network.w1.copy()
    for seed in range(5):
        assert example.play(env, network, seed, 0.1) != 0
    assert not np.array_equal(before, network.w1)
    won, points = example.evaluate(env, network, 4)
    assert 0.0 <= won <= 1.0 and isinstance(points, float)
