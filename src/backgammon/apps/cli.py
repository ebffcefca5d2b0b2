"""The ``backgammon`` command line (also ``python -m backgammon``)."""

from __future__ import annotations

from typing import Annotated

import typer

from backgammon.apps.terminal_game import TerminalGame
from backgammon.engine.baseline import HeuristicPlayer, Player, RandomPlayer
from backgammon.errors import BackgammonError
from backgammon.rules.dice import DiceSource, Roll, SecureDice, SeededDice
from backgammon.rules.position import Position

__all__ = ["app", "main"]

app = typer.Typer(
    help="backgammon: play, study and analyse backgammon.",
    no_args_is_help=True,
    add_completion=False,
)


def _position_from_text(text: str) -> Position:
    """A Position ID or an XGID."""
    stripped = text.strip()
    if stripped.upper().startswith("XGID=") or ":" in stripped:
        return Position.from_xgid(stripped)
    return Position.from_position_id(stripped)


@app.command()
def play(
    seed: Annotated[int | None, typer.Option(help="Seed the dice for a reproducible game.")] = None,
    opponent: Annotated[
        str, typer.Option(help="The built-in opponent: 'heuristic' or 'random'.")
    ] = "heuristic",
    name: Annotated[str, typer.Option(help="Your name on the board.")] = "You",
) -> None:
    """Play a game against the built-in opponent, typing moves like '13/7 8/7'."""
    players: dict[str, Player] = {
        "heuristic": HeuristicPlayer(),
        "random": RandomPlayer(0 if seed is None else seed),
    }
    if opponent not in players:
        raise typer.BadParameter(f"unknown opponent {opponent!r}; choose heuristic or random")
    dice: DiceSource = SecureDice() if seed is None else SeededDice(seed)
    game = TerminalGame(players[opponent], dice, read=input, write=print, name=name)
    game.run()


@app.command()
def show(position: Annotated[str, typer.Argument(help="A Position ID or an XGID.")]) -> None:
    """Draw a position given as a GNU Backgammon Position ID or an XGID."""
    try:
        board = _position_from_text(position)
    except BackgammonError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    typer.echo(str(board))
    typer.echo(f"Position ID: {board.position_id}   XGID: {board.xgid}")


@app.command()
def moves(
    position: Annotated[str, typer.Argument(help="A Position ID or an XGID.")],
    roll: Annotated[str, typer.Option("--roll", "-r", help="The dice, e.g. 3-1.")],
) -> None:
    """List every legal play of a roll in a position."""
    try:
        board = _position_from_text(position)
        dice = Roll.parse(roll)
    except BackgammonError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    plays = board.legal_plays(dice)
    if not plays:
        typer.echo(f"{dice}: no legal play")
    for index, candidate in enumerate(plays, 1):
        typer.echo(f"{index:3}. {candidate}")


def main() -> None:
    """Entry point of the ``backgammon`` console script."""
    app()
