"""The ``backgammon`` command line (also ``python -m backgammon``).

This package only assembles the app; each command group is a module of its own, and
the app lists their commands in this order:

- :mod:`~backgammon.apps.cli.play`: ``play``, ``variants``, ``selfplay``
- :mod:`~backgammon.apps.cli.files`: ``convert``, ``show``, ``moves``
- :mod:`~backgammon.apps.cli.training`: ``train``, ``distill``, ``train-prune``,
  ``train-race``
- :mod:`~backgammon.apps.cli.engine`: ``hint``, ``eval``, ``build-hypergammon``, ``cube``
- :mod:`~backgammon.apps.cli.rollouts`: ``rollout``, ``label``, ``external``
- :mod:`~backgammon.apps.cli.analysis`: ``analyze``
- :mod:`~backgammon.apps.cli.explain`: ``explain``
- :mod:`~backgammon.apps.cli.archive`: ``archive``
- :mod:`~backgammon.apps.cli.server`: ``serve``, ``verify-dice``
- :mod:`~backgammon.apps.cli.tournaments`: the ``tournament`` group

:mod:`~backgammon.apps.cli.common` holds the helpers they share.
"""

from __future__ import annotations

import shutil

import typer

from backgammon.apps.cli import (
    analysis,
    archive,
    engine,
    explain,
    files,
    play,
    rollouts,
    server,
    training,
)
from backgammon.apps.cli.tournaments import tournament_app

__all__ = ["app", "main"]

app = typer.Typer(
    help="backgammon: play, study and analyse backgammon.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
)

for _group in (play, files, training, engine, rollouts, analysis, explain, archive, server):
    app.add_typer(_group.commands)
app.add_typer(tournament_app, name="tournament")


PLAIN_HELP_BELOW = 100
"""Terminal widths (columns) under which ``--help`` is Click's plain text: rich's
option tables cut long option names (``--fibs-login-timeo…``) on a narrow
terminal, where plain text wraps the help beside each whole name."""


def main() -> None:
    """Entry point of the ``backgammon`` console script."""
    if shutil.get_terminal_size().columns < PLAIN_HELP_BELOW:
        app.rich_markup_mode = None
    app()
