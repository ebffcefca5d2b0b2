"""Rollout-truth benchmark: checker-play error against our own rollouts (×1000).

Build the data (decisions from varied games, every candidate play rolled out), then
score evaluators on it, as GNU Backgammon's contact.bm / race.bm are used:

    python benchmarks/rollout_truth.py build --self-play-games 40 --gnubg-games 40 \\
        --per-game 4 --trials 72 --truncate 7 --cpus 2 \\
        --out benchmarks/data/rollout_truth.json.gz [--ray local|auto|ray://HOST:PORT]
    python benchmarks/rollout_truth.py score [--plies 0 1 2] [--no-gnubg] [--by-plan] [--report F]
    python benchmarks/rollout_truth.py track --cpus 2     # the shipped networks against their games
    python benchmarks/rollout_truth.py to-the-end --plans race --cpus 2   # races to the end
    python benchmarks/rollout_truth.py to-the-end --plans all --heldout-only --cpus 1 \\
        --work /tmp/to_the_end    # every held-out decision to the end (resumable)

The build also runs in three steps, so that the rollouts can run on another machine
(GNU Backgammon is needed only to draw): ``draw ... --out D.json.gz`` (decisions and
candidates), ``label D.json.gz --work W --cpus N`` (resumable; the ``backgammon
label`` runner), ``assemble D.json.gz --work W --out DATA``.

* **Decisions.** Positions with a roll from two kinds of game: self-play of our
  0-ply engine (one play in ten chosen at random, so that the games vary) and games
  of our 0-ply engine against GNU Backgammon 0-ply as the opponent (its plays only).
  ``--per-game`` turns of each game with at least two plays are drawn at random.
* **Candidates.** The plays within 0.10 equity of our 0-ply's best (at most 5), and
  our 1-ply and 2-ply choices. GNU Backgammon never chooses them.
* **Truth.** Every candidate's result (the opponent on roll) is rolled out by
  :mod:`backgammon.training.labelling` (the ``backgammon label`` runner: variance
  reduction, quasi-random dice, truncation to our 0-ply, the same dice for every
  candidate); the mover's equity is minus the opponent's.
* **Yardstick picks.** ``yardstick`` rolls out GNU Backgammon's 0-ply and 2-ply
  picks that are not candidates, on the held-out decisions only (so they are
  never training labels), with the same dice; its held-out scores are then exact.
* **Split.** Half the decisions (by a hash of position and roll) are ``heldout``:
  never to be trained on. The rest (``train``) may be labels.
* **Score.** For each decision an evaluator picks a play; its loss is the best
  candidate's rolled-out equity minus that of its pick. A pick outside the
  candidates is charged the largest candidate loss (a lower bound) and counted.
  The figure is the mean loss ×1000 with its standard error over decisions, on the
  held-out decisions and on all; the
  rollouts' own noise is reported beside it (the mean standard error of the
  candidates' equities).

GNU Backgammon (0-ply and 2-ply, cubeless, through ``../shared/gnubg``) is scored
as a yardstick only; nothing it evaluates goes into the data.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from backgammon import Position
from backgammon.engine import Engine
from backgammon.engine.plans import Plan
from backgammon.engine.plans import plan_of as plan_code
from backgammon.engine.rollout import RolloutSettings
from backgammon.engine.workers import open_runner
from backgammon.rules.play import Play
from backgammon.training.labelling import label_positions, read_labels

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "rollout_truth.json.gz"
HISTORY = HERE / "data" / "network_history.json"
GNUBG_SCRIPTS = HERE.parent.parent / "shared" / "gnubg"
MARGIN = 0.10
MOST_CANDIDATES = 5

Chooser = Callable[[Position, tuple[int, int]], str]


@contextmanager
def gnubg_service(scripts: Path) -> Iterator[Any]:
    """GNU Backgammon's service (``scripts``/gnubg_client.py), with its Position ID
    reader."""
    sys.path.insert(0, str(scripts))
    from gnubg_client import GnubgService  # type: ignore[import-not-found]

    with GnubgService() as service:
        yield service


def gnubg_chooser(service: Any, plies: int) -> Chooser:
    """GNU Backgammon's cubeless choice at ``plies``, as the result's Position ID."""
    from bgcommon import board_from_position_id  # type: ignore[import-not-found]

    def choose(position: Position, dice: tuple[int, int]) -> str:
        board = board_from_position_id(position.position_id)
        return str(service.best(board, dice, plies=plies)["id"])

    return choose


def our_chooser(engine: Engine, ply: int) -> Chooser:
    """Our cubeless choice at ``ply``, as the result's Position ID."""

    def choose(position: Position, dice: tuple[int, int]) -> str:
        return engine.best_play(position, dice, ply).position.position_id

    return choose


