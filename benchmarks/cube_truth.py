"""Rollout-truth cube benchmark: cube-decision error against our own cubeful rollouts (×1000).

The cube half of the rollout-truth benchmark (``rollout_truth.py`` has the checker
plays), as GNU Backgammon's benchmarks score cube decisions:

    python benchmarks/cube_truth.py build --self-play-games 100 --gnubg-games 100 \\
        --per-game 1 --trials 144 --truncate 9 --cpus 2 \\
        --out benchmarks/data/cube_truth.json.gz [--ray local|auto|ray://HOST:PORT]
    python benchmarks/cube_truth.py score [--plies 0 1 2] [--no-gnubg] [--by-plan] [--report F]
    python benchmarks/cube_truth.py to-the-end --trials 72 --cpus 2   # held out, untruncated

* **Positions.** Money, cube 1 centred, no Jacoby rule, no beavers; the side on roll
  before its roll. They come from the same two kinds of game as the checker plays
  (self-play of our 0-ply with one play in ten random, and our 0-ply against GNU
  Backgammon 0-ply as the opponent). A position is close, by our 0-ply cube
  equities, when doubling is within ``CLOSE`` of not doubling short of a cash
  (``double``), taking within ``CLOSE`` of passing (``take``), or playing on within
  ``CLOSE`` of cashing (``cash``); ``--per-game`` of each kind are kept a game, at
  random.
* **Truth.** :func:`backgammon.engine.rollout.cubeful_rollout`: "no double" and
  "double, take" played out on the same dice, both sides taking their cube actions by
  our 0-ply cubeful model, variance reduction, truncation to the 0-ply cubeful value.
  Each position is a task of the ``backgammon label`` runners (local processes or a
  Ray cluster); finished positions are appended to ``WORK/cube-labels.jsonl``, so a
  killed build resumes where it stopped.
  ``to-the-end`` rolls the held-out positions out again without truncation (marked
  ``"truncation": null``): the truncated truth leans on our own cubeful estimate, and
  put us 6-7 points ahead of GNU Backgammon where the untruncated one puts us 4-5
  behind (docs/training.md).
* **Score.** An evaluator gives the three cubeful equities (no double, double/take,
  double/pass); it doubles when ``min(double/take, double/pass)`` is at least "no
  double" and takes when "double/take" is at most "double/pass". Its loss, by the
  rollout's equities: the doubler's (the right choice between not doubling and
  doubling, the answer taken as right, less the evaluator's choice) plus the taker's
  (``|double/take - double/pass|`` when its answer is the wrong one, whether or not
  the double was right), per unit of the cube. The figure is the mean loss ×1000 with
  its standard error over positions, held out (by a hash of the position) and all,
  beside the share of right doubling and right taking decisions.

GNU Backgammon is a yardstick only: its ``cfevaluate`` (0-ply and 2-ply, Jacoby and
beavers off) is scored; nothing it evaluates goes into the data.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from backgammon import Position
from backgammon.engine import Engine
from backgammon.engine.bearoff import BearoffDatabase
from backgammon.engine.cubeful import CubeContext, cube_decision_at
from backgammon.engine.rollout import RolloutSettings, cubeful_rollout
from backgammon.engine.workers import open_runner
from rollout_truth import (
    GNUBG_SCRIPTS,
    HERE,
    gnubg_service,
    mean_and_error,
    our_chooser,
    plan_table,
    play_sample_games,
    read_body,
    split_figures,
    split_of,
    write_body,
)

DATA = HERE / "data" / "cube_truth.json.gz"
CLOSE = 0.25
CASH = 0.9

Equities = tuple[float, float, float]
CubeJudge = Callable[[Position], Equities]


def roll_out_cube(item: tuple[str, int, int, int]) -> dict[str, Any]:
    """One position's cubeful rollout (a runner's task): ``item`` is the Position ID,
    the trials, the truncation and the dice seed."""
    position_id, trials, truncation, seed = item
    engine = Engine()  # milliseconds, against seconds of rollout
    result = cubeful_rollout(
        engine.evaluate_boards,
        Position.from_position_id(position_id),
        CubeContext(),
        RolloutSettings(trials=trials, seed=seed, truncation=truncation),
    )
    return {
        "position_id": position_id,
        "no_double": result.no_double,
        "double_take": result.double_take,
        "double_pass": result.double_pass,
        "no_double_error": result.no_double_error,
        "double_take_error": result.double_take_error,
        "trials": result.trials,
    }


def our_judge(engine: Engine, plies: int) -> CubeJudge:
    """Our cubeful cube equities ``plies`` deep (money, centred; exact bear-offs)."""
    exact = BearoffDatabase.open().cube_equity_rows

    def judge(position: Position) -> Equities:
        decision = cube_decision_at(
            engine.evaluate_boards, position.to_array(), plies, CubeContext(), engine.pruning, exact
        )
        return decision.no_double, decision.double_take, decision.double_pass

    return judge


def gnubg_judge(service: Any, plies: int) -> CubeJudge:
    """GNU Backgammon's cubeful cube equities at ``plies`` (money, centred)."""
    from bgcommon import board_from_position_id  # type: ignore[import-not-found]

    service.command("set jacoby off")
    service.command("set beavers off")

    def judge(position: Position) -> Equities:
        found = service.cfevaluate(board_from_position_id(position.position_id), plies=plies)
        return float(found["nodouble"]), float(found["take"]), float(found["drop"])

    return judge


