"""The external-player bridge, driven by our own client over loopback with the
FIBS board lines GNU Backgammon sent in a recorded session."""

from __future__ import annotations

import json
import socket
import threading

from backgammon import Play, Position, Roll
from backgammon.apps.external import answer, make_server
from backgammon.engine import Engine
from backgammon.notation.fibs_board import decode_fibs_board
from tests.reference import REFERENCE


def demo_lines() -> list[str]:
    path = REFERENCE / "formats" / "fibs_external_demo_log.jsonl"
    return [json.loads(line)["fibs"] for line in path.read_text().splitlines() if line.strip()]


def check_reply(line: str, reply: str) -> None:
    fields = decode_fibs_board(line)
    ours = fields.turn == fields.colour
    dice = fields.player_dice if ours else fields.opponent_dice
    if dice == (0, 0):
        dice = fields.opponent_dice if ours else fields.player_dice
    if fields.was_doubled:
        assert reply in ("take", "drop")
    elif dice == (0, 0):
        assert reply in ("roll", "double")
    else:
        position = Position.from_fibs_board(line)
        plays = position.legal_plays(Roll(*dice))
        if not plays:
            assert reply == ""
        else:
            assert Play.parse(reply, position, Roll(*dice)) in plays


def test_answers_are_legal_for_every_recorded_line() -> None:
    engine = Engine()
    lines = demo_lines()
    assert len(lines) > 100
    for line in lines:
        check_reply(line, answer(line, engine))


def test_server_over_loopback() -> None:
    engine = Engine()
    server = make_server(0, engine)
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        lines = demo_lines()[:40]
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            stream = client.makefile("rw", encoding="utf-8", newline="\n")
            for line in lines:
                stream.write(line + "\n")
                stream.flush()
                reply = stream.readline().rstrip("\n")
                check_reply(line, reply)
            stream.write("board:nonsense\n")
            stream.flush()
            assert stream.readline().startswith("error: ")
            stream.write("exit\n")
            stream.flush()
    finally:
        server.shutdown()
        server.server_close()
