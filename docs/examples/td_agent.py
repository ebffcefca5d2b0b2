"""A small TD(0) agent trained in the Gymnasium environment, measured against random play.

The agent values *afterstates*: for each legal play the environment gives the engine's
encoding of the position it leads to (``info["afterstates"]``); a one-hidden-layer
network in NumPy estimates the chance of winning from each, the agent plays the best,
and learns by temporal differences (the value of its previous choice moves toward the
value of its next one, and at the end toward the result), as TD-Gammon did.

    nice -n 10 .venv/bin/python docs/examples/td_agent.py --games 3000

See docs/environments.md for the figures it gives.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import numpy.typing as npt

from backgammon.environments import BackgammonEnv

Array = npt.NDArray[np.float64]


def sigmoid(x: Array) -> Array:
    return 1.0 / (1.0 + np.exp(-x))


class ValueNetwork:
    """``inputs -> hidden (sigmoid) -> 1 (sigmoid)``: the mover's chance of winning."""

    def __init__(self, inputs: int, hidden: int, rng: np.random.Generator) -> None:
        self.w1 = rng.normal(0.0, 0.1, (inputs, hidden))
        self.b1 = np.zeros(hidden)
        self.w2 = rng.normal(0.0, 0.1, hidden)
        self.b2 = 0.0

    def values(self, x: Array) -> Array:
        """The value of each row of ``x``."""
        return sigmoid(sigmoid(x @ self.w1 + self.b1) @ self.w2 + self.b2)

    def learn(self, x: Array, target: float, rate: float) -> None:
        """One gradient step of the cross-entropy between ``values(x)`` and ``target``."""
        hidden = sigmoid(x @ self.w1 + self.b1)
        error = target - float(1.0 / (1.0 + np.exp(-(hidden @ self.w2 + self.b2))))
        back = error * self.w2 * hidden * (1.0 - hidden)
        self.w2 += rate * error * hidden
        self.b2 += rate * error
        self.w1 += rate * np.outer(x, back)
        self.b1 += rate * back


def play(env: BackgammonEnv, network: ValueNetwork | None, seed: int, rate: float = 0.0) -> float:
    """One game from ``seed``; the agent plays greedily by ``network`` (random legal
    plays without one) and, with a positive ``rate``, learns. Returns the reward."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    previous: Array | None = None
    while True:
        if network is None:
            index = int(rng.integers(len(info["legal_actions"])))
        else:
            afterstates = info["afterstates"].astype(np.float64)
            values = network.values(afterstates)
            index = int(np.argmax(values))
            if rate and previous is not None:
                network.learn(previous, float(values[index]), rate)
            previous = afterstates[index]
        _, reward, terminated, _, info = env.step(index)
        if terminated:
            if rate and previous is not None and network is not None:
                network.learn(previous, 1.0 if float(reward) > 0 else 0.0, rate)
            return float(reward)


def evaluate(env: BackgammonEnv, network: ValueNetwork | None, games: int) -> tuple[float, float]:
    """Share of games won and points per game against the opponent (seeds 10**6 up)."""
    rewards = [play(env, network, 10**6 + game) for game in range(games)]
    return sum(r > 0 for r in rewards) / games, sum(rewards) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--games", type=int, default=3000, help="training games")
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--hidden", type=int, default=40)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    env = BackgammonEnv(args.variant)  # the opponent picks uniformly random plays
    start = time.perf_counter()
    won, points = evaluate(env, None, args.eval_games)
    print(f"random agent vs random: won {won:.1%}, {points:+.3f} points/game")
    network = ValueNetwork(242, args.hidden, np.random.default_rng(args.seed))
    training = time.perf_counter()
    for game in range(args.games):
        play(env, network, args.seed * 10**5 + game, args.rate)
    print(f"trained {args.games} games in {time.perf_counter() - training:.0f} s")
    won, points = evaluate(env, network, args.eval_games)
    print(f"TD agent vs random: won {won:.1%}, {points:+.3f} points/game")
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
