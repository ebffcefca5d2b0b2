"""Match analysis against GNU Backgammon's own, and its speed.

    .venv/bin/python benchmarks/analysis_agreement.py [--file SGF] [--ply 0] [--json OUT]

* **Agreement.** ``tests/data/reference/formats/match03_5pt_analysed.sgf`` holds GNU
  Backgammon 1.07's 0-ply analysis in its ``A`` (the plays considered, best first) and
  ``DA`` (cube decision: no-double and double/take evaluations, in match winning
  chances) properties. For every unforced checker play we compare our best play (by
  resulting position) with gnubg's (a play whose equity in the file equals that of
  gnubg's first-listed play, to the file's six decimals, is one of gnubg's best plays
  too: a certain win or loss, or a value capped at the opponent's cash; those ties are
  counted and reported); where ours is in gnubg's list we also report what it costs by
  gnubg's equities. For every cube decision gnubg analysed we compare the
  right action: "no double", "double, take", "double, pass" or "too good", and
  separately double/no double and take/pass. gnubg's cube decision is rebuilt from
  ``DA`` as its ``FindBestCubeDecision`` does (equities normalised with the
  Kazaross-XG2 table, gnubg's default, "double, pass" = +1).
* **What the goal means.** The reference analysis is gnubg's *0-ply*; a deeper analysis
  (gnubg's own included) disagrees with it where the extra lookahead finds something.
  With ``--gnubg-ply N`` (default 2; 0 turns it off) the script has GNU Backgammon
  (``$GNUBG`` or ``/usr/games/gnubg``, when installed) analyse the same match at N
  plies, and reports how often gnubg's N-ply analysis agrees with the file's 0-ply one
  (the ceiling a strong N-ply analyser reaches on this yardstick) and how often ours
  agrees with gnubg's N-ply.
* **More matches.** ``--every-match`` compares with gnubg's ``--gnubg-ply`` analysis of
  every match of the reference folder (a small sample, its cube misses mostly in one game);
  ``--gnubg-matches N --length L`` with that of N L-point matches GNU Backgammon plays
  against itself (0-ply, its own cube; seeds 1..N, kept in ``--gnubg-cache``): a wider,
  less correlated sample of cube decisions.
* **Speed.** The time to analyse that match and 7-point matches played by the engine
  against itself (seeded dice, intermediate level, no doubling), at ``--ply``.

Targets of our issue: 90% same best play, 95% same cube action, a 7-point match in
under a minute at 0-ply.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from backgammon.analysis import (
    AnalysisSettings,
    CheckerAnalysis,
    CubeAnalysis,
    Thresholds,
    analyze_match,
)
from backgammon.engine import Engine
from backgammon.engine.cube import (
    CubeOwner,
    cube_efficiency,
    match_cube_decision,
)
from backgammon.engine.evaluator import PRUNING_KEEP
from backgammon.engine.met import kazaross_xg2
from backgammon.engine.players import EngineCube, EnginePlayer
from backgammon.engine.pruning import default_pruning_network
from backgammon.engine.search import Pruning
from backgammon.formats import MatchRecord, read_match, record_of_match
from backgammon.rules.cube import Double, Drop, Take
from backgammon.rules.dice import SeededDice
from backgammon.rules.match import Match
from backgammon.rules.position import Position

HERE = Path(__file__).resolve().parent
CLOSE = 0.01
"""A play within this much of gnubg's best by gnubg's own equities is a near tie."""
CLOSE_CUBE = 0.1
"""A cube decision is close when, by gnubg's equities, doubling and not doubling (or
taking and passing) differ by less than this."""
TIE = 5e-7
"""Equities in the file closer than this (its six decimals) are equal."""
THRESHOLDS = Thresholds()
"""The marks' thresholds (gnubg's 0.04 / 0.08 / 0.16)."""
REFERENCE = HERE.parent / "tests" / "data" / "reference" / "formats" / "match03_5pt_analysed.sgf"


def _point(letter: str, player: int) -> int:
    """A gnubg SGF move letter as a point of the mover's numbering (25 bar, 0 off)."""
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    return ord(letter) - ord("a") + 1 if player == 0 else ord("x") - ord(letter) + 1


