"""Containment positions: where our network is known to misjudge, measured against
our own rollouts.

    python benchmarks/containment.py build --games 4000 --per-class 100 --trials 144
    python benchmarks/containment.py report [--weights FILE] [--ply 2]

Two kinds of position the cube issue names, found in the engine's own games (0-ply,
seeded dice), both sides considered:

* **trapped**: a side has a checker on the bar against a home board with at least 5
  points made, or its rearmost checker stands behind a prime of at least 5 points in a
  row;
* **anchor bear-off**: a side bears off (every checker home, at least 4 off) while the
  other holds a point (2+ checkers) in that home board.

``build`` collects ``--per-class`` positions of each kind (and as many ordinary contact
positions, for comparison) and labels them with the engine's own rollouts
(:func:`backgammon.engine.rollout.rollout`: the 0-ply player to the end, quasi-random
dice, variance reduction), then writes ``benchmarks/data/containment.npz`` (boards,
labels, their standard errors, kinds, trials). ``report`` prints the network's error on
each kind at 0 ply (and ``--ply``): the mean absolute difference from the rollout in
equity and in the chance to win, and how often the equity is off by more than 0.1.
These positions can feed training (they are our own rollouts, never GNU Backgammon's
figures).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from backgammon import Position
from backgammon.engine import Engine
from backgammon.engine.rollout import RolloutSettings, rollout
from backgammon.engine.search import equities
from backgammon.rules.dice import SeededDice

DATA = Path(__file__).resolve().parent / "data" / "containment.npz"
KINDS = ("trapped", "anchor bear-off", "ordinary contact")


def _trapped(mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """Whether the side with ``mine`` (own numbering, 25 = bar) is contained by the side
    with ``theirs``: on the bar against 5+ home points, or behind a 5-point prime."""
    held = [theirs[25 - point] >= 2 for point in range(1, 25)]  # in my numbering
    if mine[25] and sum(held[18:24]) >= 5:  # their home board is my points 19-24
        return True
    rearmost = max((point for point in range(1, 26) if mine[point]), default=0)
    run = 0
    for point in range(min(rearmost, 25) - 1, 0, -1):  # in front of my rearmost checker
        run = run + 1 if held[point - 1] else 0
        if run >= 5:
            return True
    return False


def _anchor_bearoff(mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """Whether the side with ``mine`` bears off against an anchor of ``theirs``."""
    home = all(mine[point] == 0 for point in range(7, 26))
    anchored = any(theirs[25 - point] >= 2 for point in range(1, 7))
    return home and mine[0] >= 4 and anchored


def kind_of(position: Position) -> str | None:
    """The containment kind of ``position`` (either side), ``"ordinary contact"`` for
    other contact positions, ``None`` for races and finished games."""
    mine, theirs = position.player, position.opponent
    if _trapped(mine, theirs) or _trapped(theirs, mine):
        return "trapped"
    if _anchor_bearoff(mine, theirs) or _anchor_bearoff(theirs, mine):
        return "anchor bear-off"
    if not position.is_race() and not position.is_game_over():
        return "ordinary contact"
    return None


def collect(engine: Engine, games: int, per_class: int, seed: int) -> dict[str, list[Position]]:
    """Positions of each kind from the engine's own games (each position once)."""
    found: dict[str, list[Position]] = {kind: [] for kind in KINDS}
    seen: set[str] = set()
    rng = np.random.default_rng(seed)
    for game in range(games):
        dice = SeededDice(seed * 100_003 + game)
        position = Position.initial()
        taken = dict.fromkeys(KINDS, 0)  # at most two of a kind per game, to spread them
        for _ in range(400):
            if position.is_game_over():
                break
            kind = kind_of(position)
            key = position.position_id
            wanted = (
                kind is not None
                and key not in seen
                and len(found[kind]) < per_class
                and taken[kind] < 2
                # Ordinary positions are common: keep one in 20.
                and (kind != "ordinary contact" or rng.random() < 0.05)
            )
            if wanted:
                assert kind is not None
                found[kind].append(position)
                taken[kind] += 1
                seen.add(key)
            roll = dice.roll()
            position = engine.best_play(position, roll).position.flip()
        if all(len(found[kind]) >= per_class for kind in KINDS):
            break
    return found


def build(args: argparse.Namespace) -> None:
    engine = Engine()
    began = time.perf_counter()
    found = collect(engine, args.games, args.per_class, args.seed)
    print(
        "collected "
        + ", ".join(f"{len(found[k])} {k}" for k in KINDS)
        + f" in {time.perf_counter() - began:.0f} s"
    )
    positions = [p for kind in KINDS for p in found[kind]]
    kinds = np.array([KINDS.index(kind) for kind in KINDS for _ in found[kind]], dtype=np.int8)
    boards = np.stack([p.to_array() for p in positions])
    began = time.perf_counter()
    labels = np.empty((len(boards), 5))
    errors = np.empty(len(boards))
    settings = RolloutSettings(trials=args.trials, seed=args.seed)
    for index, position in enumerate(positions):
        result = rollout(engine.evaluate_boards, position, settings)
        labels[index] = result.probabilities
        errors[index] = result.standard_error
        print(f"\rlabelled {index + 1}/{len(boards)}", end="", file=sys.stderr, flush=True)
    print(f"\nlabelled with {args.trials} trials each in {time.perf_counter() - began:.0f} s")
    DATA.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        DATA, boards=boards, labels=labels, errors=errors, kinds=kinds, trials=args.trials
    )
    print(f"wrote {DATA}")


def _errors(predicted: npt.NDArray[np.float64], labels: npt.NDArray[np.float64]) -> str:
    equity = np.abs(equities(predicted) - equities(labels))
    win = np.abs(predicted[:, 0] - labels[:, 0])
    return (
        f"equity {equity.mean():.4f} (off by > 0.1 in {100 * (equity > 0.1).mean():.0f}%), "
        f"win {100 * win.mean():.2f} points"
    )


def report(args: argparse.Namespace) -> None:
    data = np.load(DATA)
    boards, labels, kinds = data["boards"], data["labels"], data["kinds"]
    engine = Engine(args.weights)
    shallow = engine.evaluate_boards(boards)
    deep = None
    if args.ply > 0:
        deep = np.array(
            [engine.evaluate_at(Position.from_array(b), args.ply).probabilities for b in boards]
        )
    noise = float(np.sqrt(np.mean(data["errors"] ** 2)))
    print(
        f"{len(boards)} positions, rollouts of {int(data['trials'])} trials each (their "
        f"standard error: {noise:.4f} in equity, root mean square); mean absolute "
        "difference from the rollout:"
    )
    for index, kind in enumerate(KINDS):
        rows = kinds == index
        if not rows.any():
            continue
        line = f"  {kind} ({int(rows.sum())}): 0-ply {_errors(shallow[rows], labels[rows])}"
        if deep is not None:
            line += f"; {args.ply}-ply {_errors(deep[rows], labels[rows])}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="collect and label the positions")
    make.add_argument("--games", type=int, default=3000)
    make.add_argument("--per-class", type=int, default=120)
    make.add_argument("--trials", type=int, default=144)
    make.add_argument("--seed", type=int, default=1)
    show = commands.add_parser("report", help="the network's error on them")
    show.add_argument("--weights", default=None)
    show.add_argument("--ply", type=int, default=0)
    args = parser.parse_args()
    build(args) if args.command == "build" else report(args)


if __name__ == "__main__":
    main()