def play_game(
    movers: tuple[Chooser, Chooser], rng: random.Random, explore: float
) -> list[tuple[Position, tuple[int, int]]]:
    """One cubeless game, ``movers[0]`` first; its turns with at least two plays."""
    position = Position.initial()
    turns = []
    side = 0
    for turn in range(1000):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while turn == 0 and dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = list(position.legal_plays(dice))
        if len(plays) >= 2:
            turns.append((position, dice))
        if not plays:
            after = Play.no_move(position).position
        elif rng.random() < explore:
            after = rng.choice(plays).position
        else:
            chosen = movers[side](position, dice)
            after = next(play.position for play in plays if play.position.position_id == chosen)
        if after.is_game_over():
            break
        position = after.flip()
        side = 1 - side
    return turns


def draw_decisions(args: argparse.Namespace, engine: Engine) -> list[dict[str, Any]]:
    """Positions with a roll from self-play and from games against GNU Backgammon."""
    rng = random.Random(args.seed)
    ours = our_chooser(engine, 0)
    decisions: list[dict[str, Any]] = []

    def keep(turns: list[tuple[Position, tuple[int, int]]], source: str) -> None:
        for position, dice in rng.sample(turns, min(args.per_game, len(turns))):
            decisions.append({"position_id": position.position_id, "dice": list(dice)})
            decisions[-1]["source"] = source

    play_sample_games(args, ours, rng, keep)
    return decisions


def play_sample_games(
    args: argparse.Namespace,
    ours: Chooser,
    rng: random.Random,
    keep: Callable[[list[tuple[Position, tuple[int, int]]], str], None],
) -> None:
    """Play ``args.self_play_games`` games of ``ours`` against itself (one play in ten
    random) and ``args.gnubg_games`` against GNU Backgammon 0-ply (its plays only),
    handing each game's turns to ``keep`` with its source."""
    for _ in range(args.self_play_games):
        keep(play_game((ours, ours), rng, 0.1), "self-play")
    if args.gnubg_games:
        with gnubg_service(Path(args.gnubg_scripts)) as service:
            theirs = gnubg_chooser(service, 0)
            for game in range(args.gnubg_games):
                movers = (ours, theirs) if game % 2 == 0 else (theirs, ours)
                keep(play_game(movers, rng, 0.0), "against-gnubg")


def candidates(engine: Engine, position: Position, dice: tuple[int, int]) -> list[str]:
    """The candidate plays' results: within MARGIN of our 0-ply best (at most
    MOST_CANDIDATES), and our 1-ply and 2-ply choices."""
    ranked = engine.rank_plays(position, dice, 0)
    best = ranked[0].equity
    chosen = [
        entry.play.position.position_id
        for entry in ranked[:MOST_CANDIDATES]
        if entry.equity >= best - MARGIN
    ]
    for ply in (1, 2):
        deeper = engine.best_play(position, dice, ply).position.position_id
        if deeper not in chosen:
            chosen.append(deeper)
    return chosen


def split_of(position_id: str, dice: list[int]) -> str:
    """``heldout`` or ``train``, by a hash of the decision."""
    digest = hashlib.sha256(f"{position_id} {dice[0]}{dice[1]}".encode()).digest()
    return "heldout" if digest[0] % 2 == 0 else "train"


