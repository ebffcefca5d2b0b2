"""Asking the engine about one position: ``backgammon hint``, ``eval``, ``cube`` and
``build-hypergammon``, with the helpers :mod:`backgammon.apps.cli.rollouts` shares."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from backgammon.apps.cli.common import position_from_text, say_while_compiling, variant_named
from backgammon.errors import BackgammonError
from backgammon.rules.dice import Roll
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from backgammon.analysis.explain.cube import CubeExplanation
    from backgammon.engine.cubeful import CubeContext
    from backgammon.engine.evaluator import Engine

__all__ = ["commands", "engine_position", "probabilities_line", "xgid_cube"]

commands = typer.Typer()
"""The engine's commands about one position, merged into the ``backgammon`` app."""


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


def engine_position(text: str, checkers: int | None = None) -> Position:
    try:
        return position_from_text(text, checkers)
    except BackgammonError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None


def _is_xgid(text: str) -> bool:
    stripped = text.strip()
    return stripped.upper().startswith("XGID=") or (
        ":" in stripped and not stripped.lower().startswith("slots:")
    )


def xgid_cube(text: str) -> CubeContext:
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


def probabilities_line(probabilities: tuple[float, ...]) -> str:
    win, wg, wbg, lg, lbg = probabilities
    return (
        f"win {win:.3f} (g {wg:.3f}, bg {wbg:.3f})  lose {1 - win:.3f} (g {lg:.3f}, bg {lbg:.3f})"
    )


@commands.command()
def hint(
    position: Annotated[str, typer.Argument(help="A Position ID or an XGID.")],
    roll: Annotated[str, typer.Option("--roll", "-r", help="The dice, e.g. 3-1.")],
    ply: Annotated[int, typer.Option(min=0, max=4, help="Lookahead (0 = the network alone).")] = 0,
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

    chosen = variant_named(variant)
    board = engine_position(position, chosen.checkers)
    if cubeful:
        _check_cubeful_search(chosen, ply)
    say_while_compiling(ply)
    engine = Engine(weights, variant=chosen)
    try:
        dice = Roll.parse(roll)
        ranked = engine.rank_plays(board, dice, ply=ply)
    except (BackgammonError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    equities = [item.equity for item in ranked]
    if cubeful:
        context = xgid_cube(position)
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
            f"   {probabilities_line(item.evaluation.probabilities)}"
        )
    _echo_source_note(engine)


@commands.command(name="eval")
def evaluate(
    position: Annotated[str, typer.Argument(help="A Position ID or an XGID.")],
    ply: Annotated[int, typer.Option(min=0, max=4, help="Lookahead (0 = the network alone).")] = 0,
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

    chosen = variant_named(variant)
    board = engine_position(position, chosen.checkers)
    if cubeful:
        _check_cubeful_search(chosen, ply)
    say_while_compiling(ply)
    engine = Engine(weights, variant=chosen)
    try:
        result = engine.evaluate_at(board, ply)
    except (ValueError, NotImplementedError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    cubeful_equity = None
    if cubeful:
        context = xgid_cube(position)
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
        f"{probabilities_line(result.probabilities)}  equity {result.equity:+.3f}"
    )
    if cubeful_equity is not None:
        typer.echo(f"cubeful equity (best cube action): {cubeful_equity:+.3f}")
    _echo_source_note(engine)


@commands.command(name="build-hypergammon")
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


_OWNERS = ("centred", "player", "opponent")


def _cube_owner(owner: str) -> str:
    """``--owner``, checked: centred, player or opponent."""
    if owner not in _OWNERS:
        raise typer.BadParameter(
            f"{owner!r} is not one of {', '.join(_OWNERS)}", param_hint="--owner"
        )
    return owner


def _aways(match_length: int, away: str) -> tuple[int, int] | None:
    """The points each side needs (``--away mine,theirs``) in a ``--match-length``
    match (its start when not given), or None for money.

    Raises:
        typer.BadParameter: a length below 0; --away without a length; an --away that
            is not two whole numbers from 1 to the length.
    """
    if match_length < 0:
        raise typer.BadParameter(f"a length >= 0, got {match_length}", param_hint="--match-length")
    if not match_length:
        if away:
            raise typer.BadParameter(
                "needs --match-length (money has no score)", param_hint="--away"
            )
        return None
    if not away:
        return (match_length, match_length)
    parts = away.split(",")
    if len(parts) != 2 or not all(part.strip().isdigit() for part in parts):
        raise typer.BadParameter(
            f"'mine,theirs': the points each side needs, such as 3,2; got {away!r}",
            param_hint="--away",
        )
    mine, theirs = (int(part) for part in parts)
    if not (1 <= mine <= match_length and 1 <= theirs <= match_length):
        raise typer.BadParameter(
            f"each side needs 1 to {match_length} points in a {match_length}-point match; "
            f"got {away!r}",
            param_hint="--away",
        )
    return mine, theirs


def _cube_reasons(
    variant: Variant, position_id: str, probabilities: Sequence[float], action: str, engine: Engine
) -> CubeExplanation | None:
    """Why ``action`` is right, in the analysis's terms (chances, gammons, the take
    point, the market), for standard backgammon (the explanation's measures are its)."""
    from backgammon.analysis.explain.cube import explain_cube_action

    if variant.name != "standard":
        return None
    return explain_cube_action(position_id, tuple(probabilities), action, engine)


@commands.command()
def cube(
    position: Annotated[str, typer.Argument(help="A Position ID or an XGID.")],
    owner: Annotated[str, typer.Option(help="centred, player or opponent")] = "centred",
    match_length: Annotated[int, typer.Option(help="Match length (0 = money).")] = 0,
    away: Annotated[str, typer.Option(help="Away scores 'mine,theirs' in a match.")] = "",
    ply: Annotated[int, typer.Option(min=0, max=4, help="Lookahead of the evaluation.")] = 0,
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

    chosen = variant_named(variant)
    board = engine_position(position, chosen.checkers)
    _check_cubeful_search(chosen, ply)
    cube_owner = _cube_owner(owner)
    aways = _aways(match_length, away)
    say_while_compiling(ply)
    engine = Engine(weights, variant=chosen)
    try:
        if aways is not None:
            context = CubeContext(owner=CubeOwner(cube_owner), away=aways, met=kazaross_xg2())
        elif owner != "centred" or not _is_xgid(position):
            context = CubeContext(owner=CubeOwner(cube_owner))
        else:
            context = xgid_cube(position)
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
    why = _cube_reasons(chosen, board.position_id, probabilities, decision.action.value, engine)
    summary = {
        "position_id": board.position_id,
        "probabilities": list(probabilities),
        "no_double": decision.no_double,
        "double_take": decision.double_take,
        "double_pass": decision.double_pass,
        "action": decision.action.value,
        "take": decision.take,
        "source": engine.source.as_json(),
        "explanation": None if why is None else why.as_json(),
    }
    if json_output:
        typer.echo(json.dumps(summary, indent=2))
        return
    typer.echo(probabilities_line(probabilities) + _source_words(engine))
    typer.echo(f"No double     {decision.no_double:+.3f}")
    typer.echo(f"Double, take  {decision.double_take:+.3f}")
    typer.echo(f"Double, pass  {decision.double_pass:+.3f}")
    typer.echo(f"Proper cube action: {decision.action.value}")
    if why is not None:
        typer.echo(f"Why: {why.text.removeprefix(f'Right: {why.action}. ')}")
    _echo_source_note(engine)
