"""The ``backgammon`` command line (also ``python -m backgammon``)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeAlias

import typer

from backgammon import variants
from backgammon.apps.selfplay import play_games
from backgammon.apps.terminal_game import TerminalGame
from backgammon.engine.baseline import HeuristicPlayer, Player, RandomPlayer
from backgammon.errors import BackgammonError
from backgammon.formats import MatchRecord, read_match, write_match
from backgammon.rules.cube import CubeRules, MatchContext
from backgammon.rules.dice import DiceSource, Roll, SecureDice, SeededDice
from backgammon.rules.game import Game, OpeningRoll
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from rich.progress import Progress
    from rich.table import Table

    from backgammon.analysis import AnalysisSettings, MatchAnalysis
    from backgammon.analysis.archive import PlayerArchive
    from backgammon.engine.cubeful import CubeContext
    from backgammon.engine.evaluator import Engine

__all__ = ["app", "main"]

app = typer.Typer(
    help="backgammon: play, study and analyse backgammon.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
)


def _position_from_text(text: str, checkers: int | None = None) -> Position:
    """A Position ID, an XGID or a slots text (IDs read with ``checkers`` a side)."""
    stripped = text.strip()
    if stripped.lower().startswith("slots:"):
        return Position.from_slots_text(stripped)
    if stripped.upper().startswith("XGID=") or ":" in stripped:
        return Position.from_xgid(stripped, checkers)
    return Position.from_position_id(stripped, checkers)


AnalysisProcesses: TypeAlias = Annotated[
    int,
    typer.Option(help="Worker processes, each analysing one game at a time (0: one per core)."),
]
AnalysisCubeful: TypeAlias = Annotated[
    bool,
    typer.Option(
        "--cubeful/--cubeless",
        help="Value checker plays and luck by cubeful equity (as GNU Backgammon does) "
        "or cubeless equity at the score.",
    ),
]


@app.command()
def play(
    seed: Annotated[int | None, typer.Option(help="Seed the dice for a reproducible game.")] = None,
    opponent: Annotated[
        str, typer.Option(help="The built-in opponent: 'engine', 'heuristic' or 'random'.")
    ] = "engine",
    level: Annotated[
        str,
        typer.Option(
            help="The engine's level: beginner, casual, intermediate, advanced, expert, worldclass."
        ),
    ] = "expert",
    name: Annotated[str, typer.Option(help="Your name on the board.")] = "You",
    match: Annotated[
        int, typer.Option("--match", help="Play a match to this many points (0: one game).")
    ] = 0,
    save: Annotated[
        str | None, typer.Option(help="Save the game or match to this .mat or .sgf file.")
    ] = None,
    jacoby: Annotated[bool, typer.Option(help="Jacoby rule (money play).")] = False,
    beavers: Annotated[bool, typer.Option(help="Allow beavers (money play).")] = False,
    variant: Annotated[
        str, typer.Option(help="The variant to play (see 'backgammon variants').")
    ] = "standard",
) -> None:
    """Play a game (or a match, with --match N) against the built-in opponent, typing
    moves like '13/7 8/7'; the cube is in play."""
    from backgammon.engine.evaluator import Engine, lookahead_supported
    from backgammon.engine.players import LEVELS, EngineCube, EnginePlayer

    if opponent not in ("engine", "heuristic", "random"):
        raise typer.BadParameter(
            f"unknown opponent {opponent!r}; choose engine, heuristic or random"
        )
    if level not in LEVELS:
        raise typer.BadParameter(f"unknown level {level!r}; choose {', '.join(LEVELS)}")
    chosen = _variant_named(variant)
    if chosen.dice != 2:
        raise typer.BadParameter(
            f"{chosen.name} throws {chosen.dice} dice; the terminal game and its engine play "
            "two-dice variants (try 'backgammon selfplay --variant tabula')"
        )
    if opponent == "engine":
        _say_while_compiling(LEVELS[level].ply)
    engine = Engine(variant=chosen)
    engine_player = EnginePlayer.at_level(engine, level, 0 if seed is None else seed)
    if not lookahead_supported(chosen):
        # Lookahead does not follow this variant's turns: it plays at 0-ply.
        engine_player = EnginePlayer(engine, 0, engine_player.noise, 0 if seed is None else seed)
    players: dict[str, Player] = {
        "engine": engine_player,
        "heuristic": HeuristicPlayer(),
        "random": RandomPlayer(0 if seed is None else seed),
    }
    if match < 0:
        raise typer.BadParameter(f"--match needs a length >= 0, got {match}")
    if save is not None and not save.lower().endswith((".mat", ".sgf")):
        raise typer.BadParameter(f"--save needs a .mat or .sgf file name, got {save!r}")
    dice: DiceSource = SecureDice() if seed is None else SeededDice(seed)
    rules = CubeRules(jacoby=jacoby, beavers=beavers)
    session = TerminalGame(
        players[opponent],
        dice,
        read=input,
        write=print,
        name=name,
        match_length=match,
        rules=rules,
        save_to=save,
        variant=chosen,
        cube_sense=EngineCube(engine) if opponent == "engine" else None,
        hints=engine,
    )
    session.run()


def _check_cubeful_search(chosen: Variant, ply: int) -> None:
    """Stop with a clear error where a cubeful search at ``ply`` cannot follow the
    variant: it generates standard backgammon's plays only."""
    if ply > 0 and not chosen.plain_movement:
        typer.echo(
            f"error: the cubeful search follows standard movement; {chosen.name} is "
            "valued cubefully at --ply 0 only",
            err=True,
        )
        raise typer.Exit(2)


def _say_while_compiling(ply: int = 0) -> None:
    """Compile (or load) the engine's kernels now, saying so on stderr when it takes
    time: on a fresh install the first run compiles them (seconds), later runs load
    them from Numba's cache."""
    from backgammon.engine.warmup import warm_up

    def progress(line: str) -> None:
        if not line.startswith("loading"):
            typer.echo(f"backgammon: {line} (first run only)", err=True)

    warm_up(min(ply, 2), progress)


def _variant_named(name: str) -> Variant:
    try:
        return variants.find(name)
    except KeyError as error:
        raise typer.BadParameter(str(error.args[0])) from None


@app.command(name="variants")
def list_variants() -> None:
    """List the variants you can play."""
    for variant in variants.all_variants():
        aliases = f" (also: {', '.join(variant.aliases)})" if variant.aliases else ""
        typer.echo(f"{variant.name:14} {variant.description}{aliases}")


