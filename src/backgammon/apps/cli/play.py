"""Playing at the command line: ``backgammon play``, ``variants`` and ``selfplay``."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from backgammon import variants
from backgammon.apps.cli.common import counted, say_while_compiling, variant_named
from backgammon.apps.output_path import check_output_path
from backgammon.apps.selfplay import play_games
from backgammon.apps.terminal_game import TerminalGame
from backgammon.engine.baseline import HeuristicPlayer, Player, RandomPlayer
from backgammon.rules.cube import CubeRules
from backgammon.rules.dice import DiceSource, SecureDice, SeededDice

__all__ = ["commands"]

commands = typer.Typer()
"""The play commands, merged into the ``backgammon`` app."""


@commands.command()
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
            f"unknown opponent {opponent!r}; choose engine, heuristic or random",
            param_hint="'--opponent'",
        )
    if level not in LEVELS:
        raise typer.BadParameter(
            f"unknown level {level!r}; choose {', '.join(LEVELS)}", param_hint="'--level'"
        )
    chosen = variant_named(variant)
    if chosen.dice != 2:
        raise typer.BadParameter(
            f"{chosen.name} throws {chosen.dice} dice; the terminal game and its engine play "
            "two-dice variants (try 'backgammon selfplay --variant tabula')",
            param_hint="'--variant'",
        )
    if match < 0:
        raise typer.BadParameter(f"a length >= 0, got {match}", param_hint="'--match'")
    if save is not None:
        try:
            check_output_path(save, (".mat", ".sgf"))
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="'--save'") from None
    if opponent == "engine":
        say_while_compiling(LEVELS[level].ply)
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


@commands.command(name="variants")
def list_variants() -> None:
    """List the variants: their rules in a line, their other names, and where a variant
    cannot be played in the terminal (three dice: on the web, or in selfplay)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, header_style="bold", pad_edge=False, expand=True)
    table.add_column("Variant", no_wrap=True)
    table.add_column("Rules", ratio=3)
    table.add_column("Also", ratio=1, overflow="fold")
    for variant in variants.all_variants():
        rules = variant.description
        if variant.dice != 2:
            rules += " Not in 'backgammon play' (three dice): on the web, or in selfplay."
        table.add_row(variant.name, rules, ", ".join(variant.aliases))
    Console(soft_wrap=False).print(table)


@commands.command()
def selfplay(
    variant: Annotated[str, typer.Option(help="The variant to play.")] = "standard",
    games: Annotated[int, typer.Option(help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game (game i: seed + i).")] = 1,
    player: Annotated[str, typer.Option(help="Both sides: 'random' or 'heuristic'.")] = "random",
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Play seeded games of a variant between built-in players and count the results."""
    chosen = variant_named(variant)
    if games < 0:
        raise typer.BadParameter(f"--games needs a count >= 0, got {games}")
    if player not in ("random", "heuristic"):
        raise typer.BadParameter(f"unknown player {player!r}; choose random or heuristic")
    summary = play_games(chosen, games, seed, player)
    if json_output:
        typer.echo(json.dumps(summary, indent=2))
        return
    played = counted(summary["games"], "game")
    typer.echo(f"{played} of {chosen.name} (seed {seed}, {player} players)")
    for side in (0, 1):
        counts = summary["results"][f"player{side}"]
        typer.echo(f"player {side}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    typer.echo(
        f"points {summary['points'][0]}-{summary['points'][1]}, "
        f"{summary['turns']:.1f} turns per game"
    )
