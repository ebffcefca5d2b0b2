"""Numbers and text from a stranger, bounded where they are parsed (issue 50): each
case found by an outside tester, sent to one real server process as an attacker
would, while ``GET /healthz`` is asked every 0.2 s and must answer within a second.
Bad input gets a clear error naming what is wrong (a 400 or 422, a FIBS ``**`` line),
never a 500 or a dropped connection."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from .conftest import ServerProcess
from .test_tool_attacks import healthy

BOARD = (
    "board:You:someplayer:{length}:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:"
    "0:0:0:0:2:0:1:6:2:0:0:{cube}:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module (SQLite; a bot to play over FIBS)."""
    started = ServerProcess(
        tmp_path_factory.mktemp("bounds"),
        "",
        "--no-warm-up",
        "--bot-processes",
        "1",
        "--fibs-port",
        "0",
    )
    started.start()
    yield started
    started.stop()


def test_huge_numbers_in_a_fibs_board_line_are_refused_where_parsed(
    server: ServerProcess,
) -> None:
    with healthy(server.url), httpx.Client(base_url=server.url, timeout=60) as client:
        for length, cube, field in [
            (3, 1 << 29, "cube"),
            (3, 999_999_999, "cube"),
            (3, 3, "cube must be a power of two"),
            (999_999_999, 1, "match_length"),
            (32_768, 1, "match_length"),
        ]:
            line = BOARD.format(length=length, cube=cube)
            for route in ("/api/position", "/api/rollout"):
                answer = client.post(route, json={"position": line, "ply": 0})
                assert answer.status_code == 400, (route, answer.text)
                assert field in answer.json()["message"], answer.text
        fine = client.post(
            "/api/position", json={"position": BOARD.format(length=3, cube=1 << 15), "ply": 0}
        )
        assert fine.status_code == 200, fine.text
        assert fine.json()["context"]["cube"] == 1 << 15
    assert "Traceback" not in server.log.read_text()