def _apply(position: Position, steps: list[tuple[int, int]]) -> Position:
    """The position after moving checkers ``from -> to`` in order, hitting blots."""
    mine, theirs = list(position.player), list(position.opponent)
    for source, target in steps:
        mine[source] -= 1
        mine[target] += 1
        if 1 <= target <= 24 and theirs[25 - target] == 1:
            theirs[25 - target] = 0
            theirs[25] += 1
    return Position(mine, theirs)


def _gnubg_moves(values: list[str], player: int) -> list[tuple[list[tuple[int, int]], float]]:
    """The plays of an ``A`` property (after its index): from/to pairs and equity."""
    moves = []
    for value in values[1:]:
        tokens = value.split()
        if tokens[0] == "E":  # no move: the letters are empty
            tokens = ["", *tokens]
        letters = tokens[0]
        pairs = [
            (_point(letters[k], player), _point(letters[k + 1], player))
            for k in range(0, len(letters) - 1, 2)
        ]
        moves.append((pairs, float(tokens[9])))
    return moves


def _tied(equity: float, best: float) -> bool:
    """Whether a play's equity in the file equals the best play's to the file's six
    decimals: gnubg rates both best (a certain win or loss, a cube value capped at a
    cash), and which of them it lists first is only the order it generated them in."""
    return abs(equity - best) < TIE


def _gnubg_cube_equities(value: str, away: tuple[int, int], cube: int) -> tuple[float, float]:
    """gnubg's "no double" and "double, take" equities from a ``DA`` value (match play;
    normalised so that "double, pass" is +1)."""
    numbers = [float(token) for token in value.split()[7:21]]
    met = kazaross_xg2()
    return (
        met.mwc_to_equity(numbers[6], *away, cube),
        met.mwc_to_equity(numbers[13], *away, cube),
    )


def _gnubg_cube(value: str, away: tuple[int, int], cube: int) -> str:
    """gnubg's right cube action from a ``DA`` value (match play)."""
    no_double, double_take = _gnubg_cube_equities(value, away, cube)
    double_pass = 1.0
    if double_take >= no_double and double_pass >= no_double:
        return "double, take" if double_pass > double_take else "double, pass"
    if no_double > double_pass:
        return "too good"
    return "no double"


def _gnubg_cube_loss(value: str, away: tuple[int, int], decision: CubeAnalysis) -> float:
    """What the cube action taken at ``decision`` costs by gnubg's ``DA`` equities (the
    same rules as our own analysis applies to ours)."""
    no_double, double_take = _gnubg_cube_equities(value, away, decision.cube)
    doubled = min(double_take, 1.0)
    should_double = _gnubg_cube(value, away, decision.cube).startswith("double")
    if decision.action == "no double":
        return max(0.0, doubled - no_double) if should_double else 0.0
    if decision.action == "double":
        return 0.0 if should_double else max(0.0, no_double - doubled)
    if decision.action in ("take", "beaver"):
        return max(0.0, double_take - 1.0)
    return max(0.0, 1.0 - double_take)


def _model_with_gnubg_probabilities(
    decision: CubeAnalysis, value: str, away: tuple[int, int]
) -> str:
    """Our cube model's action from gnubg's own probabilities (in ``DA``)."""
    numbers = [float(token) for token in value.split()[7:12]]
    position = Position.from_position_id(decision.position_id)
    efficiency = cube_efficiency(position)
    owner = CubeOwner.CENTRED if decision.cube_owner is None else CubeOwner.PLAYER
    result = match_cube_decision(
        numbers, kazaross_xg2(), away, cube=decision.cube, owner=owner, efficiency=efficiency
    )
    return _label(result.action.value)


def _ours(decision: CubeAnalysis) -> str:
    return _label(decision.cube_action)


