"""Strength per variant: a variant's network against today's player and against the
heuristic player.

    python benchmarks/variant_strength.py --variant nackgammon --games 2000 [--seed 1]
        [--weights FILE] [--ply 0] [--markdown]
    python benchmarks/variant_strength.py --variant all --games 200   # every variant
    python benchmarks/variant_strength.py --variant plakoto --weights FILE --games 2000 --ship

For each variant (any name of the registry, or ``all``):

* *the variant's engine*: ``Engine(FILE, variant=V)`` with ``--weights``, else
  ``Engine(variant=V)`` (the network shipped for ``V``, or today's player where there
  is none);
* *today's player*: the standard network, its inputs scaled to ``V``
  (``Engine(default_networks(), variant=V)``), what every variant played with before
  it had a network of its own;
* *the heuristic player*: :class:`backgammon.engine.baseline.HeuristicPlayer`.

Cubeless games of ``V`` through ``Game`` (its whole turn structure), duplicate dice
(deal ``i`` uses ``SeededDice(seed + i)`` twice) with seats swapped
(:func:`backgammon.engine.strength.duplicate_match`); ``--games`` games per pairing,
points per game for the first named with the standard error over deals. A variant's
network ships when it beats today's player by more than two standard errors: with
``--ship`` (one variant, ``--weights`` given) such a network is written to
``src/backgammon/engine/data/NAME.weights.npz`` with the figures in its metadata, which
``Engine(variant=NAME)``, ``backgammon play --variant NAME`` and the server's bots then
use. Prints one line per variant, and with ``--markdown`` the rows of the table in
``docs/variants.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Mapping
from pathlib import Path

from backgammon import variants
from backgammon.engine.baseline import HeuristicPlayer
from backgammon.engine.evaluator import (
    Engine,
    default_networks,
    variant_networks,
    variant_weights_name,
)
from backgammon.engine.network import Networks
from backgammon.engine.players import EnginePlayer
from backgammon.engine.strength import duplicate_match
from backgammon.rules.variant import Variant

DATA = Path(__file__).resolve().parents[1] / "src" / "backgammon" / "engine" / "data"


def measure(
    variant: Variant,
    games: int,
    seed: int,
    weights: str | None,
    ply: int,
    pairings: tuple[str, ...] = ("today", "heuristic", "baseline"),
) -> dict[str, tuple[float, float] | str]:
    """The pairings of ``variant`` (``(ppg, se)`` each: ``vs_today``, ``vs_heuristic``,
    ``today_vs_heuristic``, those of ``pairings`` that apply), and which network the
    variant's engine used (``"network"``)."""
    deals = max(2, games // 2)
    if weights is not None:
        own = Engine(weights, variant=variant)
        label = weights
    elif variant_networks(variant) is not None:
        own = Engine(variant=variant)
        label = "shipped"
    else:
        own = None
        label = "none (today's player)"
    today = EnginePlayer(Engine(default_networks(), variant=variant), ply)
    heuristic = HeuristicPlayer()
    result: dict[str, tuple[float, float] | str] = {"network": label}
    if "baseline" in pairings:
        result["today_vs_heuristic"] = duplicate_match(today, heuristic, deals, seed, variant)
    if own is not None:
        player = EnginePlayer(own, ply)
        if "today" in pairings:
            result["vs_today"] = duplicate_match(player, today, deals, seed, variant)
        if "heuristic" in pairings:
            result["vs_heuristic"] = duplicate_match(player, heuristic, deals, seed, variant)
    return result


def ship(variant: Variant, args: argparse.Namespace, result: Mapping[str, object]) -> Path:
    """Write ``args.weights`` into the package as ``variant``'s networks, stamped with
    the measured figures; return the path."""
    networks = Networks.load(args.weights)
    figures: dict[str, object] = {
        key: {"ppg": round(value[0], 4), "se": round(value[1], 4), "games": args.games}
        for key, value in result.items()
        if isinstance(value, tuple)
    }
    figures["settings"] = (
        f"cubeless, duplicate dice, seats swapped, {args.ply}-ply, seed {args.seed}; "
        "today's player = the standard network scaled to the variant"
    )
    figures["command"] = (
        f"python benchmarks/variant_strength.py --variant {variant.name} "
        f"--weights FILE --games {args.games} --seed {args.seed}"
    )
    metadata = dataclasses.replace(
        networks.metadata, variant=variant.name, trained=True, strength=figures
    )
    target = DATA / variant_weights_name(variant)
    networks.replace(metadata=metadata).save(target)
    return target


def _cell(value: tuple[float, float] | str | None) -> str:
    if value is None or isinstance(value, str):
        return "—"
    ppg, error = value
    return f"{ppg:+.3f} ± {error:.3f}"


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", required=True, help="a name, or 'all'")
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--seed", type=int, default=1, help="dice seed of the first deal")
    parser.add_argument("--weights", default=None, help="the variant's weights file")
    parser.add_argument("--ply", type=int, default=0, help="lookahead of both engines")
    parser.add_argument(
        "--pairings",
        default="today,heuristic,baseline",
        help="which to play, comma-separated: today (the network against today's player), "
        "heuristic (against the heuristic player), baseline (today's player against it)",
    )
    parser.add_argument("--markdown", action="store_true", help="print table rows too")
    parser.add_argument(
        "--ship", action="store_true", help="write the weights into the package if they win"
    )
    args = parser.parse_args()
    chosen = (
        list(variants.all_variants())
        if "all" in args.variant
        else [variants.find(name) for name in args.variant]
    )
    if args.ship and (args.weights is None or len(chosen) != 1):
        parser.error("--ship needs --weights and one variant")
    rows = []
    for variant in chosen:
        began = time.perf_counter()
        result = measure(
            variant,
            args.games,
            args.seed,
            args.weights,
            args.ply,
            tuple(args.pairings.split(",")),
        )
        seconds = time.perf_counter() - began
        verdict = ""
        against_today = result.get("vs_today")
        if isinstance(against_today, tuple):
            ppg, error = against_today
            verdict = "ships" if ppg > 2 * error else "does not ship"
            if args.ship and ppg > 2 * error:
                verdict += f"; written to {ship(variant, args, result)}"
        print(
            f"{variant.name}: network {result['network']}; vs today's player "
            f"{_cell(result.get('vs_today'))}; vs heuristic {_cell(result.get('vs_heuristic'))}; "
            f"today's player vs heuristic {_cell(result.get('today_vs_heuristic'))} "
            f"({args.games} games per pairing, seed {args.seed}, {seconds:.0f} s) {verdict}",
            flush=True,
        )
        rows.append(
            f"| {variant.name} | {result['network']} | {args.games} | "
            f"{_cell(result.get('vs_today'))} | {_cell(result.get('vs_heuristic'))} | "
            f"{_cell(result.get('today_vs_heuristic'))} |"
        )
    if args.markdown:
        print(
            "| variant | network | games per pairing | vs today's player | vs heuristic "
            "| today's player vs heuristic |"
        )
        print("| --- | --- | --- | --- | --- | --- |")
        for row in rows:
            print(row)


if __name__ == "__main__":
    main()
