"""Analysing matches: ``backgammon analyze`` of one match, a folder of them or an
``.ogxms`` stream, locally or on Ray."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeAlias

import typer

from backgammon.apps.cli.common import (
    check_outputs,
    counted,
    read_match_file,
    report_signatures,
    say_while_compiling,
)
from backgammon.errors import BackgammonError
from backgammon.formats import MatchRecord, write_match

if TYPE_CHECKING:
    from rich.table import Table

    from backgammon.analysis import AnalysisSettings, MatchAnalysis
    from backgammon.engine.evaluator import Engine

__all__ = ["AnalysisCubeful", "AnalysisProcesses", "analyze_all", "commands"]

commands = typer.Typer()
"""The analysis command, merged into the ``backgammon`` app."""

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


@commands.command()
def analyze(
    file: Annotated[
        str,
        typer.Argument(
            help="A .mat, .sgf, .ogxm or eXtreme Gammon .xg match file to analyse; or a "
            "folder of them, or an .ogxms stream of many matches (one summary table)."
        ),
    ],
    ply: Annotated[
        int, typer.Option(min=0, max=4, help="Lookahead of the analysis (0 = the network).")
    ] = 0,
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
    check_outputs(
        json=(json_output, (".json",)),
        html=(html_output, (".html", ".htm")),
        sgf=(sgf_output, (".sgf",)),
        ogxm=(ogxm_output, (".ogxm",)),
    )
    record = read_match_file(file)
    try:
        settings = AnalysisSettings(ply=ply, cubeful=cubeful)
        say_while_compiling(ply)
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
    table = Table(title=f"{file}: {counted(len(record.games), 'game')} at {ply}-ply")
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
        report_signatures(path)
    except (BackgammonError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    if not matches:
        typer.echo(f"error: {path} holds no match file ({', '.join(MATCH_SUFFIXES)})", err=True)
        raise typer.Exit(2)
    say_while_compiling(ply)
    if ray is not None:
        readable = [(label, r) for label, r in matches if not isinstance(r, BackgammonError)]
        for label, record in matches:
            if isinstance(record, BackgammonError):
                typer.echo(f"skipped {label}: {record}", err=True)
        analysed = _analyze_on_runner(readable, settings, processes, weights, ray)
    else:
        analysed = analyze_all(matches, settings, processes, weights)
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
        f"{counted(len(analysed), 'match', 'matches')} ({counted(games, 'game')}) in "
        f"{seconds:.1f} s on {cores} CPUs",
        err=True,
    )
    return analysed


def analyze_all(
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