def draw(args: argparse.Namespace) -> dict[str, Any]:
    """Draw the decisions and their candidates; the body of the data, unlabelled."""
    engine = Engine()
    began = time.perf_counter()
    decisions = draw_decisions(args, engine)
    for decision in decisions:
        position = Position.from_position_id(decision["position_id"])
        decision["candidates"] = candidates(engine, position, tuple(decision["dice"]))
        decision["split"] = split_of(decision["position_id"], decision["dice"])
    print(f"{len(decisions)} decisions drawn in {time.perf_counter() - began:.0f} s", flush=True)
    return {
        "settings": {
            "trials": args.trials,
            "truncation": args.truncate,
            "seed": args.seed,
            "variance_reduction": True,
            "rollout_player": f"our 0-ply, {engine.networks!r}",
            "margin": MARGIN,
            "most_candidates": MOST_CANDIDATES,
        },
        "decisions": decisions,
    }


def results_of(body: dict[str, Any]) -> list[str]:
    """Every distinct candidate result of the decisions, in the order they are labelled."""
    return sorted({result for decision in body["decisions"] for result in decision["candidates"]})


def label(body: dict[str, Any], work: Path, cpus: int, ray: str | None) -> None:
    """Roll out every candidate result (the opponent on roll) into ``work``: resumable
    shards of the ``backgammon label`` runner."""
    settings = body["settings"]
    rollout_settings = RolloutSettings(
        trials=settings["trials"], seed=settings["seed"], truncation=settings["truncation"]
    )
    opponent_on_roll = [Position.from_position_id(result).flip() for result in results_of(body)]
    with open_runner(ray, cpus) as runner:
        summary = label_positions(
            Engine().evaluate_boards,
            opponent_on_roll,
            work,
            rollout_settings,
            runner,
            shard_size=8,
            progress=lambda done, total: print(f"\r{done}/{total} rolled out", end="", flush=True),
        )
    print(f"\n{summary.trials:,} trials, {summary.trials_per_second_per_core:.1f} trials/s/core")


def assemble(body: dict[str, Any], work: Path) -> dict[str, Any]:
    """The data: each candidate with its rolled-out equity for the mover."""
    labels = read_labels(work)
    truth = dict(zip(results_of(body), labels, strict=True))
    for decision in body["decisions"]:
        decision["candidates"] = [
            {
                "result_id": result,
                "equity": -truth[result]["equity"],
                "standard_error": truth[result]["standard_error"],
            }
            for result in decision["candidates"]
        ]
    return body


def read_body(path: str | Path) -> dict[str, Any]:
    """A (gzipped) JSON body written by :func:`write_body`."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        body: dict[str, Any] = json.load(handle)
    return body


def write_body(body: dict[str, Any], path: str | Path) -> None:
    """Write ``body`` as gzipped JSON at ``path``."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump(body, handle, separators=(",", ":"))


def add_yardstick_picks(args: argparse.Namespace) -> None:
    """Roll out GNU Backgammon's 0-ply and 2-ply picks that are not candidates, on the
    held-out decisions only (never trained on), with the data's settings (so the same
    dice as the other candidates), and add them as candidates marked ``yardstick``:
    its held-out scores then count no pick outside the candidates."""
    body = read_body(args.data)
    missing: dict[int, set[str]] = {}
    with gnubg_service(Path(args.gnubg_scripts)) as service:
        for plies in (0, 2):
            find_outside_picks(body, gnubg_chooser(service, plies), missing)
    if add_rolled_out_picks(body, missing, "yardstick", args):
        body["settings"]["yardstick_picks"] = "gnubg 0-ply and 2-ply picks, held-out decisions"
        write_body(body, args.data)


def find_outside_picks(body: dict[str, Any], choose: Chooser, missing: dict[int, set[str]]) -> None:
    """Add to ``missing`` (decision index -> results) the picks of ``choose`` on the
    held-out decisions that are not candidates."""
    for index, decision in enumerate(body["decisions"]):
        if decision["split"] != "heldout":
            continue
        position = Position.from_position_id(decision["position_id"])
        pick = choose(position, tuple(decision["dice"]))
        if pick not in {entry["result_id"] for entry in decision["candidates"]}:
            missing.setdefault(index, set()).add(pick)


