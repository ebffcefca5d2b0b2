"""Explaining a play: ``backgammon explain ID --roll 3-1 --play "8/5 6/5"``, in words or
as the stable JSON form of :mod:`backgammon.analysis.explain`."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from backgammon.apps.cli.common import position_from_text
from backgammon.errors import BackgammonError
from backgammon.rules.dice import Roll
from backgammon.rules.play import Play
from backgammon.rules.position import Position

__all__ = ["commands"]

commands = typer.Typer()
"""The explain command, merged into the ``backgammon`` app."""


def _fail(what: str, error: Exception) -> typer.Exit:
    """Say one line naming what is wrong; the exit to raise (code 2)."""
    typer.echo(f"error: {what}: {error}", err=True)
    return typer.Exit(2)


def _read(
    position: str, roll: str, play: str, against: str | None
) -> tuple[Position, Roll, Play, Play | None]:
    """The position, roll and plays, checked before any work."""
    try:
        board = position_from_text(position)
        board.validate()
    except (BackgammonError, ValueError) as error:
        raise _fail(f"position {position!r}", error) from None
    try:
        dice = Roll.parse(roll)
    except (BackgammonError, ValueError) as error:
        raise _fail(f"roll {roll!r}", error) from None
    plays = []
    for option, text in (("--play", play), ("--against", against)):
        try:
            plays.append(None if text is None else Play.parse(text, board, dice))
        except (BackgammonError, ValueError) as error:
            raise _fail(option, error) from None
    assert plays[0] is not None
    return board, dice, plays[0], plays[1]


@commands.command()
def explain(
    position: Annotated[str, typer.Argument(help="A Position ID or an XGID.")],
    roll: Annotated[str, typer.Option("--roll", "-r", help="The dice, e.g. 3-1.")],
    play: Annotated[str, typer.Option("--play", help='The play made, e.g. "8/5 6/5".')],
    against: Annotated[
        str | None,
        typer.Option(help="The play to compare with (default: the engine's best at 0-ply)."),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print the JSON form.")] = False,
) -> None:
    """Explain why one play is better than another: both sides' plans and the themes
    (shots, points, builders, escape, duplication, race, gammons) that separate them."""
    from backgammon.analysis.explain import explain_play
    from backgammon.engine import Engine

    board, dice, played, best = _read(position, roll, play, against)
    engine = Engine()
    ranked = {item.play.position: item.equity for item in engine.rank_plays(board, dice)}
    best = best if best is not None else engine.best_play(board, dice)
    # Which of the two is better is the engine's to say (0-ply), not the order typed.
    loss = ranked[best.position] - ranked[played.position]
    explanation = explain_play(board, dice, played, best, engine=engine, equity_loss=loss)
    if json_output:
        typer.echo(json.dumps(explanation.as_json(), indent=2))
        return
    typer.echo(explanation.text)
    for theme in explanation.themes:
        typer.echo(f"- {theme.id}: {theme.says}")