def _label(action: str) -> str:
    if action.startswith("too good"):
        return "too good"
    if action.startswith("no double"):
        return "no double"
    if action in ("double, beaver", "optional double, take"):
        return "double, take"
    if action == "optional double, pass":
        return "double, pass"
    return action


def agreement(
    path: Path, ply: int, engine: Engine | None = None, cubeful_search: bool = True
) -> dict[str, Any]:
    """Compare our analysis of ``path`` (by ``engine``, default the shipped one) with
    the gnubg analysis it contains. ``cubeful_search`` false: cube decisions from the
    cubeless search made cubeful at the root (the method before the cubeful search)."""
    record = read_match(path)
    theirs = [[dict(entry.annotations) for entry in game.entries] for game in record.games]
    began = time.perf_counter()
    settings = AnalysisSettings(ply=ply, cubeful_search=cubeful_search)
    analysis = analyze_match(record, settings=settings, store=False, engine=engine)
    seconds = time.perf_counter() - began
    plays = same = listed = close = ties = marked = same_mark = 0
    cost = 0.0
    luck_pairs: list[tuple[float, float]] = []
    cubes = same_cube = same_double = same_model = close_cubes = same_close_cube = 0
    takes = same_take = 0
    disagreements: list[dict[str, Any]] = []
    for game, properties in zip(analysis.games, theirs, strict=True):
        record_game = record.games[game.number - 1]
        for decision in game.decisions:
            found = properties[decision.entry]
            if isinstance(decision, CheckerAnalysis):
                if "LU" in found:
                    luck_pairs.append((decision.luck, float(found["LU"][0])))
                if not decision.counted or "A" not in found:
                    continue
                moves = _gnubg_moves(found["A"], decision.player)
                position = Position.from_position_id(decision.position_id)
                ours = _apply(position, list(decision.best.steps))
                results = [(_apply(position, steps), equity) for steps, equity in moves]
                plays += 1
                played_loss = _loss_of(_apply(position, list(decision.played.steps)), results)
                if played_loss is not None:
                    marked += 1
                    same_mark += THRESHOLDS.mark(played_loss) == decision.mark
                match = next((eq for result, eq in results if result == ours), None)
                if results and results[0][0] == ours:
                    same += 1
                elif match is not None and _tied(match, results[0][1]):
                    same += 1
                    ties += 1
                if match is not None:
                    listed += 1
                    cost += results[0][1] - match
                    close += results[0][1] - match <= CLOSE
                continue
            if "DA" not in found:
                continue
            score = record_game.score_before
            away = (
                record.length - score[decision.doubler],
                record.length - score[1 - decision.doubler],
            )
            gnubg = _gnubg_cube(found["DA"][0], away, decision.cube)
            marked += 1
            same_mark += (
                THRESHOLDS.mark(_gnubg_cube_loss(found["DA"][0], away, decision)) == decision.mark
            )
            if decision.action in ("take", "pass", "beaver"):
                takes += 1
                _, double_take = _gnubg_cube_equities(found["DA"][0], away, decision.cube)
                same_take += (double_take <= 1.0) == decision.should_take
                continue
            cubes += 1
            ours_action = _ours(decision)
            same_cube += ours_action == gnubg
            no_double, double_take = _gnubg_cube_equities(found["DA"][0], away, decision.cube)
            if min(abs(no_double - min(double_take, 1.0)), abs(double_take - 1.0)) < CLOSE_CUBE:
                close_cubes += 1
                same_close_cube += ours_action == gnubg
            same_double += decision.should_double == gnubg.startswith("double")
            same_model += _model_with_gnubg_probabilities(decision, found["DA"][0], away) == gnubg
            if ours_action != gnubg:
                disagreements.append(
                    {
                        "game": decision.game,
                        "move": decision.move_number,
                        "ours": ours_action,
                        "gnubg": gnubg,
                        "position_id": decision.position_id,
                    }
                )
    ours_luck = [a for a, _ in luck_pairs]
    gnubg_luck = [b for _, b in luck_pairs]
    return {
        "file": str(path),
        "rolls_with_luck": len(luck_pairs),
        "luck_correlation": _correlation(ours_luck, gnubg_luck),
        "luck_mean_absolute_difference": (
            sum(abs(a - b) for a, b in luck_pairs) / len(luck_pairs) if luck_pairs else None
        ),
        "ply": ply,
        "checker_plays": plays,
        "same_best_play": same,
        "same_best_play_rate": same / plays if plays else None,
        "same_best_play_by_tie": ties,
        "marked_decisions": marked,
        "same_mark": same_mark,
        "our_best_in_gnubg_list": listed,
        "mean_gnubg_cost_of_our_best": cost / listed if listed else None,
        "our_best_within_close_of_gnubg_best": close,
        "cube_decisions": cubes,
        "same_cube_action": same_cube,
        "same_cube_action_rate": same_cube / cubes if cubes else None,
        "close_cube_decisions": close_cubes,
        "same_close_cube_action": same_close_cube,
        "same_double_decision_rate": same_double / cubes if cubes else None,
        "same_cube_action_with_gnubg_probabilities_rate": same_model / cubes if cubes else None,
        "take_decisions": takes,
        "same_take_decision": same_take,
        "cube_disagreements": disagreements,
        "analysis_seconds": seconds,
        "games": len(record.games),
    }