def add_rolled_out_picks(
    body: dict[str, Any], missing: dict[int, set[str]], marker: str, args: argparse.Namespace
) -> bool:
    """Roll out the ``missing`` picks with the data's settings (the same dice as the
    other candidates) and add them to their decisions as candidates marked ``marker``;
    whether there were any."""
    picks = sorted({pick for found in missing.values() for pick in found})
    print(f"{len(picks)} picks outside the candidates of {len(missing)} decisions", flush=True)
    if not picks:
        return False
    to_the_end = {
        pick
        for index, found in missing.items()
        if "truncation" in body["decisions"][index]  # a race decision rolled out to the end
        for pick in found
    }
    truth = roll_out(body["settings"], sorted(set(picks) - to_the_end), marker, args)
    truth |= roll_out({**body["settings"], "truncation": None}, sorted(to_the_end), marker, args)
    for index, found in missing.items():
        for pick in sorted(found):
            body["decisions"][index]["candidates"].append(
                {
                    "result_id": pick,
                    "equity": -truth[pick]["equity"],
                    "standard_error": truth[pick]["standard_error"],
                    marker: True,
                }
            )
    return True


def roll_out(
    settings: dict[str, Any], results: list[str], name: str, args: argparse.Namespace
) -> dict[str, dict[str, Any]]:
    """Each result's label, rolled out with ``settings`` (the data's dice) in
    ``args.work`` (resumable; a folder a truncation) or a new temporary folder."""
    if not results:
        return {}
    truncation = settings["truncation"]
    work = (
        Path(args.work) / f"truncation-{truncation}"
        if args.work
        else Path(tempfile.mkdtemp(prefix=f"rollout-truth-{name}-"))
    )
    job = {"settings": settings, "decisions": [{"candidates": results}]}
    label(job, work, args.cpus, args.ray)
    return dict(zip(results_of(job), read_labels(work), strict=True))


def plan_name(decision: dict[str, Any]) -> str:
    """The game plan of a decision's position, by name."""
    return plan_of(Position.from_position_id(decision["position_id"]))


def roll_out_to_the_end(args: argparse.Namespace) -> None:
    """Roll out again, without truncation, every candidate of the decisions of the
    game plans ``args.plans`` (names, or ``all``; held-out decisions alone with
    ``args.heldout_only``) with the same trials and dice, so that their truth is the
    games' own ends rather than our network's estimate after the truncation; such a
    decision is marked ``"truncation": null``. Resumable in ``args.work``."""
    body = read_body(args.data)
    wanted = set(args.plans)
    chosen = [
        decision
        for decision in body["decisions"]
        if "truncation" not in decision
        and (not args.heldout_only or decision["split"] == "heldout")
        and ("all" in wanted or plan_name(decision) in wanted)
    ]
    picks = sorted({entry["result_id"] for decision in chosen for entry in decision["candidates"]})
    print(f"{len(picks)} candidates of {len(chosen)} decisions", flush=True)
    if not picks:
        return
    truth = roll_out({**body["settings"], "truncation": None}, picks, "to-the-end", args)
    for decision in chosen:
        for entry in decision["candidates"]:
            entry["equity"] = -truth[entry["result_id"]]["equity"]
            entry["standard_error"] = truth[entry["result_id"]]["standard_error"]
        decision["truncation"] = None
    ended = sorted({plan_name(decision) for decision in chosen})
    split = "held-out " if args.heldout_only else ""
    body["settings"].setdefault("to_the_end", []).append(
        f"{split}{', '.join(ended)} decisions rolled out to the end (no truncation)"
    )
    write_body(body, args.data)


def build(args: argparse.Namespace) -> None:
    """Draw the decisions, roll out their candidates, write the data (the three steps
    of ``draw``, ``label`` and ``assemble`` in one)."""
    began = time.perf_counter()
    body = draw(args)
    work = Path(args.work or tempfile.mkdtemp(prefix="rollout-truth-"))
    label(body, work, args.cpus, args.ray)
    write_body(assemble(body, work), args.out)
    print(f"wrote {args.out} in {time.perf_counter() - began:.0f} s")


