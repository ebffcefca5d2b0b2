"""A player's archive: ``backgammon archive``, their matches from many files analysed
and summed up."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from backgammon.apps.cli.analysis import AnalysisCubeful, AnalysisProcesses, analyze_all
from backgammon.apps.cli.common import check_outputs, say_while_compiling
from backgammon.errors import BackgammonError

if TYPE_CHECKING:
    from backgammon.analysis.archive import PlayerArchive

__all__ = ["commands"]

commands = typer.Typer()
"""The archive command, merged into the ``backgammon`` app."""


@commands.command()
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
    ply: Annotated[
        int, typer.Option(min=0, max=4, help="Lookahead of the analysis (0 = the network).")
    ] = 0,
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
    check_outputs(json=(json_output, (".json",)), html=(html_output, (".html", ".htm")))
    try:
        settings = AnalysisSettings(ply=ply, cubeful=cubeful)
        matches, skipped = read_archive(paths)
        mine = select_player(player, matches)
    except (BackgammonError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    for label, problem in skipped:
        typer.echo(f"skipped {label}: {problem}", err=True)
    say_while_compiling(ply)
    analysed = analyze_all(mine, settings, processes or os.cpu_count() or 1, weights)
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
    """The archive's tables: its matches with the totals, and its kinds; then what its
    errors have in common (the lessons' sentence)."""
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
    console.print(result.lessons.text, markup=False)