def close_kinds(equities: Equities) -> list[str]:
    """Which choices of a cube decision are close: ``double`` (doubling near not
    doubling, short of a cash), ``take`` (taking near passing), ``cash`` (playing on
    for a gammon near cashing)."""
    no_double, double_take, double_pass = equities
    kinds = []
    if abs(min(double_take, double_pass) - no_double) < CLOSE and no_double <= CASH:
        kinds.append("double")
    if abs(double_take - double_pass) < CLOSE:
        kinds.append("take")
    if no_double > CASH and abs(no_double - double_pass) < CLOSE:
        kinds.append("cash")
    return kinds


def draw_positions(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Positions with a close cube decision, from self-play and games against GNU
    Backgammon."""
    rng = random.Random(args.seed)
    engine = Engine()
    ours = our_chooser(engine, 0)
    judge = our_judge(engine, 0)
    positions: list[dict[str, Any]] = []
    seen: set[str] = set()

    def keep(turns: list[tuple[Position, tuple[int, int]]], source: str) -> None:
        by_kind: dict[str, list[Position]] = {}
        for position, _ in turns:
            for kind in close_kinds(judge(position)):
                by_kind.setdefault(kind, []).append(position)
        for kind, close in sorted(by_kind.items()):
            fresh = [position for position in close if position.position_id not in seen]
            for position in rng.sample(fresh, min(args.per_game, len(fresh))):
                seen.add(position.position_id)
                positions.append(
                    {"position_id": position.position_id, "source": source, "close": kind}
                )

    play_sample_games(args, ours, rng, keep)
    for entry in positions:
        entry["split"] = split_of(entry["position_id"], [0, 0])
    return positions


def label(
    args: argparse.Namespace, positions: list[dict[str, Any]], work: Path
) -> list[dict[str, Any]]:
    """Roll out every position (resumable in ``work``); the labels in order."""
    work.mkdir(parents=True, exist_ok=True)
    done_file = work / "cube-labels.jsonl"
    done: dict[str, dict[str, Any]] = {}
    if done_file.exists():
        for line in done_file.read_text().splitlines():
            with contextlib.suppress(json.JSONDecodeError):  # a line cut by a kill
                entry = json.loads(line)
                done[entry["position_id"]] = entry
    todo = [
        (entry["position_id"], args.trials, args.truncate, args.seed)
        for entry in positions
        if entry["position_id"] not in done
    ]
    began = time.perf_counter()
    with open_runner(args.ray, args.cpus) as runner, done_file.open("a") as out:
        for count, (_, entry) in enumerate(runner.map_unordered(roll_out_cube, todo), 1):
            out.write(json.dumps(entry) + "\n")
            out.flush()
            done[entry["position_id"]] = entry
            print(f"\r{count}/{len(todo)} rolled out", end="", flush=True)
    seconds = time.perf_counter() - began
    games = 2 * args.trials * len(todo)
    print(f"\n{len(todo)} positions in {seconds:.0f} s ({games / max(seconds, 1e-9):.1f} games/s)")
    return [done[entry["position_id"]] for entry in positions]


def build(args: argparse.Namespace) -> None:
    """Draw the positions, roll them out, write the data."""
    began = time.perf_counter()
    positions = draw_positions(args)
    print(f"{len(positions)} positions drawn in {time.perf_counter() - began:.0f} s", flush=True)
    work = Path(args.work) if args.work else Path(args.out).with_suffix(".work")
    labels = label(args, positions, work)
    for entry, truth in zip(positions, labels, strict=True):
        entry.update({key: value for key, value in truth.items() if key != "position_id"})
    body = {
        "settings": {
            "trials": args.trials,
            "truncation": args.truncate,
            "seed": args.seed,
            "cube": "money, cube 1 centred, no Jacoby rule, no beavers",
            "rollout_player": f"our 0-ply cubeful, {Engine().networks!r}",
            "close": CLOSE,
        },
        "positions": positions,
    }
    write_body(body, args.out)
    print(f"wrote {args.out} in {time.perf_counter() - began:.0f} s")


def roll_out_to_the_end(args: argparse.Namespace) -> None:
    """Roll the held-out positions out again without truncation (``--trials`` each,
    the data's dice seed), so that their truth no longer takes our cubeful estimate
    after 9 plies; such a position is marked ``"truncation": null``."""
    body = read_body(args.data)
    chosen = [
        entry
        for entry in body["positions"]
        if entry["split"] == "heldout" and "truncation" not in entry
    ]
    args.truncate, args.seed = None, body["settings"]["seed"]
    work = Path(args.work) if args.work else Path(args.data).with_suffix(".end-work")
    for entry, truth in zip(chosen, label(args, chosen, work), strict=True):
        entry.update({key: value for key, value in truth.items() if key != "position_id"})
        entry["truncation"] = None
    body["settings"]["to_the_end"] = (
        f"held-out positions rolled out to the end, {args.trials} trials"
    )
    write_body(body, args.data)


def loss_of(truth: dict[str, Any], equities: Equities) -> tuple[float, bool, bool]:
    """The loss of acting on ``equities`` by the rollout's equities, and whether the
    doubling and the taking decisions were right."""
    no_double, double_take, double_pass = (
        truth["no_double"],
        truth["double_take"],
        truth["double_pass"],
    )
    doubled = min(double_take, double_pass)
    doubles = min(equities[1], equities[2]) >= equities[0]
    takes = equities[1] <= equities[2]
    right_double = doubled >= no_double
    right_take = double_take <= double_pass
    doubler_loss = max(no_double, doubled) - (doubled if doubles else no_double)
    taker_loss = 0.0 if takes == right_take else abs(double_take - double_pass)
    return doubler_loss + taker_loss, doubles == right_double, takes == right_take


def summary_of(losses: list[tuple[float, bool, bool]]) -> dict[str, float]:
    """Mean loss ×1000, its standard error, and the shares of right decisions."""
    n = len(losses)
    mean, error = mean_and_error([loss for loss, _, _ in losses])
    return {
        "positions": n,
        "error": 1000 * mean,
        "standard_error": 1000 * error,
        "right_double": sum(right for _, right, _ in losses) / n,
        "right_take": sum(right for _, _, right in losses) / n,
    }


def score(args: argparse.Namespace) -> None:
    """Score our plies and GNU Backgammon's 0/2-ply on the held-out and all positions."""
    body = read_body(args.data)
    positions = body["positions"]
    heldout = [entry["split"] == "heldout" for entry in positions]
    print(f"{len(positions)} positions ({sum(heldout)} held out); rollouts {body['settings']}")
    judges: list[tuple[str, Callable[[], CubeJudge]]] = []
    engine = Engine(args.weights)
    for ply in args.plies:
        judges.append((f"ours {ply}-ply", lambda ply=ply: our_judge(engine, ply)))
    report: dict[str, Any] = {}
    every: dict[str, list[tuple[float, bool, bool]]] = {}
    with contextlib.ExitStack() as stack:
        if not args.no_gnubg:
            service = stack.enter_context(gnubg_service(Path(args.gnubg_scripts)))
            for plies in (0, 2):
                judges.append((f"gnubg {plies}-ply", lambda p=plies: gnubg_judge(service, p)))
        for name, make in judges:
            began = time.perf_counter()
            judge = make()
            losses = [
                loss_of(entry, judge(Position.from_position_id(entry["position_id"])))
                for entry in positions
            ]
            report[name] = split_figures(losses, heldout, summary_of, began)
            every[name] = losses
            print_line(name, report[name])
    if args.by_plan:
        report["by_plan"] = plan_table(positions, every, summary_of)
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=2))