def loss_of(decision: dict[str, Any], chosen: str) -> tuple[float, bool]:
    """The pick's loss against the best candidate, and whether it was a candidate."""
    equities = {entry["result_id"]: entry["equity"] for entry in decision["candidates"]}
    best = max(equities.values())
    if chosen in equities:
        return best - equities[chosen], True
    return best - min(equities.values()), False


def losses_of(decisions: list[dict[str, Any]], choose: Chooser) -> list[tuple[float, bool]]:
    """Each decision's loss for ``choose`` and whether its pick was a candidate."""
    return [
        loss_of(decision, choose(Position.from_position_id(decision["position_id"]), dice))
        for decision in decisions
        for dice in [tuple(decision["dice"])]
    ]


def summary_of(losses: list[tuple[float, bool]]) -> dict[str, float]:
    """Mean loss ×1000, its standard error, and the picks outside the candidates."""
    mean, error = mean_and_error([loss for loss, _ in losses])
    return {
        "decisions": len(losses),
        "error": 1000 * mean,
        "standard_error": 1000 * error,
        "outside": sum(not listed for _, listed in losses),
    }


def split_figures(
    losses: list[Any], heldout: list[bool], summarise: Callable[[list[Any]], Any], began: float
) -> dict[str, Any]:
    """An evaluator's figures: ``summarise`` of its held-out and of all its losses, and
    the seconds since ``began``."""
    return {
        "heldout": summarise([x for x, kept in zip(losses, heldout, strict=True) if kept]),
        "all": summarise(losses),
        "seconds": time.perf_counter() - began,
    }


def mean_and_error(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error."""
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    return mean, spread / math.sqrt(n)


PLANS = tuple(plan.label for plan in Plan)


def plan_of(position: Position) -> str:
    """The game plan of a position (:func:`backgammon.engine.plans.plan_of`), by name."""
    return plan_code(position).label


def plan_table(
    decisions: list[dict[str, Any]],
    losses: dict[str, list[Any]],
    summarise: Callable[[list[Any]], dict[str, float]] | None = None,
) -> dict[str, dict[str, dict[str, float]]]:
    """Each evaluator's held-out score by game plan, printed as a table; ``summarise``
    makes a plan's figures of its losses (by default :func:`summary_of`'s)."""
    summarise = summary_of if summarise is None else summarise
    plans = [plan_of(Position.from_position_id(decision["position_id"])) for decision in decisions]
    kept = [decision["split"] == "heldout" for decision in decisions]
    table: dict[str, dict[str, dict[str, float]]] = {}
    print(
        f"held out, by game plan:\n{'plan':<14}{'decisions':>10}"
        + "".join(f"{name:>14}" for name in losses)
    )
    for plan in PLANS:
        rows = [
            k
            for k, (name, held) in enumerate(zip(plans, kept, strict=True))
            if held and name == plan
        ]
        if not rows:
            continue
        table[plan] = {
            name: summarise([picked[k] for k in rows]) for name, picked in losses.items()
        }
        print(
            f"{plan:<14}{len(rows):>10}"
            + "".join(
                f"{figures['error']:>8.1f} ± {figures['standard_error']:<3.1f}"
                for figures in table[plan].values()
            )
        )
    return table


def score(args: argparse.Namespace) -> None:
    """Score our plies and GNU Backgammon's 0/2-ply on the held-out and all decisions."""
    body = read_body(args.data)
    decisions = body["decisions"]
    heldout = [d["split"] == "heldout" for d in decisions]
    noise = [entry["standard_error"] for d in decisions for entry in d["candidates"]]
    print(
        f"{len(decisions)} decisions ({sum(heldout)} held out); rollouts {body['settings']}; "
        f"mean candidate standard error {1000 * sum(noise) / len(noise):.1f} (×1000)"
    )
    choosers: list[tuple[str, Callable[[], Chooser]]] = []
    engine = Engine(args.weights)
    for ply in args.plies:
        choosers.append((f"ours {ply}-ply", lambda ply=ply: our_chooser(engine, ply)))
    report: dict[str, Any] = {}
    found: dict[str, list[tuple[float, bool]]] = {}
    with contextlib.ExitStack() as stack:
        if not args.no_gnubg:
            service = stack.enter_context(gnubg_service(Path(args.gnubg_scripts)))
            for plies in (0, 2):
                choosers.append(
                    (f"gnubg {plies}-ply", lambda plies=plies: gnubg_chooser(service, plies))
                )
        for name, make in choosers:
            began = time.perf_counter()
            losses = found[name] = losses_of(decisions, make())
            report[name] = split_figures(losses, heldout, summary_of, began)
            print_line(name, report[name])
    if args.by_plan:
        report["by_plan"] = plan_table(decisions, found)
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=2))


