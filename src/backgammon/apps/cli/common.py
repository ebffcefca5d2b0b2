"""Helpers shared by the command groups of :mod:`backgammon.apps.cli`: reading a
position or a match file, finding a variant, compiling the engine's kernels."""

from __future__ import annotations

import typer

from backgammon import variants
from backgammon.errors import BackgammonError
from backgammon.formats import MatchRecord, read_match
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant

__all__ = [
    "position_from_text",
    "read_match_file",
    "report_signatures",
    "say_while_compiling",
    "variant_named",
]


def position_from_text(text: str, checkers: int | None = None) -> Position:
    """A Position ID, an XGID or a slots text (IDs read with ``checkers`` a side)."""
    stripped = text.strip()
    if stripped.lower().startswith("slots:"):
        return Position.from_slots_text(stripped)
    if stripped.upper().startswith("XGID=") or ":" in stripped:
        return Position.from_xgid(stripped, checkers)
    return Position.from_position_id(stripped, checkers)


def say_while_compiling(ply: int = 0) -> None:
    """Compile (or load) the engine's kernels now, saying so on stderr when it takes
    time: on a fresh install the first run compiles them (seconds), later runs load
    them from Numba's cache."""
    from backgammon.engine.warmup import warm_up

    def progress(line: str) -> None:
        if not line.startswith("loading"):
            typer.echo(f"backgammon: {line} (first run only)", err=True)

    warm_up(min(ply, 2), progress)


def variant_named(name: str) -> Variant:
    """The variant ``--variant`` names (its error names the option)."""
    try:
        return variants.find(name)
    except KeyError as error:
        raise typer.BadParameter(str(error.args[0]), param_hint="'--variant'") from None


def read_match_file(path: str) -> MatchRecord:
    """A match file read through the rules (a clear error and exit 2 otherwise); an
    OGXM file's signatures are checked and reported on stderr."""
    try:
        record = read_match(path)
    except BackgammonError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    report_signatures(path)
    return record


def report_signatures(path: str) -> None:
    """Each signature of the OGXM matches at ``path`` (a file, a stream, a folder), on
    stderr: whether it holds."""
    from backgammon.formats.ogxm_signatures import describe_signatures, signatures_in

    for label, signatures in signatures_in(path):
        for line in describe_signatures(signatures).splitlines():
            typer.echo(f"{label}: {line}", err=True)


def check_outputs(**outputs: tuple[str | None, tuple[str, ...]]) -> None:
    """Check each output option's path (``--json=(path, (".json",))``, ...) before any
    work: a long analysis must not end in "cannot write".

    Raises:
        typer.BadParameter: naming the option and what is wrong with its path.
    """
    from backgammon.apps.output_path import check_output_path

    for option, (path, suffixes) in outputs.items():
        if path is None:
            continue
        try:
            check_output_path(path, suffixes)
        except ValueError as error:
            raise typer.BadParameter(f"--{option}: {error}") from None


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` of ``noun`` in words: "1 game", "2 games", "1 point"."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
