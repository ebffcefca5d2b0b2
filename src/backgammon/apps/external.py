"""The external-player bridge: answer GNU Backgammon's ``external`` protocol.

GNU Backgammon can let another program play one side (``set player 1 external
localhost:PORT``): it connects to that program's socket and, whenever the side must
act, sends the position as a FIBS CLIP ``board:`` line (see
:mod:`backgammon.notation.fibs_board`) and reads one line back:

* dice not rolled yet (both dice pairs 0): ``roll`` or ``double``;
* the opponent has just doubled (``was_doubled``): ``take`` or ``drop``;
* dice rolled: the play in notation (``13/11 11/10``), or an empty line when no
  checker can move.

``backgammon external --port N`` serves this on loopback with our engine;
:func:`answer` is the same decision as a pure function (used by the server and the
tests).
"""

from __future__ import annotations

import socketserver
from collections.abc import Callable

from backgammon.engine.cube import (
    CubeOwner,
    cube_efficiency,
    money_cube_decision,
)
from backgammon.engine.evaluator import Engine
from backgammon.errors import BackgammonError
from backgammon.notation.fibs_board import decode_fibs_board
from backgammon.rules.position import Position

__all__ = ["answer", "make_server", "serve"]


def _cube_owner(fields_player_may: bool, fields_opponent_may: bool, cube: int) -> CubeOwner:
    if cube == 1 or (fields_player_may and fields_opponent_may):
        return CubeOwner.CENTRED
    return CubeOwner.PLAYER if fields_player_may else CubeOwner.OPPONENT


def answer(line: str, engine: Engine, ply: int = 0) -> str:
    """The reply to one ``board:`` line, for the side whose turn it is.

    Raises:
        InvalidIdError: if the line is not a FIBS board.
    """
    fields = decode_fibs_board(line.strip())
    position = Position.from_fibs_board(line.strip())
    ours = fields.turn == fields.colour
    dice = fields.player_dice if ours else fields.opponent_dice
    if dice == (0, 0):
        dice = fields.opponent_dice if ours else fields.player_dice
    evaluation = engine.evaluate_at(position, ply)
    efficiency = cube_efficiency(position)
    if fields.was_doubled:
        # The side on roll doubled; we are asked to take from the other side.
        decision = money_cube_decision(evaluation.probabilities, CubeOwner.CENTRED, efficiency)
        return "take" if decision.take else "drop"
    if dice == (0, 0):
        may_double = fields.player_may_double if ours else fields.opponent_may_double
        if not may_double:
            return "roll"
        owner = _cube_owner(fields.player_may_double, fields.opponent_may_double, fields.cube)
        if owner is CubeOwner.OPPONENT:
            return "roll"
        decision = money_cube_decision(evaluation.probabilities, owner, efficiency)
        return "double" if decision.should_double else "roll"
    play = engine.best_play(position, dice, ply=ply)
    return "" if play.is_no_move() else play.notation()


def make_server(
    port: int, engine: Engine, *, host: str = "127.0.0.1", ply: int = 0
) -> socketserver.TCPServer:
    """A server for the protocol on ``host:port`` (``port`` 0 picks a free port; see
    ``server.server_address``). One reply line per board line; a malformed line gets
    ``error: ...``; ``exit`` closes the connection. Call ``serve_forever()`` on it."""

    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            for raw in self.rfile:
                text = raw.decode("utf-8", "replace").strip()
                if not text:
                    continue
                if text in ("exit", "quit", "bye"):
                    break
                try:
                    reply = answer(text, engine, ply)
                except BackgammonError as error:
                    reply = f"error: {error}"
                self.wfile.write((reply + "\n").encode("utf-8"))
                self.wfile.flush()

    socketserver.TCPServer.allow_reuse_address = True
    return socketserver.TCPServer((host, port), Handler)


def serve(
    port: int,
    engine: Engine,
    *,
    host: str = "127.0.0.1",
    ply: int = 0,
    ready: Callable[[int], None] | None = None,
) -> None:
    """Serve the protocol until interrupted; ``ready(port)`` once listening."""
    with make_server(port, engine, host=host, ply=ply) as server:
        if ready is not None:
            ready(server.server_address[1])
        server.serve_forever()