def shipped_networks(history_path: str | Path, folder: Path) -> list[tuple[dict[str, Any], Path]]:
    """Each network of the history file with its weights, taken from git into ``folder``."""
    history = json.loads(Path(history_path).read_text())
    networks = []
    for entry in history["networks"]:
        shown = subprocess.run(
            ["git", "show", f"{entry['commit']}:{history['path']}"],
            cwd=HERE.parent,
            capture_output=True,
        )
        if shown.returncode != 0:
            raise SystemExit(
                f"error: cannot read the network of commit {entry['commit']} from git"
                f" ({shown.stderr.decode().strip()}); track needs the repository's history"
                " (in a shallow clone: git fetch --unshallow)"
            )
        weights = folder / f"{entry['commit']}.npz"
        weights.write_bytes(shown.stdout)
        networks.append((entry, weights))
    return networks


def track(args: argparse.Namespace) -> None:
    """How the held-out 0-ply score tracks the games against GNU Backgammon: every
    shipped network scored, its picks outside the candidates rolled out first (marked
    ``history``), then the correlation and the least-squares line of points per game
    on the score."""
    body = read_body(args.data)
    with tempfile.TemporaryDirectory() as folder:
        engines = [
            (entry, Engine(weights))
            for entry, weights in shipped_networks(args.history, Path(folder))
        ]
        missing: dict[int, set[str]] = {}
        for _, engine in engines:
            find_outside_picks(body, our_chooser(engine, 0), missing)
        if add_rolled_out_picks(body, missing, "history", args):
            body["settings"]["history_picks"] = "shipped networks' 0-ply picks, held-out decisions"
            write_body(body, args.data)
        heldout = [decision for decision in body["decisions"] if decision["split"] == "heldout"]
        rows = [history_row(entry, heldout, engine) for entry, engine in engines]
    print("network                                   score (held out)   vs GNU Backgammon 0-ply")
    for row in rows:
        print(
            f"{row['commit']} {row['name']:<32} {row['score']:5.1f} ± {row['score_error']:.1f}"
            f"        {row['ppg']:+.3f} ± {row['ppg_error']:.3f} ({row['games']:,} games)"
        )
    fits = {
        "all": line_of([row["score"] for row in rows], [row["ppg"] for row in rows]),
        "without the oldest": line_of(
            [row["score"] for row in rows[1:]], [row["ppg"] for row in rows[1:]]
        ),
    }
    for name, fit in fits.items():
        print(
            f"{name}: correlation {fit['correlation']:.3f}"
            f" (of ranks {fit['rank_correlation']:.3f});"
            f" ppg = {fit['intercept']:+.3f} {fit['slope']:+.4f} × score, even with GNU"
            f" Backgammon at a score of {fit['even_at']:.1f}"
        )
    if args.report:
        Path(args.report).write_text(json.dumps({"networks": rows, "fits": fits}, indent=2))


def ranks_of(values: list[float]) -> list[float]:
    """Each value's rank (0 for the smallest; ties share their mean rank)."""
    order = sorted(values)
    return [order.index(value) + (order.count(value) - 1) / 2 for value in values]


def history_row(
    entry: dict[str, Any], heldout: list[dict[str, Any]], engine: Engine
) -> dict[str, Any]:
    """One shipped network's held-out 0-ply score beside its games' figure."""
    figures = summary_of(losses_of(heldout, our_chooser(engine, 0)))
    return {
        "commit": entry["commit"],
        "name": entry["name"],
        "score": figures["error"],
        "score_error": figures["standard_error"],
        "outside": figures["outside"],
        "ppg": entry["ppg"],
        "ppg_error": entry["standard_error"],
        "games": entry["games"],
    }


