"""Training the engine's networks: ``backgammon train``, ``distill``, ``train-prune``
and ``train-race``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from rich.progress import Progress

    from backgammon.engine.network import Networks

__all__ = ["commands"]

commands = typer.Typer()
"""The training commands, merged into the ``backgammon`` app."""


@commands.command()
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


@commands.command()
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
        str,
        typer.Option(
            help="The networks to train, comma-separated; a game plan's network "
            "(blitz, prime, holding, deep_anchor, back_game, other_contact) the weights "
            "lack starts as a copy of the contact network."
        ),
    ] = "contact,crashed,race",
    others_from: Annotated[
        str | None,
        typer.Option(help="Take the networks not trained from these weights ('default')."),
    ] = None,
    corpus: Annotated[
        str | None,
        typer.Option(help="A labelling corpus folder whose rollout labels are fitted on too."),
    ] = None,
    corpus_repeat: Annotated[
        int, typer.Option(min=1, max=100, help="How many times each corpus label is given.")
    ] = 1,
    corpus_untruncated_only: Annotated[
        bool,
        typer.Option(help="Only the corpus's labels rolled out to the end (no truncated contact)."),
    ] = False,
) -> None:
    """Improve the networks beyond TD: label positions from the engine's own games with
    its own deeper search (and, with --corpus, take the corpus's rollouts), and train
    the networks on them. Writes FOLDER/networks.npz; each step's result is kept in
    FOLDER, so an interrupted run resumes."""
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

    if corpus is not None and not Path(corpus).is_dir():
        raise typer.BadParameter(f"{corpus} is not a folder", param_hint="--corpus")
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
    if corpus is not None:
        boards, labels = _with_corpus(
            boards, labels, Path(corpus), corpus_repeat, corpus_untruncated_only
        )
    names = [name.strip() for name in fit.split(",") if name.strip()]
    try:
        networks, reports = fit_networks(
            _with_plan_networks(engine.networks, names),
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
        networks = networks.with_networks(kept)
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
            "corpus": corpus,
            "corpus_repeat": corpus_repeat if corpus else 0,
            "corpus_untruncated_only": bool(corpus and corpus_untruncated_only),
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


def _with_plan_networks(networks: Networks, names: list[str]) -> Networks:
    """``networks`` with each plan's network named in ``names`` that it lacks started
    as a copy of its contact network (so that play is unchanged until it is fitted)."""
    from backgammon.engine.network import PLAN_NETWORK_NAMES

    new = {
        name: networks.contact.copy()
        for name in names
        if name in PLAN_NETWORK_NAMES.values() and name not in networks.plans
    }
    return networks.with_networks(new) if new else networks


def _with_corpus(
    boards: npt.NDArray[np.uint8],
    labels: npt.NDArray[Any],
    folder: Path,
    repeat: int,
    untruncated_only: bool = False,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[Any]]:
    """The positions and labels with the corpus's rollouts added ``repeat`` times
    (only those rolled out to the end with ``untruncated_only``)."""
    import numpy as np

    from backgammon.training.corpus import Corpus, labelled_arrays

    extra_boards, extra_labels = labelled_arrays(Corpus(folder), untruncated_only)
    which = "untruncated rollout labels" if untruncated_only else "rollout labels"
    typer.echo(f"{extra_boards.shape[0]} {which} from the corpus {folder}, x{repeat}")
    return (
        np.concatenate((boards, *[extra_boards] * repeat)),
        np.concatenate((labels, *[extra_labels] * repeat)),
    )


@commands.command(name="train-prune")
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


@commands.command(name="train-race")
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