def print_line(name: str, figures: dict[str, Any]) -> None:
    """One evaluator's score, held out and all."""
    parts = [
        f"{split} {figures[split]['error']:5.1f} ± {figures[split]['standard_error']:.1f}"
        f" (double {100 * figures[split]['right_double']:.0f}%,"
        f" take {100 * figures[split]['right_take']:.0f}%)"
        for split in ("heldout", "all")
    ]
    print(f"{name:<12} " + "; ".join(parts) + f"; {figures['seconds']:.0f} s", flush=True)


def main() -> None:
    """Build or score."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gnubg-scripts", default=str(GNUBG_SCRIPTS))
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="draw close cube positions and roll them out")
    make.add_argument("--self-play-games", type=int, default=100)
    make.add_argument("--gnubg-games", type=int, default=100)
    make.add_argument("--per-game", type=int, default=1, help="positions of each kind a game")
    make.add_argument("--trials", type=int, default=144)
    make.add_argument("--truncate", type=int, default=9)
    make.add_argument("--seed", type=int, default=1)
    make.add_argument("--cpus", type=int, default=1)
    make.add_argument("--ray", default=None)
    make.add_argument("--work", default=None, help="the labelling folder (resumable)")
    make.add_argument("--out", default=str(DATA))
    ending = commands.add_parser(
        "to-the-end", help="roll the held-out positions out again without truncation"
    )
    ending.add_argument("--data", default=str(DATA))
    ending.add_argument("--trials", type=int, default=72)
    ending.add_argument("--cpus", type=int, default=1)
    ending.add_argument("--ray", default=None)
    ending.add_argument("--work", default=None, help="the labelling folder (resumable)")
    rate = commands.add_parser("score", help="score evaluators on the data")
    rate.add_argument("--data", default=str(DATA))
    rate.add_argument("--plies", type=int, nargs="*", default=[0, 1, 2])
    rate.add_argument("--weights", default=None)
    rate.add_argument("--no-gnubg", action="store_true")
    rate.add_argument("--by-plan", action="store_true", help="held-out scores by game plan")
    rate.add_argument("--report", default=None, help="write the figures as JSON here")
    args = parser.parse_args()
    if args.command == "build":
        build(args)
    elif args.command == "to-the-end":
        roll_out_to_the_end(args)
    else:
        score(args)


if __name__ == "__main__":
    main()
