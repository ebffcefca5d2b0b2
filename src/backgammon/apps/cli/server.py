"""The server's commands as a command group: ``backgammon serve`` and ``verify-dice``.

Their code lives in :mod:`backgammon.apps.server_commands`, which loads the server's
dependencies only when they run.
"""

from __future__ import annotations

import typer

from backgammon.apps.server_commands import serve, verify_dice

__all__ = ["commands"]

commands = typer.Typer()
"""The server's commands, merged into the ``backgammon`` app."""

commands.command(name="serve")(serve)
commands.command(name="verify-dice")(verify_dice)
