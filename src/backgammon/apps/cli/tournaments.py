"""``backgammon tournament``: run the library's tournament formats from the command line.

A command group of :mod:`backgammon.apps.cli`, which registers it as ``tournament``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from backgammon.apps.tournament_play import (
    FORMATS,
    BotMatches,
    bot_field,
    engine_players,
    heuristic_players,
    make_tournament,
    match_count,
    random_winners,
    simulation_json,
)
from backgammon.tournaments import Tournament, play_out

__all__ = ["tournament_app"]

tournament_app = typer.Typer(
    help="Tournaments: knock-out, Swiss and round robin.", no_args_is_help=True
)


@tournament_app.command()
def simulate(
    format_name: Annotated[
        str, typer.Option("--format", help=f"The format: {', '.join(FORMATS)}.")
    ],
    players: Annotated[int, typer.Option(help="How many bots enter (2 or more).")],
    seed: Annotated[int, typer.Option(help="Seeds the pairings' draws and every result.")],
    rounds: Annotated[
        int | None,
        typer.Option(help="Rounds (Swiss: default ceil(log2 N); round robin: default all)."),
    ] = None,
    random_results: Annotated[
        bool,
        typer.Option(
            "--random-results", help="Draw each match's winner from the seed instead of playing."
        ),
    ] = False,
    length: Annotated[int, typer.Option(help="Points per match played by the bots.")] = 1,
    bot: Annotated[
        str, typer.Option(help="The bots: 'engine' (levels) or 'heuristic'.")
    ] = "engine",
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Run a tournament of N bots and print its rounds and standings (a knock-out's
    rounds are its main bracket)."""
    if bot not in ("engine", "heuristic"):
        raise typer.BadParameter(f"unknown bot {bot!r}; choose engine or heuristic")
    if length < 1:
        raise typer.BadParameter(f"--length needs a match length >= 1, got {length}")
    if players > 1024:
        raise typer.BadParameter(f"--players is at most 1024, got {players}")
    try:
        if players < 2:
            raise ValueError(f"a tournament needs at least 2 players, got {players}")
        field = bot_field(players)
        tournament = make_tournament(format_name, field, rounds, seed)
    except ValueError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    if random_results:
        play_out(tournament, random_winners(seed))
    else:
        _play_with_bots(tournament, bot, length, seed)
    summary = simulation_json(format_name, seed, tournament)
    if json_output:
        typer.echo(json.dumps(summary, indent=2))
        return
    _print_summary(summary)


def _play_with_bots(event: Tournament, bot: str, length: int, seed: int) -> None:
    """Play every match with the bots, a progress bar on stderr."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    field = event.entrants
    players = engine_players(field, seed) if bot == "engine" else heuristic_players(field)
    with Progress(
        TextColumn("matches"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("matches", total=match_count(event))
        matches = BotMatches(players, length, seed, lambda: bar.advance(task))
        play_out(event, matches)


def _print_summary(summary: dict[str, object]) -> None:
    rounds = summary["rounds"]
    standings = summary["standings"]
    assert isinstance(rounds, list) and isinstance(standings, list)
    for number, pairings in enumerate(rounds, 1):
        typer.echo(f"Round {number}")
        for pairing in pairings:
            first, second = pairing["players"]
            if second is None:
                typer.echo(f"  {first} bye")
            else:
                typer.echo(f"  {first} - {second}: {pairing['winner']} wins")
    typer.echo("Standings")
    _print_standings(standings)


def _print_standings(standings: list[dict[str, Any]]) -> None:
    """The standings as a table: place, player, points, a column for each tie-break
    under its name as people write it."""
    from rich.console import Console
    from rich.table import Table

    from backgammon.tournaments.standings import TIEBREAK_TITLES

    names = list(dict.fromkeys(name for s in standings for name in s["tiebreaks"]))
    table = Table(box=None, header_style="bold", pad_edge=False)
    for title in ("#", "Player", "Points", *(TIEBREAK_TITLES.get(n, n) for n in names)):
        table.add_column(title, justify="left" if title == "Player" else "right", overflow="fold")
    for place, standing in enumerate(standings, 1):
        breaks = [str(standing["tiebreaks"].get(name, "")) for name in names]
        table.add_row(str(place), standing["name"], str(standing["points"]), *breaks)
    Console(soft_wrap=False).print(table)