def line_of(scores: list[float], ppg: list[float]) -> dict[str, float]:
    """Pearson's correlation, Spearman's (of the ranks), and the least-squares line of
    ``ppg`` on ``scores``, with the score at which the line crosses zero."""
    slope, intercept = statistics.linear_regression(scores, ppg)
    return {
        "correlation": statistics.correlation(scores, ppg),
        "rank_correlation": statistics.correlation(ranks_of(scores), ranks_of(ppg)),
        "slope": slope,
        "intercept": intercept,
        "even_at": -intercept / slope,
    }


def print_line(name: str, figures: dict[str, Any]) -> None:
    """One evaluator's score, held out and all."""
    parts = [
        f"{split} {figures[split]['error']:5.1f} ± {figures[split]['standard_error']:.1f} "
        f"({figures[split]['outside']} outside)"
        for split in ("heldout", "all")
    ]
    print(f"{name:<12} " + "; ".join(parts) + f"; {figures['seconds']:.0f} s", flush=True)


def add_build_options(parser: argparse.ArgumentParser) -> None:
    """The options that draw decisions and set their rollouts."""
    parser.add_argument("--self-play-games", type=int, default=40)
    parser.add_argument("--gnubg-games", type=int, default=40)
    parser.add_argument("--per-game", type=int, default=4)
    parser.add_argument("--trials", type=int, default=72)
    parser.add_argument("--truncate", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)


def add_label_options(parser: argparse.ArgumentParser) -> None:
    """The options of the labelling runner."""
    parser.add_argument("--cpus", type=int, default=1)
    parser.add_argument("--ray", default=None)
    parser.add_argument("--work", default=None, help="the labelling folder (resumable)")


def main() -> None:
    """Build (at once, or in the steps draw, label, assemble) or score."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gnubg-scripts", default=str(GNUBG_SCRIPTS))
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="draw decisions and roll out their candidates")
    add_build_options(make)
    add_label_options(make)
    make.add_argument("--out", default=str(DATA))
    drawing = commands.add_parser("draw", help="only draw the decisions and candidates")
    add_build_options(drawing)
    drawing.add_argument("--out", required=True, help="the unlabelled decisions (.json.gz)")
    labelling = commands.add_parser("label", help="roll out drawn decisions' candidates")
    labelling.add_argument("decisions", help="the file written by draw")
    add_label_options(labelling)
    joining = commands.add_parser("assemble", help="drawn decisions + labels = the data")
    joining.add_argument("decisions", help="the file written by draw")
    joining.add_argument("--work", required=True, help="the folder labelled by label")
    joining.add_argument("--out", default=str(DATA))
    yardstick = commands.add_parser(
        "yardstick", help="roll out GNU Backgammon's picks outside the held-out candidates"
    )
    yardstick.add_argument("--data", default=str(DATA))
    add_label_options(yardstick)
    ending = commands.add_parser(
        "to-the-end", help="roll chosen decisions' candidates out to the end (no truncation)"
    )
    ending.add_argument("--data", default=str(DATA))
    ending.add_argument(
        "--plans", nargs="+", default=["race"], help="game plans by name (race, blitz...) or all"
    )
    ending.add_argument("--heldout-only", action="store_true", help="held-out decisions only")
    add_label_options(ending)
    tracking = commands.add_parser(
        "track", help="score every shipped network against its games with GNU Backgammon"
    )
    tracking.add_argument("--data", default=str(DATA))
    tracking.add_argument("--history", default=str(HISTORY))
    tracking.add_argument("--report", default=None, help="write the figures as JSON here")
    add_label_options(tracking)
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
    elif args.command == "draw":
        write_body(draw(args), args.out)
    elif args.command == "label":
        label(read_body(args.decisions), Path(args.work), args.cpus, args.ray)
    elif args.command == "yardstick":
        add_yardstick_picks(args)
    elif args.command == "to-the-end":
        roll_out_to_the_end(args)
    elif args.command == "track":
        track(args)
    elif args.command == "assemble":
        write_body(assemble(read_body(args.decisions), Path(args.work)), args.out)
    else:
        score(args)


if __name__ == "__main__":
    main()