@app.command()
def selfplay(
    variant: Annotated[str, typer.Option(help="The variant to play.")] = "standard",
    games: Annotated[int, typer.Option(help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game (game i: seed + i).")] = 1,
    player: Annotated[str, typer.Option(help="Both sides: 'random' or 'heuristic'.")] = "random",
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Play seeded games of a variant between built-in players and count the results."""
    chosen = _variant_named(variant)
    if games < 0:
        raise typer.BadParameter(f"--games needs a count >= 0, got {games}")
    if player not in ("random", "heuristic"):
        raise typer.BadParameter(f"unknown player {player!r}; choose random or heuristic")
    summary = play_games(chosen, games, seed, player)
    if json_output:
        typer.echo(json.dumps(summary, indent=2))
        return
    typer.echo(f"{summary['games']} games of {chosen.name} (seed {seed}, {player} players)")
    for side in (0, 1):
        counts = summary["results"][f"player{side}"]
        typer.echo(f"player {side}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    typer.echo(
        f"points {summary['points'][0]}-{summary['points'][1]}, "
        f"{summary['turns']:.1f} turns per game"
    )


def _read_match_file(path: str) -> MatchRecord:
    """A match file read through the rules (a clear error and exit 2 otherwise); an
    OGXM file's signatures are checked and reported on stderr."""
    try:
        record = read_match(path)
    except BackgammonError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    _report_signatures(path)
    return record


def _report_signatures(path: str) -> None:
    """Each signature of the OGXM matches at ``path`` (a file, a stream, a folder), on
    stderr: whether it holds."""
    from backgammon.formats.ogxm_signatures import describe_signatures, signatures_in

    for label, signatures in signatures_in(path):
        for line in describe_signatures(signatures).splitlines():
            typer.echo(f"{label}: {line}", err=True)


@app.command()
def convert(
    source: Annotated[
        str, typer.Argument(help="A .mat, .sgf, .ogxm or eXtreme Gammon .xg match file.")
    ],
    target: Annotated[str, typer.Argument(help="The .mat, .sgf or .ogxm file to write.")],
) -> None:
    """Convert a match between Jellyfish .mat, GNU Backgammon SGF, OGXM and (read
    only) eXtreme Gammon .xg, by extension (every action is checked against the rules
    on the way)."""
    record = _read_match_file(source)
    try:
        write_match(record, target)
    except OSError as error:
        typer.echo(f"error: {target}: cannot write the file: {error.strerror}", err=True)
        raise typer.Exit(2) from None
    except ValueError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    games = len(record.games)
    length = record.length or 1 << 30  # the match's last game banks what it needed
    final = "-".join(str(min(points, length)) for points in record.score)
    typer.echo(f"{source} -> {target}: {games} game{'s' * (games != 1)}, final score {final}")


@app.command()
def show(
    what: Annotated[str, typer.Argument(help="A Position ID, an XGID, or a .mat/.sgf match file.")],
    game: Annotated[
        int | None, typer.Option(help="For a match file: the game to show (1-based).")
    ] = None,
    move: Annotated[
        int | None,
        typer.Option(help="For a match file: show the board before this action (1-based)."),
    ] = None,
) -> None:
    """Draw a position, or print a match file move by move (with --game and --move, the
    board at that point)."""
    if Path(what).is_file() or _looks_like_a_path(what):
        _show_match(_read_match_file(what), game, move)
        return
    try:
        board = _position_from_text(what)
    except BackgammonError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    typer.echo(str(board))
    typer.echo(f"Position ID: {board.position_id}   XGID: {board.xgid}")


def _looks_like_a_path(text: str) -> bool:
    """A file or folder, or a match file's name (a Position ID or an XGID never ends
    in such an extension: neither holds a full stop)."""
    from backgammon.analysis.batch import MATCH_SUFFIXES

    return Path(text).exists() or text.lower().endswith(MATCH_SUFFIXES)


def _show_match(record: MatchRecord, game_number: int | None, move: int | None) -> None:
    names = record.players
    length = f"{record.length}-point match" if record.length else "money session"
    typer.echo(f"{names[0]} vs {names[1]}, {length}")
    games = record.games
    if game_number is not None:
        if not 1 <= game_number <= len(games):
            typer.echo(f"error: the match has games 1 to {len(games)}", err=True)
            raise typer.Exit(2)
        games = [games[game_number - 1]]
    for game_record in games:
        a, b = game_record.score_before
        crawford = " (Crawford)" if game_record.crawford else ""
        typer.echo(f"\nGame {game_record.number}{crawford}: {names[0]} {a}, {names[1]} {b}")
        replay = Game(
            record.info.variant,
            rules=record.info.rules,
            context=MatchContext(
                record.length, game_record.score_before, crawford=game_record.crawford
            ),
        )
        for index, entry in enumerate(game_record.entries, 1):
            if move is not None and index == move:
                typer.echo(str(replay.position_for(0)))
                typer.echo(f"Position ID: {replay.position_for(0).position_id}")
                return
            typer.echo(f"{index:4}. {names[entry.player]}: {_describe(entry.action)}")
            replay.push_unchecked(entry.action)
        outcome = game_record.outcome
        if outcome is not None:
            typer.echo(f"      {names[outcome.winner]} wins {outcome.points} point(s)")
        if move is not None:
            typer.echo(
                f"error: game {game_record.number} has {len(game_record.entries)} actions", err=True
            )
            raise typer.Exit(2)


def _describe(action: object) -> str:
    if isinstance(action, OpeningRoll):
        return f"opening roll {action.die0}-{action.die1}"
    if isinstance(action, Roll):
        return f"rolls {action}"
    if isinstance(action, Play):
        return str(action)
    return type(action).__name__.lower()


@app.command()
def moves(
    position: Annotated[
        str, typer.Argument(help="A Position ID, an XGID or a slots text (slots:...).")
    ],
    roll: Annotated[str, typer.Option("--roll", "-r", help="The dice, e.g. 3-1.")],
    variant: Annotated[
        str, typer.Option(help="Whose rules (see 'backgammon variants').")
    ] = "standard",
) -> None:
    """List every legal play of a roll in a position, under a variant's rules."""
    chosen = _variant_named(variant)
    try:
        board = _position_from_text(position)
        dice = Roll.parse(roll)
    except BackgammonError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    problems = board.problems(chosen)
    if problems:
        typer.echo(f"error: not a {chosen.name} position: {'; '.join(problems)}", err=True)
        raise typer.Exit(2)
    plays = board.legal_plays(dice, chosen)
    if not plays:
        typer.echo(f"{dice}: no legal play")
    for index, candidate in enumerate(plays, 1):
        typer.echo(f"{index:3}. {candidate}")


def main() -> None:
    """Entry point of the ``backgammon`` console script."""
    app()


@app.command()
def train(
    checkpoint: Annotated[
        str, typer.Option(help="Checkpoint folder: resumed if it exists, written as it goes.")
    ] = "training",
    games: Annotated[int, typer.Option(help="Self-play games to play in this run.")] = 10_000,
    hidden: Annotated[int, typer.Option(help="Hidden units (new runs only).")] = 128,
    alpha: Annotated[float, typer.Option(help="Initial learning rate (new runs only).")] = 0.1,
    alpha_decay: Annotated[
        float, typer.Option(help="Games over which the learning rate halves (new runs only).")
    ] = 200_000.0,
    seed: Annotated[int, typer.Option(help="Seed of weights and dice (new runs only).")] = 1,
    lam: Annotated[
        float, typer.Option(help="TD(λ) trace decay, 0 for TD(0) (new runs only).")
    ] = 0.0,
    variant: Annotated[
        str, typer.Option(help="The variant to train (new runs only).")
    ] = "standard",
    save_every: Annotated[int, typer.Option(help="Checkpoint every this many games.")] = 5_000,
    check_games: Annotated[
        int, typer.Option(help="Games against the heuristic baseline at each checkpoint (0: none).")
    ] = 200,
    start_from: Annotated[
        str | None,
        typer.Option(
            help="New runs only: start from these weights ('default': the shipped ones), "
            "widened to --hidden units if that is more."
        ),
    ] = None,
) -> None:
    """Train the engine by TD self-play, resuming from the checkpoint folder; logs
    metrics to training.csv there, with a progress bar."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from backgammon.engine.strength import match_against_baseline
    from backgammon.training import Trainer, TrainingSettings

    folder = Path(checkpoint)
    if (folder / "trainer.json").exists():
        trainer = Trainer.resume(folder)
        typer.echo(f"resuming {folder} after {trainer.games_played} games")
    else:
        initial = None
        if start_from is not None:
            from backgammon.engine.evaluator import default_networks
            from backgammon.engine.network import Networks

            initial = (
                default_networks() if start_from == "default" else Networks.load(start_from)
            ).widened(hidden, seed)
            hidden = initial.contact.hidden
        trainer = Trainer(
            TrainingSettings(
                hidden=hidden,
                alpha=alpha,
                alpha_decay=alpha_decay,
                seed=seed,
                variant=variant,
                lam=lam,
            ),
            initial,
        )
    rate = [0.0]
    with Progress(
        TextColumn("[bold]training"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} games"),
        TextColumn("{task.fields[rate]:.0f} games/s"),
        TimeRemainingColumn(),
    ) as bar:
        task = bar.add_task("train", total=games, rate=0.0)
        done = 0
        while done < games:
            block = min(save_every, games - done)

            def advance(count: int, _total: int, speed: float, base: int = done) -> None:
                rate[0] = speed
                bar.update(task, completed=base + count, rate=speed)

            results = trainer.train(block, progress=advance)
            done += block
            trainer.save(folder)
            row: dict[str, object] = {
                "games": trainer.games_played,
                "games_per_second": round(rate[0], 1),
                "mean_plies": round(float(results[:, 2].mean()), 1),
                "first_player_wins": round(float((results[:, 0] == 0).mean()), 3),
            }
            if check_games:
                ppg, error = match_against_baseline(
                    trainer.stamped(), check_games, seed=done, variant=trainer.variant
                )
                row["ppg_vs_heuristic"] = round(ppg, 3)
                row["ppg_error"] = round(error, 3)
            trainer.log(folder, row)
            bar.console.print(row)


def _counting_progress() -> Progress:
    """A progress bar for the long training steps: what, how far, how long left."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeRemainingColumn(),
    )


@app.command()
def distill(
    folder: Annotated[
        str, typer.Option(help="Work folder: positions, labels and the result; resumed.")
    ] = "distill",
    weights: Annotated[
        str | None, typer.Option(help="Weights to start from (default: the shipped ones).")
    ] = None,
    games: Annotated[int, typer.Option(help="Self-play games to collect positions from.")] = 20_000,
    plies: Annotated[int, typer.Option(help="Search depth of the labels.")] = 1,
    epochs: Annotated[int, typer.Option(help="Passes over the labelled positions.")] = 4,
    learning_rate: Annotated[float, typer.Option(help="Adam's step size.")] = 3e-4,
    explore: Annotated[
        float, typer.Option(help="Chance of a random one of the three best plays.")
    ] = 0.1,
    seed: Annotated[int, typer.Option(help="Seed of the games and the fit.")] = 1,
    also: Annotated[
        list[str] | None,
        typer.Option(help="Another distill folder, fully labelled at --plies, to fit on too."),
    ] = None,
    fit: Annotated[
        str, typer.Option(help="The networks to train, comma-separated.")
    ] = "contact,crashed,race",
    others_from: Annotated[
        str | None,
        typer.Option(help="Take the networks not trained from these weights ('default')."),
    ] = None,
) -> None:
    """Improve the networks beyond TD: label positions from the engine's own games with
    its own deeper search, and train the networks on them. Writes FOLDER/networks.npz;
    each step's result is kept in FOLDER, so an interrupted run resumes."""
    import dataclasses
    import json

    import numpy as np

    from backgammon.engine import Engine
    from backgammon.engine.evaluator import default_networks
    from backgammon.engine.network import Networks
    from backgammon.training.supervised import (
        collect_positions,
        fit_networks,
        label_positions,
    )

    work = Path(folder)
    work.mkdir(parents=True, exist_ok=True)
    engine = Engine(weights)
    positions_file = work / "positions.npy"
    if positions_file.exists():
        boards = np.load(positions_file)
    else:
        with _counting_progress() as bar:
            task = bar.add_task("collecting games", total=games)
            boards = collect_positions(
                engine, games, seed, explore, progress=lambda n: bar.advance(task, n)
            )
        np.save(positions_file, boards)
    typer.echo(f"{boards.shape[0]} positions from {games} games")
    labels_file = work / f"labels-{plies}ply.npy"
    labels = np.load(labels_file) if labels_file.exists() else np.zeros((0, 5))
    chunk = 20_000
    with _counting_progress() as bar:
        task = bar.add_task(f"labelling at {plies}-ply", total=boards.shape[0])
        bar.update(task, completed=labels.shape[0])
        while labels.shape[0] < boards.shape[0]:
            part = boards[labels.shape[0] : labels.shape[0] + chunk]
            done = label_positions(engine, part, plies, progress=lambda n: bar.advance(task, n))
            labels = np.concatenate((labels, done))
            np.save(labels_file, labels)
    for other in also or []:
        extra_boards = np.load(Path(other) / "positions.npy")
        extra_file = Path(other) / labels_file.name
        extra_labels = np.load(extra_file) if extra_file.exists() else np.zeros((0, 5))
        if extra_labels.shape[0] != extra_boards.shape[0]:
            raise typer.BadParameter(
                f"{other} has {extra_labels.shape[0]} of {extra_boards.shape[0]} positions "
                f"labelled at {plies}-ply: finish it first",
                param_hint="--also",
            )
        boards = np.concatenate((boards, extra_boards))
        labels = np.concatenate((labels, extra_labels))
        typer.echo(f"{extra_boards.shape[0]} labelled positions from {other}")
    names = [name.strip() for name in fit.split(",") if name.strip()]
    try:
        networks, reports = fit_networks(
            engine.networks,
            boards,
            labels,
            checkers=engine.variant.checkers,
            epochs=epochs,
            learning_rate=learning_rate,
            seed=seed,
            only=names,
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--fit") from None
    if others_from is not None:
        source = default_networks() if others_from == "default" else Networks.load(others_from)
        kept = {name: net for name, net in source.by_name().items() if name not in names}
        networks = networks.replace(**kept)
    for report in reports:
        typer.echo(
            f"{report.network}: {report.train_positions} positions, held-out error "
            f"{report.loss_before:.3g} -> {report.loss_after:.3g}"
        )
    before = engine.networks.metadata
    history = list(before.extra.get("distillation", []))
    history.append(
        {
            "games": games,
            "positions": int(boards.shape[0]),
            "also": list(also or []),
            "fitted": names,
            "others_from": others_from,
            "plies": plies,
            "epochs": epochs,
            "learning_rate": learning_rate,
            "seed": seed,
            "held_out": [dataclasses.asdict(r) for r in reports],
        }
    )
    metadata = dataclasses.replace(
        before,
        strength={},
        notes=f"{before.notes}; distilled from {plies}-ply labels of its own games".strip("; "),
        extra={**before.extra, "distillation": history},
    )
    networks.replace(metadata=metadata).save(work / "networks.npz")
    typer.echo(json.dumps({"weights": str(work / "networks.npz")}))


@app.command(name="train-prune")
def train_prune_command(
    out: Annotated[str, typer.Option(help="Where to write the pruning network.")],
    weights: Annotated[
        str | None, typer.Option(help="Weights whose evaluations it learns (default: shipped).")
    ] = None,
    games: Annotated[int, typer.Option(help="Self-play games to take positions from.")] = 1_500,
    hidden: Annotated[int, typer.Option(help="Hidden units.")] = 16,
    epochs: Annotated[int, typer.Option(help="Passes over the samples.")] = 8,
    seed: Annotated[int, typer.Option(help="Seed of the games and the fit.")] = 11,
) -> None:
    """Train the pruning network that lookahead search ranks plays with: it learns the
    full network's own 0-ply equities of every play of a roll, in positions from the
    engine's self-play, and reports how often the full network's best play is among
    its best k on held-out rolls."""
    import dataclasses
    import datetime

    import numpy as np

    from backgammon.engine import Engine
    from backgammon.training.pruning import (
        fit_pruning_network,
        pruning_samples,
        ranking_recall,
    )
    from backgammon.training.supervised import collect_positions

    engine = Engine(weights)
    with _counting_progress() as bar:
        task = bar.add_task("collecting games", total=games)
        boards = collect_positions(engine, games, seed, progress=lambda n: bar.advance(task, n))
    order = np.random.default_rng(seed).permutation(boards.shape[0])
    held = max(1, boards.shape[0] // 15)
    train = pruning_samples(engine, boards[order[held:]], seed)
    test = pruning_samples(engine, boards[order[:held]], seed + 1)
    with _counting_progress() as bar:
        task = bar.add_task("fitting", total=epochs)
        net, losses = fit_pruning_network(
            train, hidden, epochs, seed=seed, progress=lambda n: bar.update(task, completed=n)
        )
    recall = {str(k): round(ranking_recall(net, test, k), 4) for k in (1, 3, 5, 8)}
    metadata = {
        "trained_on": "the full network's own 0-ply equities of every play of a roll",
        "weights": weights or "shipped",
        "games": games,
        "samples": int(train.boards.shape[0]),
        "held_out_rolls": int(test.spans.shape[0]),
        "hidden": hidden,
        "epochs": epochs,
        "seed": seed,
        "mean_squared_error": [round(loss, 5) for loss in losses],
        "recall": recall,
        "trained": datetime.date.today().isoformat(),
    }
    dataclasses.replace(net, metadata=metadata).save(out)
    typer.echo(json.dumps({"pruning_network": out, "recall": recall}))


@app.command(name="train-race")
def train_race_command(
    out: Annotated[str, typer.Option(help="Where to write the weights file.")],
    weights: Annotated[
        str | None, typer.Option(help="Weights to start from (default: the shipped ones).")
    ] = None,
    games: Annotated[int, typer.Option(help="TD games per learning rate.")] = 200_000,
    seed: Annotated[int, typer.Option(help="Seed of every step.")] = 11,
) -> None:
    """Retrain the race network (the recipe of docs/training.md: TD from sampled races,
    then supervised steps on its own 1-ply labels); the other networks are kept."""
    import dataclasses

    from backgammon.engine.evaluator import default_networks
    from backgammon.engine.network import Networks
    from backgammon.training.race import improve_race_network

    start = default_networks() if weights is None else Networks.load(weights)
    improved = improve_race_network(
        start, games, seed, progress=lambda step: typer.echo(f"race network: {step}")
    )
    metadata = dataclasses.replace(
        start.metadata,
        strength={},
        extra={
            **start.metadata.extra,
            "race_training": {"games": games, "seed": seed, "command": "backgammon train-race"},
        },
    )
    improved.replace(metadata=metadata).save(out)
    typer.echo(f"wrote {out}")


def _engine_position(text: str, checkers: int | None = None) -> Position:
    try:
        return _position_from_text(text, checkers)
    except BackgammonError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None


def _is_xgid(text: str) -> bool:
    stripped = text.strip()
    return stripped.upper().startswith("XGID=") or (
        ":" in stripped and not stripped.lower().startswith("slots:")
    )


def _xgid_cube(text: str) -> CubeContext:
    """The cube context an XGID records (money centred for any other text)."""
    from backgammon.engine.cubeful import CubeContext, cube_context_from_xgid

    if not _is_xgid(text):
        return CubeContext()
    try:
        return cube_context_from_xgid(text)
    except (BackgammonError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None


def _exact_cube_rows(
    engine: Engine | None = None, context: CubeContext | None = None
) -> Callable[[npt.NDArray[np.uint8]], npt.NDArray[np.float64]] | None:
    """Exact cubeful money equities: a solved variant's (hypergammon; not with the
    Jacoby rule or beavers, which its values leave out), else the two-sided bear-off
    database's."""
    solved = None if engine is None else engine.exact
    if solved is not None:
        if context is not None and (context.jacoby or context.beavers):
            return None
        return solved.cube_equity_rows
    from backgammon.engine.bearoff import BearoffDatabase

    return BearoffDatabase.open().cube_equity_rows


def _source_words(engine: Engine) -> str:
    """What to add to a heading about where the values come from: ``", exact"`` from
    a solved database, ``", estimate"`` for a solved variant whose database is not
    built (see :func:`_echo_source_note`), else nothing."""
    source = engine.source
    if source.exact:
        return ", exact (solved database)"
    return ", estimate" if source.note else ""


def _echo_source_note(engine: Engine) -> None:
    """Print the engine's note about its values (an estimate that could be exact)."""
    note = engine.source.note
    if note:
        typer.echo(f"note: {note}")


_VARIANT_HELP = "Whose rules; hypergammon's 1-, 2- and 3-checker forms use their exact values."


def _probabilities_line(probabilities: tuple[float, ...]) -> str:
    win, wg, wbg, lg, lbg = probabilities
    return (
        f"win {win:.3f} (g {wg:.3f}, bg {wbg:.3f})  lose {1 - win:.3f} (g {lg:.3f}, bg {lbg:.3f})"
    )


@app.command()
def hint(
    position: Annotated[str, typer.Argument(help="A Position ID or an XGID.")],
    roll: Annotated[str, typer.Option("--roll", "-r", help="The dice, e.g. 3-1.")],
    ply: Annotated[int, typer.Option(help="Lookahead (0 = the network alone).")] = 0,
    top: Annotated[int, typer.Option(help="How many plays to show.")] = 10,
    weights: Annotated[str | None, typer.Option(help="A weights file.")] = None,
    variant: Annotated[str, typer.Option(help=_VARIANT_HELP)] = "standard",
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    cubeful: Annotated[
        bool,
        typer.Option(
            help="Rank by cubeful equity (the cube carried through the search), with an "
            "XGID's cube and score (money, centred cube otherwise)."
        ),
    ] = False,
) -> None:
    """Rank the plays of a roll with equities and probabilities (cubeless, or cubeful
    with --cubeful)."""
    import numpy as np

    from backgammon.engine import Engine
    from backgammon.engine.cubeful import cubeful_play_values

    chosen = _variant_named(variant)
    board = _engine_position(position, chosen.checkers)
    if cubeful:
        _check_cubeful_search(chosen, ply)
    _say_while_compiling(ply)
    engine = Engine(weights, variant=chosen)
    try:
        dice = Roll.parse(roll)
        ranked = engine.rank_plays(board, dice, ply=ply)
    except (BackgammonError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    equities = [item.equity for item in ranked]
    if cubeful:
        context = _xgid_cube(position)
        # At ply > 0 the plays the cubeless search ranked best (its move filter's
        # share) are searched again cubefully; at 0-ply every play is.
        ranked = ranked[: max(top, engine.move_filter.keep)] if ply > 0 else ranked
        children = np.stack([item.play.position.flip().to_array() for item in ranked])
        values = cubeful_play_values(
            engine.evaluate_boards,
            children,
            ply,
            context,
            engine.pruning,
            _exact_cube_rows(engine, context) if context.is_money else None,
        )
        equities = [context.normalised(float(v)) for v in values]
        order = sorted(range(len(ranked)), key=lambda k: -equities[k])
        ranked, equities = [ranked[k] for k in order], [equities[k] for k in order]
    rows = [
        {
            "play": item.play.notation(),
            "equity": round(equity, 4),
            "difference": round(equity - equities[0], 4),
            "probabilities": [round(p, 4) for p in item.evaluation.probabilities],
        }
        for item, equity in list(zip(ranked, equities, strict=True))[:top]
    ]
    if json_output:
        typer.echo(
            json.dumps(
                {
                    "position_id": board.position_id,
                    "roll": str(dice),
                    "ply": ply,
                    "source": engine.source.as_json(),
                    "plays": rows,
                },
                indent=2,
            )
        )
        return
    kind = "cubeful" if cubeful else "cubeless"
    typer.echo(f"{dice} at {ply}-ply, {kind} equity for the mover{_source_words(engine)}:")
    for index, (row, item) in enumerate(zip(rows, ranked, strict=False), 1):
        typer.echo(
            f"{index:3}. {row['play']:28} {row['equity']:+.3f} ({row['difference']:+.3f})"
            f"   {_probabilities_line(item.evaluation.probabilities)}"
        )
    _echo_source_note(engine)


@app.command(name="eval")
def evaluate(
    position: Annotated[str, typer.Argument(help="A Position ID or an XGID.")],
    ply: Annotated[int, typer.Option(help="Lookahead (0 = the network alone).")] = 0,
    weights: Annotated[str | None, typer.Option(help="A weights file.")] = None,
    variant: Annotated[str, typer.Option(help=_VARIANT_HELP)] = "standard",
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    cubeful: Annotated[
        bool,
        typer.Option(
            help="Also the cubeful equity (the side on roll's best cube action, the cube "
            "carried through the search), with an XGID's cube and score (money, centred "
            "cube otherwise)."
        ),
    ] = False,
) -> None:
    """Evaluate a position for the side on roll, before it rolls (cubeless; with
    --cubeful also cubeful)."""
    from backgammon.engine import Engine
    from backgammon.engine.cubeful import cubeful_values

    chosen = _variant_named(variant)
    board = _engine_position(position, chosen.checkers)
    if cubeful:
        _check_cubeful_search(chosen, ply)
    _say_while_compiling(ply)
    engine = Engine(weights, variant=chosen)
    try:
        result = engine.evaluate_at(board, ply)
    except (ValueError, NotImplementedError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    cubeful_equity = None
    if cubeful:
        context = _xgid_cube(position)
        value = cubeful_values(
            engine.evaluate_boards,
            board.to_array()[None, :],
            ply,
            [context],
            engine.pruning,
            _exact_cube_rows(engine, context) if context.is_money else None,
        )
        cubeful_equity = context.normalised(float(value[0, 0]))
    if json_output:
        summary = {
            "position_id": board.position_id,
            "ply": ply,
            "class": engine.classify(board).name.lower(),
            "exact": engine.exact is not None,
            "source": engine.source.as_json(),
            "probabilities": list(result.probabilities),
            "equity": result.equity,
        }
        if cubeful_equity is not None:
            summary["cubeful_equity"] = cubeful_equity
        typer.echo(json.dumps(summary, indent=2))
        return
    typer.echo(str(board))
    kind = "exact" if engine.exact is not None else engine.classify(board).name.lower()
    kind += ", estimate" if engine.source.note else ""
    typer.echo(
        f"{kind}, {ply}-ply: "
        f"{_probabilities_line(result.probabilities)}  equity {result.equity:+.3f}"
    )
    if cubeful_equity is not None:
        typer.echo(f"cubeful equity (best cube action): {cubeful_equity:+.3f}")
    _echo_source_note(engine)


@app.command(name="build-hypergammon")
def build_hypergammon(
    checkers: Annotated[int, typer.Option(help="Checkers a side: 1, 2 or 3.")] = 3,
    directory: Annotated[
        str | None, typer.Option("--dir", help="Folder for the file (default: the cache).")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="Print nothing but errors.")] = False,
) -> None:
    """Solve 1-, 2- or 3-checker hypergammon exactly and cache its database (the engine
    otherwise builds it on first use for 1 and 2 checkers): seconds for 1 and 2
    checkers, about 9 min for 3 on 2 cores (see docs/variants.md)."""
    from backgammon.engine.hypergammon import CHECKER_COUNTS, run_build

    if checkers not in CHECKER_COUNTS:
        raise typer.BadParameter(f"must be 1, 2 or 3, got {checkers}", param_hint="--checkers")
    status = run_build(checkers, directory, quiet=quiet)
    if status:
        raise typer.Exit(status)


@app.command()
def cube(
    position: Annotated[str, typer.Argument(help="A Position ID or an XGID.")],
    owner: Annotated[str, typer.Option(help="centred, player or opponent")] = "centred",
    match_length: Annotated[int, typer.Option(help="Match length (0 = money).")] = 0,
    away: Annotated[str, typer.Option(help="Away scores 'mine,theirs' in a match.")] = "",
    ply: Annotated[int, typer.Option(help="Lookahead of the evaluation.")] = 0,
    weights: Annotated[str | None, typer.Option(help="A weights file.")] = None,
    variant: Annotated[str, typer.Option(help=_VARIANT_HELP)] = "standard",
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The cube decision for the side on roll: no double / double, take / double,
    pass / too good, with cubeful equities (money or match). At ply > 0 the cube is
    carried through the search (each side's cube action before each roll; Janowski's
    model at the leaves). An XGID's own cube, score and rules are used unless
    --owner / --match-length say otherwise."""
    from backgammon.engine import Engine
    from backgammon.engine.cube import CubeOwner
    from backgammon.engine.cubeful import CubeContext, cube_decision_at
    from backgammon.engine.met import kazaross_xg2

    chosen = _variant_named(variant)
    board = _engine_position(position, chosen.checkers)
    _check_cubeful_search(chosen, ply)
    _say_while_compiling(ply)
    engine = Engine(weights, variant=chosen)
    try:
        if match_length:
            mine, theirs = (int(part) for part in away.split(","))
            context = CubeContext(owner=CubeOwner(owner), away=(mine, theirs), met=kazaross_xg2())
        elif owner != "centred" or not _is_xgid(position):
            context = CubeContext(owner=CubeOwner(owner))
        else:
            context = _xgid_cube(position)
        engine.evaluate_at(board, 0)  # a bad ply or variant is reported before the search
        probabilities = engine.evaluate_at(board, ply).probabilities
        decision = cube_decision_at(
            engine.evaluate_boards,
            board.to_array(),
            ply,
            context,
            engine.pruning,
            _exact_cube_rows(engine, context) if context.is_money else None,
        )
    except ValueError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    summary = {
        "position_id": board.position_id,
        "probabilities": list(probabilities),
        "no_double": decision.no_double,
        "double_take": decision.double_take,
        "double_pass": decision.double_pass,
        "action": decision.action.value,
        "take": decision.take,
        "source": engine.source.as_json(),
    }
    if json_output:
        typer.echo(json.dumps(summary, indent=2))
        return
    typer.echo(_probabilities_line(probabilities) + _source_words(engine))
    typer.echo(f"No double     {decision.no_double:+.3f}")
    typer.echo(f"Double, take  {decision.double_take:+.3f}")
    typer.echo(f"Double, pass  {decision.double_pass:+.3f}")
    typer.echo(f"Proper cube action: {decision.action.value}")
    _echo_source_note(engine)


@app.command()
def rollout(
    position: Annotated[str, typer.Argument(help="A Position ID or an XGID.")],
    trials: Annotated[int, typer.Option(help="Games to play (at most).")] = 1296,
    seed: Annotated[int, typer.Option(help="Dice seed.")] = 1,
    truncation: Annotated[int | None, typer.Option(help="Stop each game after N plies.")] = None,
    processes: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    stop_error: Annotated[
        float | None, typer.Option(help="Stop once the standard error is below this.")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            help="Run the trials on Ray: 'local' (a local cluster of --processes CPUs), "
            "'auto' or 'ray://HOST:PORT' (needs the cluster extra)."
        ),
    ] = None,
    cubeful: Annotated[
        bool,
        typer.Option(
            help="Roll out the cube decision: no double and double/take on the same dice, "
            "the cube played by the 0-ply cubeful model, cubeful luck subtracted; with an "
            "XGID's cube and score (money, centred cube otherwise)."
        ),
    ] = False,
    weights: Annotated[str | None, typer.Option(help="A weights file.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Rollout of a position: cubeless (variance reduction, quasi-random dice) or, with
    --cubeful, its cube decision rolled out cubefully."""
    from rich.progress import Progress

    from backgammon.engine import Engine
    from backgammon.engine.rollout import RolloutSettings, cubeful_rollout
    from backgammon.engine.rollout import rollout as run_rollout
    from backgammon.engine.workers import open_runner

    board = _engine_position(position)
    _say_while_compiling(0)
    engine = Engine(weights)
    try:
        settings = RolloutSettings(
            trials=trials,
            seed=seed,
            truncation=truncation,
            processes=processes,
            stop_error=stop_error,
        )
        runner = open_runner(ray, processes)
    except (ValueError, BackgammonError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    if cubeful:
        context = _xgid_cube(position)
        with runner, Progress(transient=True, disable=json_output) as bar:
            task = bar.add_task("cubeful rollout", total=trials)
            rolled = cubeful_rollout(
                engine.evaluate_boards,
                board,
                context,
                settings,
                lambda done, total: bar.update(task, completed=done),
                runner,
            )
        summary = {
            "position_id": board.position_id,
            "trials": rolled.trials,
            "no_double": rolled.no_double,
            "no_double_error": rolled.no_double_error,
            "double_take": rolled.double_take,
            "double_take_error": rolled.double_take_error,
            "double_pass": rolled.double_pass,
            "action": None if rolled.decision is None else rolled.decision.action.value,
        }
        if json_output:
            typer.echo(json.dumps(summary, indent=2))
            return
        typer.echo(f"{rolled.trials} trials, cubeful equities per unit of the cube:")
        typer.echo(f"No double     {rolled.no_double:+.4f} ± {rolled.no_double_error:.4f}")
        if rolled.decision is not None:
            typer.echo(f"Double, take  {rolled.double_take:+.4f} ± {rolled.double_take_error:.4f}")
            typer.echo(f"Double, pass  {rolled.double_pass:+.4f}")
            typer.echo(f"Proper cube action: {rolled.decision.action.value}")
        return
    with runner, Progress(transient=True, disable=json_output) as bar:
        task = bar.add_task("rollout", total=trials)
        result = run_rollout(
            engine.evaluate_boards,
            board,
            settings,
            lambda done, total: bar.update(task, completed=done),
            runner,
        )
    if json_output:
        typer.echo(
            json.dumps(
                {
                    "position_id": board.position_id,
                    "trials": result.trials,
                    "probabilities": list(result.probabilities),
                    "equity": result.equity,
                    "standard_error": result.standard_error,
                },
                indent=2,
            )
        )
        return
    typer.echo(f"{result.trials} trials: {_probabilities_line(result.probabilities)}")
    typer.echo(f"equity {result.equity:+.4f} ± {result.standard_error:.4f} (standard error)")


@app.command()
def label(
    positions_file: Annotated[
        Path, typer.Argument(help="Positions, one a line (Position ID, XGID or slots text).")
    ],
    out: Annotated[Path, typer.Option(help="The labels' folder (resumed if it exists).")],
    trials: Annotated[int, typer.Option(help="Trials per position.")] = 1296,
    truncate: Annotated[
        int | None, typer.Option(help="Stop each trial after P plies (0-ply estimate).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Dice seed (the same dice for every position).")] = 1,
    shard_size: Annotated[int, typer.Option(help="Positions per shard.")] = 16,
    ray: Annotated[
        str | None,
        typer.Option(
            help="Run on Ray: 'local' (a local cluster of --cpus CPUs), 'auto' or "
            "'ray://HOST:PORT' (needs the cluster extra); local processes without it."
        ),
    ] = None,
    cpus: Annotated[
        int, typer.Option(help="Local processes, or the local Ray cluster's CPUs.")
    ] = 1,
    weights: Annotated[str | None, typer.Option(help="A weights file.")] = None,
) -> None:
    """Rollout labels of many positions (truncation, variance reduction) in resumable
    shards under --out, on local processes or a Ray cluster; ends with the trials per
    second per core."""
    from rich.progress import Progress

    from backgammon.engine import Engine
    from backgammon.engine.rollout import RolloutSettings
    from backgammon.engine.workers import open_runner
    from backgammon.training.labelling import label_positions, read_positions

    try:
        positions = read_positions(positions_file)
        settings = RolloutSettings(trials=trials, seed=seed, truncation=truncate)
        engine = Engine(weights)
        runner = open_runner(ray, cpus)
    except (OSError, ValueError, BackgammonError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    _say_while_compiling(0)
    try:
        with runner, Progress() as bar:
            task = bar.add_task("labelling", total=len(positions))
            summary = label_positions(
                engine.evaluate_boards,
                positions,
                out,
                settings,
                runner,
                shard_size,
                lambda done, total: bar.update(task, completed=done),
            )
    except (OSError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    typer.echo(
        f"{summary.positions} positions in {summary.shards} shards "
        f"({summary.skipped_shards} already done); {summary.trials:,} trials in "
        f"{summary.seconds:.1f} s on {summary.cores} cores: "
        f"{summary.trials_per_second_per_core:,.1f} trials/s/core; labels in {out / 'labels.jsonl'}"
    )


@app.command()
def external(
    port: Annotated[int, typer.Option(help="TCP port to listen on (loopback).")] = 30123,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    ply: Annotated[int, typer.Option(help="The engine's lookahead.")] = 0,
    weights: Annotated[str | None, typer.Option(help="A weights file.")] = None,
) -> None:
    """Play for GNU Backgammon's 'external' player protocol (FIBS board lines over a
    socket): in gnubg, 'set player 1 external localhost:PORT'."""
    from backgammon.apps.external import serve
    from backgammon.engine import Engine

    engine = Engine(weights)
    try:
        serve(
            port,
            engine,
            host=host,
            ply=ply,
            ready=lambda bound: typer.echo(f"listening on {host}:{bound}"),
        )
    except KeyboardInterrupt:
        typer.echo("stopped")


def _largest_errors_table(analysis: MatchAnalysis, count: int) -> Table:
    """The ``count`` decisions that lost the most equity (marked ones only), largest
    first: where, who, what was done, what was right, the loss and its mark."""
    from rich.table import Table

    from backgammon.analysis import CheckerAnalysis

    marked = [decision for decision in analysis.decisions if decision.mark is not None]
    marked.sort(key=lambda decision: -decision.equity_loss)
    table = Table(title=f"Largest errors ({min(count, len(marked))} of {len(marked)})")
    for heading in ("Game", "Move", "Player", "Decision", "Right", "Loss", "Mark"):
        table.add_column(
            heading, justify="right" if heading in ("Game", "Move", "Loss") else "left"
        )
    for decision in marked[:count]:
        assert decision.mark is not None
        if isinstance(decision, CheckerAnalysis):
            done = f"{decision.roll[0]}-{decision.roll[1]}: {decision.play}"
            right = decision.best.play
        else:
            done = decision.error or decision.action
            right = decision.best_action
        table.add_row(
            str(decision.game),
            str(decision.move_number),
            analysis.players[decision.player],
            done,
            right,
            f"{decision.equity_loss:.3f}",
            decision.mark.value,
        )
    return table


@app.command()
def analyze(
    file: Annotated[
        str,
        typer.Argument(
            help="A .mat, .sgf, .ogxm or eXtreme Gammon .xg match file to analyse; or a "
            "folder of them, or an .ogxms stream of many matches (one summary table)."
        ),
    ],
    ply: Annotated[int, typer.Option(help="Lookahead of the analysis (0 = the network).")] = 0,
    json_output: Annotated[
        str | None, typer.Option("--json", help="Write the analysis as JSON to this file.")
    ] = None,
    html_output: Annotated[
        str | None, typer.Option("--html", help="Write an HTML report to this file.")
    ] = None,
    sgf_output: Annotated[
        str | None,
        typer.Option("--sgf", help="Write the match with the analysis to this .sgf file."),
    ] = None,
    ogxm_output: Annotated[
        str | None,
        typer.Option("--ogxm", help="Write the match with the analysis to this .ogxm file."),
    ] = None,
    processes: AnalysisProcesses = 0,
    weights: Annotated[str | None, typer.Option(help="A weights file.")] = None,
    cubeful: AnalysisCubeful = True,
    errors: Annotated[
        int, typer.Option(help="List this many of the largest errors (0: none).")
    ] = 10,
    ray: Annotated[
        str | None,
        typer.Option(
            help="Analyse the games on Ray, a task each: 'local' (a local cluster of "
            "--processes CPUs), 'auto' or 'ray://HOST:PORT' (needs the cluster extra)."
        ),
    ] = None,
) -> None:
    """Analyse a match: checker-play and cube errors, luck, error rates, PR and rating
    per player (GNU Backgammon's thresholds and bands)."""
    from rich.console import Console
    from rich.table import Table

    from backgammon.analysis import (
        AnalysisSettings,
        analysis_to_json,
        summarize,
        write_html_report,
    )
    from backgammon.analysis.batch import is_many
    from backgammon.engine import Engine

    if processes < 0:
        raise typer.BadParameter(f"--processes needs a count >= 0, got {processes}")
    if processes == 0:
        processes = os.cpu_count() or 1
    if errors < 0:
        raise typer.BadParameter(f"--errors needs a count >= 0, got {errors}")
    if is_many(file):
        outputs = (json_output, html_output, sgf_output, ogxm_output)
        if any(output is not None for output in outputs):
            raise typer.BadParameter("--json, --html, --sgf and --ogxm take one match, not many")
        _analyze_many(file, ply, cubeful, processes, weights, ray)
        return
    record = _read_match_file(file)
    try:
        settings = AnalysisSettings(ply=ply, cubeful=cubeful)
        _say_while_compiling(ply)
        engine = None  # the shipped networks; on Ray the engine is made per variant there
        if weights is not None and ray is None:
            engine = Engine(weights, variant=record.info.variant)
    except (BackgammonError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    if ray is not None:
        analysed = _analyze_on_runner([(file, record)], settings, processes, weights, ray)
        if not analysed:
            raise typer.Exit(2)
        analysis = analysed[0][2]
    else:
        analysis = _analyze_here(record, engine, settings, processes)
    try:
        if json_output is not None:
            from backgammon.analysis.file_analysis import with_file_analysis

            data = with_file_analysis(analysis_to_json(analysis), analysis, record)
            Path(json_output).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        if html_output is not None:
            write_html_report(analysis, html_output)
        if sgf_output is not None:
            write_match(record, sgf_output)
        if ogxm_output is not None:
            from backgammon.analysis.file_analysis import ogxm_analysis
            from backgammon.formats.ogxm import write_ogxm

            Path(ogxm_output).write_bytes(write_ogxm(record, ogxm_analysis(analysis)))
    except (OSError, ValueError, BackgammonError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    table = Table(title=f"{file}: {len(record.games)} games at {ply}-ply")
    table.add_column("")
    summaries = summarize(analysis)
    for summary in summaries:
        table.add_column(summary.name, justify="right")
    rows = [
        ("Rating", [s.rating for s in summaries]),
        ("Error rate (mEMG)", [f"{s.error_rate:.1f}" for s in summaries]),
        ("PR", [f"{s.pr:.2f}" for s in summaries]),
        ("Checker error rate", [f"{s.checker_error_rate:.1f}" for s in summaries]),
        ("Cube error rate", [f"{s.cube_error_rate:.1f}" for s in summaries]),
        ("Unforced moves", [str(s.checker_decisions) for s in summaries]),
        ("Cube decisions", [str(s.cube_decisions) for s in summaries]),
        (
            "Doubtful / bad / very bad",
            [" / ".join(str(n) for n in s.marks.values()) for s in summaries],
        ),
        ("Luck per roll", [f"{s.luck_rate:+.4f} ({s.luck_rating})" for s in summaries]),
        ("Luck-adjusted result", [f"{s.luck_adjusted_result:+.2f}" for s in summaries]),
    ]
    for label, cells in rows:
        table.add_row(label, *cells)
    Console().print(table)
    if errors > 0:
        Console().print(_largest_errors_table(analysis, errors))
    if analysis.source.note:
        typer.echo(f"note: {analysis.source.note}")


def _analyze_here(
    record: MatchRecord, engine: Engine | None, settings: AnalysisSettings, processes: int
) -> MatchAnalysis:
    """One match analysed in local processes, under a progress bar over its actions."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from backgammon.analysis import analyze_match

    with Progress(
        TextColumn("[bold]analysing"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("analyse", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            return analyze_match(
                record, engine, settings=settings, processes=processes, progress=advance
            )
        except (BackgammonError, ValueError) as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None


def _analyze_many(
    path: str, ply: int, cubeful: bool, processes: int, weights: str | None, ray: str | None
) -> None:
    """``backgammon analyze`` of a folder or an ``.ogxms`` stream: each match in turn
    with a progress bar over the matches, then one table per match and per player (a
    file that cannot be read is named and skipped)."""
    from rich.console import Console
    from rich.table import Table

    from backgammon.analysis import AnalysisSettings
    from backgammon.analysis.batch import MATCH_SUFFIXES, batch_summary, read_matches

    try:
        settings = AnalysisSettings(ply=ply, cubeful=cubeful)
        matches = list(read_matches(path))
        _report_signatures(path)
    except (BackgammonError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    if not matches:
        typer.echo(f"error: {path} holds no match file ({', '.join(MATCH_SUFFIXES)})", err=True)
        raise typer.Exit(2)
    _say_while_compiling(ply)
    if ray is not None:
        readable = [(label, r) for label, r in matches if not isinstance(r, BackgammonError)]
        for label, record in matches:
            if isinstance(record, BackgammonError):
                typer.echo(f"skipped {label}: {record}", err=True)
        analysed = _analyze_on_runner(readable, settings, processes, weights, ray)
    else:
        analysed = _analyze_all(matches, settings, processes, weights)
    if not analysed:
        typer.echo(f"error: {path}: no match could be analysed", err=True)
        raise typer.Exit(2)
    lines, players = batch_summary([(label, analysis) for label, _, analysis in analysed])
    table = Table(title=f"{path}: {len(analysed)} matches at {ply}-ply")
    for column in ("Match", "Player", "Decisions", "Error rate (mEMG)", "Luck per roll"):
        table.add_column(column, justify="left" if column in ("Match", "Player") else "right")
    for line in lines:
        table.add_row(
            line.match,
            line.player,
            str(line.decisions),
            f"{line.error_rate:.1f}",
            f"{line.luck_rate:+.4f}",
        )
    table.add_section()
    for total in players:
        table.add_row(
            f"all ({total.matches})",
            total.player,
            str(total.decisions),
            f"{total.error_rate:.1f}",
            f"{total.luck_rate:+.4f}",
        )
    Console(width=200).print(table)


def _analyze_on_runner(
    matches: Sequence[tuple[str, MatchRecord]],
    settings: AnalysisSettings,
    processes: int,
    weights: str | None,
    ray: str,
) -> list[tuple[str, MatchRecord, MatchAnalysis]]:
    """Analyse the labelled matches' games on Ray (a task each) under a progress bar
    over the games, then say how fast; a match that cannot be analysed is named
    ("skipped LABEL: why") and left out."""
    from rich.console import Console
    from rich.progress import MofNCompleteColumn, Progress, TimeRemainingColumn

    from backgammon.analysis.batch import analyze_on
    from backgammon.engine.workers import open_runner

    records = [record for _, record in matches]
    started = time.perf_counter()
    try:
        with (
            open_runner(ray, processes) as runner,
            Progress(
                *Progress.get_default_columns()[:-1],
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            ) as bar,
        ):
            cores = runner.cores
            task = bar.add_task(f"analysing games on Ray ({cores} CPUs)", total=None)
            results = analyze_on(
                runner,
                records,
                settings,
                weights,
                lambda done, total: bar.update(task, completed=done, total=total),
            )
    except (BackgammonError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    seconds = time.perf_counter() - started
    analysed = []
    for (label, record), result in zip(matches, results, strict=True):
        if isinstance(result, str):
            typer.echo(f"skipped {label}: {result}", err=True)
        else:
            analysed.append((label, record, result))
    games = sum(len(record.games) for record in records)
    typer.echo(
        f"{len(analysed)} matches ({games} games) in {seconds:.1f} s on {cores} CPUs", err=True
    )
    return analysed


def _analyze_all(
    matches: Sequence[tuple[str, MatchRecord | BackgammonError]],
    settings: AnalysisSettings,
    processes: int,
    weights: str | None,
) -> list[tuple[str, MatchRecord, MatchAnalysis]]:
    """Analyse each labelled match in turn under a progress bar over the matches (on
    stderr); a match that cannot be read or analysed is named ("skipped LABEL: why")
    and left out."""
    from rich.console import Console
    from rich.progress import MofNCompleteColumn, Progress, TimeRemainingColumn

    from backgammon.analysis import analyze_match
    from backgammon.engine import Engine

    analysed: list[tuple[str, MatchRecord, MatchAnalysis]] = []
    engines: dict[str, Engine] = {}
    with Progress(
        *Progress.get_default_columns()[:-1],
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("analysing matches", total=len(matches))
        for label, record in matches:
            bar.update(task, description=label)
            if isinstance(record, BackgammonError):
                bar.console.print(f"skipped {label}: {record}")
            else:
                try:
                    variant = record.info.variant
                    if weights is not None and variant.name not in engines:
                        engines[variant.name] = Engine(weights, variant=variant)
                    analysis = analyze_match(
                        record,
                        engines.get(variant.name),
                        settings=settings,
                        processes=processes,
                        store=False,
                    )
                    analysed.append((label, record, analysis))
                except (BackgammonError, ValueError) as error:
                    bar.console.print(f"skipped {label}: {error}")
            bar.advance(task)
    return analysed


@app.command()
def archive(
    player: Annotated[
        str,
        typer.Argument(metavar="PLAYER", help="The player's name, as the match files give it."),
    ],
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="FILES_OR_FOLDERS",
            help="Match files (.mat, .sgf, .xg, .ogxm), folders of them, .ogxms streams.",
        ),
    ],
    ply: Annotated[int, typer.Option(help="Lookahead of the analysis (0 = the network).")] = 0,
    json_output: Annotated[
        str | None, typer.Option("--json", help="Write the archive as JSON to this file.")
    ] = None,
    html_output: Annotated[
        str | None,
        typer.Option("--html", help="Write the archive as an HTML page with plots to this file."),
    ] = None,
    top: Annotated[
        int, typer.Option(help="Positions kept per kind among those missed most often.")
    ] = 10,
    processes: AnalysisProcesses = 0,
    weights: Annotated[str | None, typer.Option(help="A weights file.")] = None,
    cubeful: AnalysisCubeful = True,
) -> None:
    """A player's archive: their matches from many files analysed, with their error
    rate and luck match by match (in date order where known), by kind of position
    (bear-off, containment, race, contact, cube by match score), and the positions
    they miss most often."""
    from backgammon.analysis import AnalysisSettings
    from backgammon.analysis.archive import (
        archive_to_json,
        player_archive,
        read_archive,
        select_player,
    )
    from backgammon.analysis.archive_report import write_archive_html

    if processes < 0:
        raise typer.BadParameter(f"--processes needs a count >= 0, got {processes}")
    if top < 1:
        raise typer.BadParameter(f"--top needs a count >= 1, got {top}")
    try:
        settings = AnalysisSettings(ply=ply, cubeful=cubeful)
        matches, skipped = read_archive(paths)
        mine = select_player(player, matches)
    except (BackgammonError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    for label, problem in skipped:
        typer.echo(f"skipped {label}: {problem}", err=True)
    _say_while_compiling(ply)
    analysed = _analyze_all(mine, settings, processes or os.cpu_count() or 1, weights)
    if not analysed:
        typer.echo(f"error: no match of {player!r} could be analysed", err=True)
        raise typer.Exit(2)
    result = player_archive(player, analysed, top=top)
    try:
        if json_output is not None:
            data = archive_to_json(result)
            data["skipped"] = [{"label": label, "error": str(why)} for label, why in skipped]
            Path(json_output).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        if html_output is not None:
            write_archive_html(result, html_output)
    except OSError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    _print_archive(result, ply)


def _print_archive(result: PlayerArchive, ply: int) -> None:
    """The archive's tables: its matches with the totals, and its kinds."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{result.player}: {len(result.matches)} matches at {ply}-ply")
    for column in ("Match", "Date", "Opponent", "Result", "Decisions", "Error rate", "Luck"):
        table.add_column(
            column, justify="right" if column in ("Decisions", "Error rate", "Luck") else "left"
        )
    for match in result.matches:
        table.add_row(
            match.label,
            match.date or "-",
            match.opponent,
            {True: "won", False: "lost", None: "-"}[match.won],
            str(match.summary.decisions),
            f"{match.summary.error_rate:.1f}",
            f"{match.summary.luck_rate:+.4f}",
        )
    table.add_section()
    won, lost = result.record
    table.add_row(
        "all",
        "",
        "",
        f"{won}-{lost}",
        str(result.decisions),
        f"{result.error_rate:.1f}",
        f"{result.luck_rate:+.4f}",
    )
    kinds = Table(title="By kind (mEMG per decision)")
    for column in ("Kind", "Decisions", "Errors", "Error rate"):
        kinds.add_column(column, justify="left" if column == "Kind" else "right")
    for line in (*result.kinds, *result.cube_scores):
        name = f"cube at {line.group}" if line.group else line.kind
        kinds.add_row(name, str(line.decisions), str(line.errors), f"{line.error_rate:.1f}")
    console = Console(width=200)
    console.print(table)
    console.print(kinds)


def _register_server_commands() -> None:
    from backgammon.apps.server_commands import serve, verify_dice

    app.command(name="serve")(serve)
    app.command(name="verify-dice")(verify_dice)


_register_server_commands()


def _register_tournament_commands() -> None:
    from backgammon.apps.tournament_commands import tournament_app

    app.add_typer(tournament_app, name="tournament")


_register_tournament_commands()
