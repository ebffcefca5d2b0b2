"""Match files and positions at the command line: ``backgammon convert``, ``show``
and ``moves``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from backgammon.apps.cli.common import (
    counted,
    position_from_text,
    read_match_file,
    variant_named,
)
from backgammon.errors import BackgammonError
from backgammon.formats import MatchRecord, write_match
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    Double,
    Drop,
    MatchContext,
    Raccoon,
    RejectResignation,
    Resign,
    Take,
)
from backgammon.rules.dice import Roll
from backgammon.rules.game import Game, OpeningRoll
from backgammon.rules.play import Play

__all__ = ["commands"]

commands = typer.Typer()
"""The match file and position commands, merged into the ``backgammon`` app."""


@commands.command()
def convert(
    source: Annotated[
        str, typer.Argument(help="A .mat, .sgf, .ogxm or eXtreme Gammon .xg match file.")
    ],
    target: Annotated[str, typer.Argument(help="The .mat, .sgf or .ogxm file to write.")],
) -> None:
    """Convert a match between Jellyfish .mat, GNU Backgammon SGF, OGXM and (read
    only) eXtreme Gammon .xg, by extension (every action is checked against the rules
    on the way)."""

    problem = _conversion_target_problem(source, target)
    if problem is not None:
        typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(2)
    record = read_match_file(source)
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


def _conversion_target_problem(source: str, target: str) -> str | None:
    """What is wrong with writing a conversion of ``source`` to ``target`` (checked
    before the source is read), or None."""
    from backgammon.apps.output_path import check_output_path

    if Path(target).suffix.lower() in (".xg", ".xgp"):
        return f"{target}: eXtreme Gammon's files are read only: write .mat, .sgf or .ogxm"
    try:
        check_output_path(target, (".mat", ".sgf", ".ogxm"))
    except ValueError as error:
        return str(error)
    if Path(target).resolve() == Path(source).resolve():
        return f"{target} is the file read: write the conversion to another file"
    return None


@commands.command()
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
        _show_match(read_match_file(what), game, move)
        return
    try:
        board = position_from_text(what)
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
            typer.echo(f"      {names[outcome.winner]} wins {counted(outcome.points, 'point')}")
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
    if isinstance(action, Resign):
        return f"resigns a {action.level.name.lower()}"
    return _ACTION_WORDS.get(type(action), type(action).__name__.lower())


_ACTION_WORDS: dict[type, str] = {
    AcceptResignation: "accepts the resignation",
    RejectResignation: "rejects the resignation",
    Double: "doubles",
    Take: "takes",
    Drop: "drops",
    Beaver: "beavers",
    Raccoon: "raccoons",
}
"""How ``show`` says the actions that are not rolls or plays."""


@commands.command()
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
    chosen = variant_named(variant)
    try:
        board = position_from_text(position)
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
