"""The engine's longer jobs and its service: ``backgammon rollout``, ``label``
(rollouts of many positions) and ``external`` (GNU Backgammon's external player)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from backgammon.apps.cli.common import say_while_compiling
from backgammon.apps.cli.engine import engine_position, probabilities_line, xgid_cube
from backgammon.errors import BackgammonError

if TYPE_CHECKING:
    from backgammon.engine.rollout import RolloutSettings

__all__ = ["commands"]

commands = typer.Typer()
"""The rollout and external-player commands, merged into the ``backgammon`` app."""


@commands.command()
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

    board = engine_position(position)
    say_while_compiling(0)
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
        context = xgid_cube(position)
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
    typer.echo(f"{result.trials} trials: {probabilities_line(result.probabilities)}")
    typer.echo(f"equity {result.equity:+.4f} ± {result.standard_error:.4f} (standard error)")


@commands.command()
def label(
    positions_file: Annotated[
        Path | None,
        typer.Argument(help="Positions, one a line (Position ID, XGID or slots text)."),
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="The labels' folder (resumed if it exists).")
    ] = None,
    corpus: Annotated[
        Path | None,
        typer.Option(
            help="A corpus folder (e.g. 'corpus'): label its queue's pending chunks, or "
            "with --status / --fill, report or fill it."
        ),
    ] = None,
    status: Annotated[bool, typer.Option(help="The corpus's size by plan and kind.")] = False,
    fill: Annotated[int | None, typer.Option(help="Queue N new positions from self-play.")] = None,
    chunk_size: Annotated[int, typer.Option(help="Positions per queue chunk (--fill).")] = 100,
    minutes: Annotated[
        float | None, typer.Option(help="Start no chunk after this many minutes.")
    ] = None,
    reverse: Annotated[
        bool, typer.Option(help="Newest chunks first (another machine's share).")
    ] = False,
    chunks: Annotated[int | None, typer.Option(help="Label at most N chunks.")] = None,
    nice: Annotated[bool, typer.Option(help="Run at the lowest priority (nice 19).")] = True,
    trials: Annotated[int, typer.Option(help="Trials per position.")] = 1296,
    truncate: Annotated[
        int | None,
        typer.Option(
            help="Stop each trial after P plies (0-ply estimate); --fill: the new "
            "chunks' contact positions (default: to the end)."
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(help="Dice seed (the same dice for every position); --fill: games.")
    ] = 1,
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
    """Rollout labels of many positions: of a positions file in resumable shards under
    --out (--trials, --truncate, --seed, --shard-size), or of the queue of a corpus
    (--corpus DIR: races to the end, contact as each chunk says; a shard per chunk;
    --status, --fill N [--truncate P]), on local processes or a Ray cluster."""
    from backgammon.apps.cli.corpus import CorpusRun, fill_corpus, run_corpus, show_status

    if corpus is not None and positions_file is None:
        if status:
            show_status(corpus)
        elif fill is not None:
            fill_corpus(corpus, fill, seed, chunk_size, truncate)
        else:
            run = CorpusRun(cpus, ray, minutes, reverse, chunks, nice, weights)
            run_corpus(corpus, run)
        return
    if positions_file is None or out is None or corpus is not None:
        typer.echo("error: give POSITIONS_FILE and --out, or --corpus DIR", err=True)
        raise typer.Exit(2)
    from backgammon.engine.rollout import RolloutSettings

    try:
        settings = RolloutSettings(trials=trials, seed=seed, truncation=truncate)
    except ValueError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    label_file(positions_file, out, settings, shard_size, cpus, ray, weights)


def label_file(
    positions_file: Path,
    out: Path,
    settings: RolloutSettings,
    shard_size: int,
    cpus: int,
    ray: str | None,
    weights: str | None,
) -> None:
    """``label POSITIONS_FILE --out DIR``: resumable shards of one positions file;
    ends with the trials per second per core."""
    from rich.progress import Progress

    from backgammon.engine import Engine
    from backgammon.engine.workers import open_runner
    from backgammon.training.labelling import label_positions, read_positions

    try:
        positions = read_positions(positions_file)
        engine = Engine(weights)
        runner = open_runner(ray, cpus)
    except (OSError, ValueError, BackgammonError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    say_while_compiling(0)
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


@commands.command()
def external(
    port: Annotated[int, typer.Option(help="TCP port to listen on (loopback).")] = 30123,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    ply: Annotated[int, typer.Option(min=0, max=4, help="The engine's lookahead.")] = 0,
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