def _gnubg_binary() -> Path | None:
    """GNU Backgammon's program (``$GNUBG``, on the path, or Debian's), if installed."""
    binary = Path(os.environ.get("GNUBG") or shutil.which("gnubg") or "/usr/games/gnubg")
    return binary if binary.exists() else None


def _run_gnubg(binary: Path, option: str, script: Path, timeout: int) -> None:
    """Run gnubg headless on a command file (``-c``) or a Python script (``-p``)."""
    subprocess.run(
        [str(binary), "-t", "-q", "-r", option, str(script)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=timeout,
    )


def gnubg_analysis(path: Path, plies: int, out: Path) -> Path | None:
    """Have GNU Backgammon analyse the match in ``path`` at ``plies`` (checker play and
    cube) and save it as SGF in ``out``; ``None`` when gnubg is not installed."""
    binary = _gnubg_binary()
    if binary is None:
        return None
    commands = out.with_suffix(".commands")
    commands.write_text(
        f"set analysis chequerplay evaluation plies {plies}\n"
        f"set analysis cubedecision evaluation plies {plies}\n"
        f"load match {path}\n"
        "analyse match\n"
        f"save match {out}\n"
    )
    _run_gnubg(binary, "-c", commands, timeout=600)
    return out if out.exists() else None


def gnubg_versus_gnubg(reference: Path, other: Path) -> dict[str, int]:
    """How often the analysis in ``other`` (the same match) picks the same best play and
    the same cube action as the one in ``reference``, on the decisions ``agreement``
    compares (our 0-ply analysis only supplies the positions, cube and scores)."""
    first, second = read_match(reference), read_match(other)
    structure = analyze_match(first, settings=AnalysisSettings(ply=0), store=False)
    plays = same = cubes = same_cube = marked = same_mark = 0
    for game, record_game, other_game in zip(
        structure.games, first.games, second.games, strict=True
    ):
        for decision in game.decisions:
            found = dict(record_game.entries[decision.entry].annotations)
            found_other = dict(other_game.entries[decision.entry].annotations)
            if isinstance(decision, CheckerAnalysis):
                if not decision.counted or "A" not in found or "A" not in found_other:
                    continue
                position = Position.from_position_id(decision.position_id)
                listed = [
                    (_apply(position, steps), equity)
                    for steps, equity in _gnubg_moves(found["A"], decision.player)
                ]
                listed_other = [
                    (_apply(position, steps), equity)
                    for steps, equity in _gnubg_moves(found_other["A"], decision.player)
                ]
                best_other = listed_other[0][0]
                played = _apply(position, list(decision.played.steps))
                losses = [_loss_of(played, entries) for entries in (listed, listed_other)]
                if losses[0] is not None and losses[1] is not None:
                    marked += 1
                    same_mark += THRESHOLDS.mark(losses[0]) == THRESHOLDS.mark(losses[1])
                plays += 1
                same += any(
                    result == best_other and _tied(equity, listed[0][1])
                    for result, equity in listed
                )
                continue
            if "DA" not in found or "DA" not in found_other:
                continue
            score = record_game.score_before
            away = (
                first.length - score[decision.doubler],
                first.length - score[1 - decision.doubler],
            )
            marked += 1
            same_mark += THRESHOLDS.mark(
                _gnubg_cube_loss(found["DA"][0], away, decision)
            ) == THRESHOLDS.mark(_gnubg_cube_loss(found_other["DA"][0], away, decision))
            if decision.action in ("take", "pass", "beaver"):
                continue
            cubes += 1
            same_cube += _gnubg_cube(found["DA"][0], away, decision.cube) == _gnubg_cube(
                found_other["DA"][0], away, decision.cube
            )
    return {
        "checker_plays": plays,
        "same_best_play": same,
        "cube_decisions": cubes,
        "same_cube_action": same_cube,
        "marked_decisions": marked,
        "same_mark": same_mark,
    }


def _loss_of(played: Position, listed: list[tuple[Position, float]]) -> float | None:
    """What the play that left ``played`` costs by a list of (result, equity), best
    first; ``None`` if the list does not have it."""
    equity = next((value for result, value in listed if result == played), None)
    return None if equity is None else listed[0][1] - equity


def _correlation(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 2:
        return None
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else None


def self_play_match(length: int, seed: int, *, doubling: bool = False) -> MatchRecord:
    """A match played by the engine against itself (intermediate level). Without
    ``doubling`` nobody doubles (the young network's cube is so eager that a 7-point
    match is often over in one game), so the match has about as many games as a real
    one; the analysis still judges every "no double"."""
    engine = Engine()
    players = [EnginePlayer.at_level(engine, "intermediate", seed + k) for k in (0, 1)]
    cube = EngineCube(engine)
    dice = SeededDice(seed)
    match = Match(length, players=("engine A", "engine B"))
    while not match.is_over():
        game = match.new_game()
        while not game.is_over():
            if game.turn is None:
                game.roll_dice(dice)
                continue
            if game.dice is None:
                if doubling and game.can_double() and cube.should_double(game):
                    game.push(Double())
                    game.push(Take() if cube.should_take(game) else Drop())
                    continue
                game.roll_dice(dice)
            turn = game.turn
            assert turn is not None and game.dice is not None
            game.push(players[turn].choose(game.position, game.dice, game.variant))
    return record_of_match(match)


def speed(length: int, seeds: list[int], ply: int) -> list[dict[str, Any]]:
    """Time the analysis of self-played ``length``-point matches, one per seed."""
    results = []
    for seed in seeds:
        record = self_play_match(length, seed)
        began = time.perf_counter()
        analyze_match(record, settings=AnalysisSettings(ply=ply), store=False)
        seconds = time.perf_counter() - began
        results.append(
            {
                "length": length,
                "seed": seed,
                "games": len(record.games),
                "actions": sum(len(game.entries) for game in record.games),
                "seconds": seconds,
                "ply": ply,
            }
        )
    return results


GNUBG_SELF_PLAY = """\
import gnubg
for line in (
    "set threads 1", "set rng mersenne", "set seed {seed}", "set display off",
    "set player 0 gnubg", "set player 1 gnubg",
    "set player 0 chequerplay evaluation plies 0", "set player 1 chequerplay evaluation plies 0",
    "set player 0 cubedecision evaluation plies 0", "set player 1 cubedecision evaluation plies 0",
    "new match {length}",
):
    gnubg.command(line)
def points(side):
    games = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)["games"]
    return sum(game["info"]["points-won"] for game in games if game["info"]["winner"] == side)
for _ in range(20000):  # "new match" plays it through; "play" resumes it if it stopped
    if max(points("X"), points("O")) >= {length}:
        break
    gnubg.command("play")
for line in (
    "set analysis chequerplay evaluation plies {plies}",
    "set analysis cubedecision evaluation plies {plies}",
    "analyse match",
    "save match {out}",
):
    gnubg.command(line)
"""
"""A gnubg Python script: a ``length``-point match of gnubg against itself at 0-ply (its
own cube), then its own ``plies``-ply analysis of it, saved as SGF."""


def gnubg_played_matches(count: int, length: int, plies: int, cache: Path) -> list[Path]:
    """``count`` ``length``-point matches GNU Backgammon plays against itself (seeds 1 ..
    ``count``), each analysed by it at ``plies``, kept in ``cache`` between runs: a wider
    and less correlated sample of cube decisions than the three reference matches."""
    binary = _gnubg_binary()
    if binary is None:
        raise SystemExit("GNU Backgammon is not installed")
    cache.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in range(1, count + 1):
        out = cache / f"selfplay_{length}pt_seed{seed}_gnubg{plies}.sgf"
        if not out.exists():
            script = out.with_suffix(".py")
            partial = out.with_suffix(".partial.sgf")
            script.write_text(
                GNUBG_SELF_PLAY.format(seed=seed, length=length, plies=plies, out=partial)
            )
            _run_gnubg(binary, "-p", script, timeout=3600)
            partial.rename(out)
        paths.append(out)
    return paths


def every_match(
    ply: int, gnubg_ply: int, cache: Path, engine: Engine, cubeful_search: bool
) -> list[dict[str, Any]]:
    """Our analysis at ``ply`` against GNU Backgammon's at ``gnubg_ply`` on every match
    of ``tests/data/reference/formats/`` (gnubg's analyses kept in ``cache``)."""
    cache.mkdir(parents=True, exist_ok=True)
    reports = []
    for match in sorted(REFERENCE.parent.glob("match*.sgf")):
        if "_analysed" in match.name:
            continue
        analysed = cache / f"{match.stem}_gnubg{gnubg_ply}.sgf"
        if not analysed.exists() and gnubg_analysis(match, gnubg_ply, analysed) is None:
            raise SystemExit("GNU Backgammon is not installed")
        reports.append(agreement(analysed, ply, engine, cubeful_search))
    return reports


def _report_every_match(reports: list[dict[str, Any]], ply: int, gnubg_ply: int) -> None:
    keys = ("plays", "same", "close", "cubes", "same_cube", "close_cubes", "same_close", "takes")
    totals = {key: 0 for key in (*keys, "take")}
    for report in reports:
        print(
            f"{Path(report['file']).name}: ours at {ply}-ply against gnubg's {gnubg_ply}-ply: "
            f"best play {report['same_best_play']}/{report['checker_plays']}, "
            f"within {CLOSE} {report['our_best_within_close_of_gnubg_best']}, "
            f"cube action {report['same_cube_action']}/{report['cube_decisions']} "
            f"(close {report['same_close_cube_action']}/{report['close_cube_decisions']}), "
            f"take/pass {report['same_take_decision']}/{report['take_decisions']} "
            f"({report['analysis_seconds']:.1f} s)"
        )
        for item in report["cube_disagreements"]:
            print(
                f"  game {item['game']} move {item['move']}: ours {item['ours']!r}, "
                f"gnubg {item['gnubg']!r} ({item['position_id']})"
            )
        totals["plays"] += report["checker_plays"]
        totals["same"] += report["same_best_play"]
        totals["close"] += report["our_best_within_close_of_gnubg_best"]
        totals["cubes"] += report["cube_decisions"]
        totals["same_cube"] += report["same_cube_action"]
        totals["close_cubes"] += report["close_cube_decisions"]
        totals["same_close"] += report["same_close_cube_action"]
        totals["takes"] += report["take_decisions"]
        totals["take"] += report["same_take_decision"]
    print(
        f"pooled: best play {totals['same']}/{totals['plays']} "
        f"({100 * totals['same'] / max(totals['plays'], 1):.1f}%), its best or within {CLOSE} "
        f"{totals['close']}/{totals['plays']} "
        f"({100 * totals['close'] / max(totals['plays'], 1):.1f}%), cube action "
        f"{totals['same_cube']}/{totals['cubes']} "
        f"({100 * totals['same_cube'] / max(totals['cubes'], 1):.1f}%; close ones, within "
        f"{CLOSE_CUBE} by gnubg's equities, {totals['same_close']}/{totals['close_cubes']} "
        f"= {100 * totals['same_close'] / max(totals['close_cubes'], 1):.1f}%), take/pass "
        f"{totals['take']}/{totals['takes']}"
    )


def main(argv: list[str] | None = None) -> None:
    """Run both parts and print a report (and JSON with ``--json``). ``argv``: the
    options (default: the command line)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=REFERENCE)
    parser.add_argument("--ply", type=int, default=0)
    parser.add_argument("--length", type=int, default=7, help="self-played match length")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--gnubg-ply",
        type=int,
        default=2,
        help="also have GNU Backgammon analyse the match at this ply, for comparison (0: no)",
    )
    parser.add_argument(
        "--weights", default=None, help="other networks (searched with the shipped pruning net)"
    )
    parser.add_argument(
        "--every-match",
        action="store_true",
        help="compare with gnubg's --gnubg-ply analysis of every match in the reference "
        "folder (pooled and per match), instead of the analysed file",
    )
    parser.add_argument(
        "--gnubg-cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "backgammon-gnubg-analyses",
        help="where --every-match keeps gnubg's analyses between runs",
    )
    parser.add_argument(
        "--root-cube",
        action="store_true",
        help="cube decisions from the cubeless search made cubeful at the root (the "
        "method before the cubeful search)",
    )
    parser.add_argument(
        "--gnubg-matches",
        type=int,
        default=0,
        help="instead: compare with gnubg's --gnubg-ply analysis of this many --length-point "
        "matches it plays against itself (kept in --gnubg-cache)",
    )
    args = parser.parse_args(argv)
    engine = Engine(args.weights)
    pruning_network = default_pruning_network()
    if args.weights is not None and pruning_network is not None:
        engine.pruning = Pruning(pruning_network, keep=PRUNING_KEEP)
    engine.rank_plays(Position.initial(), (3, 1))  # compile / load once, outside timings
    if args.every_match or args.gnubg_matches:
        if args.gnubg_matches:
            played = gnubg_played_matches(
                args.gnubg_matches, args.length, args.gnubg_ply, args.gnubg_cache
            )
            reports = [agreement(path, args.ply, engine, not args.root_cube) for path in played]
        else:
            reports = every_match(
                args.ply, args.gnubg_ply, args.gnubg_cache, engine, not args.root_cube
            )
        _report_every_match(reports, args.ply, args.gnubg_ply)
        if args.json is not None:
            args.json.write_text(json.dumps(reports, indent=2))
        return
    report = agreement(args.file, args.ply, engine, not args.root_cube)
    timings = speed(args.length, args.seeds, args.ply)
    print(f"{report['file']} ({report['games']} games), analysed at {args.ply}-ply")
    print(
        f"best play: same as gnubg in {report['same_best_play']}/{report['checker_plays']} "
        f"unforced plays ({100 * (report['same_best_play_rate'] or 0):.1f}%; target 90%; "
        f"{report['same_best_play_by_tie']} of them equal to gnubg's best by its equities)"
    )
    print(
        f"marks (none, doubtful, bad, very bad at gnubg's 0.04 / 0.08 / 0.16) of the plays and "
        f"cube actions made: same as gnubg's in {report['same_mark']}/"
        f"{report['marked_decisions']} "
        f"({100 * report['same_mark'] / max(report['marked_decisions'], 1):.1f}%)"
    )
    if report["mean_gnubg_cost_of_our_best"] is not None:
        print(
            f"  our best play is in gnubg's list {report['our_best_in_gnubg_list']} times; "
            f"by gnubg's equities in the file it costs {report['mean_gnubg_cost_of_our_best']:.4f} "
            "on average"
        )
        print(
            f"  by gnubg's equities in the file ours is its best or within {CLOSE} of it in "
            f"{report['our_best_within_close_of_gnubg_best']}/{report['checker_plays']}"
        )
    print(
        f"cube action: same as gnubg in {report['same_cube_action']}/{report['cube_decisions']} "
        f"decisions ({100 * (report['same_cube_action_rate'] or 0):.1f}%; target 95%); "
        f"double/no double {100 * (report['same_double_decision_rate'] or 0):.1f}%; "
        f"take/pass {report['same_take_decision']}/{report['take_decisions']}"
    )
    print(
        "  our cube model fed gnubg's own probabilities agrees in "
        f"{100 * (report['same_cube_action_with_gnubg_probabilities_rate'] or 0):.1f}%"
    )
    for item in report["cube_disagreements"]:
        print(
            f"  game {item['game']} move {item['move']}: ours {item['ours']!r}, "
            f"gnubg {item['gnubg']!r} ({item['position_id']})"
        )
    if report["luck_correlation"] is not None:
        print(
            f"luck of {report['rolls_with_luck']} rolls: correlation with gnubg's LU "
            f"{report['luck_correlation']:.3f}, mean absolute difference "
            f"{report['luck_mean_absolute_difference']:.4f}"
        )
    print(f"analysis of that match: {report['analysis_seconds']:.2f} s")
    deeper: dict[str, Any] = {}
    if args.gnubg_ply > 0:
        with tempfile.TemporaryDirectory() as folder:
            analysed = gnubg_analysis(args.file, args.gnubg_ply, Path(folder) / "gnubg.sgf")
            if analysed is None:
                print("GNU Backgammon is not installed: no comparison with its deeper analysis")
            else:
                deeper["gnubg_vs_file"] = gnubg_versus_gnubg(args.file, analysed)
                deeper["ours_vs_gnubg"] = agreement(analysed, args.ply, engine)
        if deeper:
            own, ours = deeper["gnubg_vs_file"], deeper["ours_vs_gnubg"]
            print(
                f"GNU Backgammon's own {args.gnubg_ply}-ply analysis of the match agrees with "
                f"the file's in {own['same_best_play']}/{own['checker_plays']} best plays "
                f"({100 * own['same_best_play'] / max(own['checker_plays'], 1):.1f}%) and "
                f"{own['same_cube_action']}/{own['cube_decisions']} cube actions "
                f"({100 * own['same_cube_action'] / max(own['cube_decisions'], 1):.1f}%); "
                f"same marks of the decisions made in {own['same_mark']}/"
                f"{own['marked_decisions']} "
                f"({100 * own['same_mark'] / max(own['marked_decisions'], 1):.1f}%)"
            )
            print(
                f"ours at {args.ply}-ply against gnubg's {args.gnubg_ply}-ply: "
                f"{ours['same_best_play']}/{ours['checker_plays']} best plays "
                f"({100 * (ours['same_best_play_rate'] or 0):.1f}%; by its equities within "
                f"{CLOSE} of its best in {ours['our_best_within_close_of_gnubg_best']}), "
                f"{ours['same_cube_action']}/{ours['cube_decisions']} cube actions "
                f"({100 * (ours['same_cube_action_rate'] or 0):.1f}%), "
                f"{ours['same_mark']}/{ours['marked_decisions']} marks"
            )
    for timing in timings:
        print(
            f"self-played {timing['length']}-point match, seed {timing['seed']} "
            f"({timing['games']} games, {timing['actions']} actions): "
            f"{timing['seconds']:.2f} s at {timing['ply']}-ply (target: under 60 s)"
        )
    if args.json is not None:
        args.json.write_text(
            json.dumps({"agreement": report, "deeper": deeper, "speed": timings}, indent=2)
        )


if __name__ == "__main__":
    main()
