"""The web client's view logic (``server/web/view.js``), by Node's test runner.

``view.test.mjs`` checks hand-made states; this test also gives it states of random
games played by the rules (:class:`LiveMatch`, as the server sends them), so that every
legal play the server lists is checked to be enterable checker by checker in the page.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from backgammon.server.live_match import LiveMatch
from backgammon.server.protocol import ActionBody, MatchSettings

WEB = Path(__file__).resolve().parents[2] / "src" / "backgammon" / "server" / "web"
NODE = shutil.which("node")


def _states_to_move(variant: str, seed: int, wanted: int) -> list[dict[str, Any]]:
    """States in which a player has dice to play, from random games of ``variant``."""
    rng = random.Random(seed)
    states: list[dict[str, Any]] = []
    now = 0.0
    while len(states) < wanted:
        settings = MatchSettings(variant=variant, length=3, clock=None)
        live = LiveMatch(f"m{seed}", settings, ("alice", "bob"), rng.randbytes(32))
        live.start(now)
        while live.result is None and len(states) < wanted:
            now += 1.0
            state = live.state(now)
            game = state["game"]
            seat = state["waiting_for"]
            pending = game["pending"]
            if pending is not None:
                action = ActionBody(kind="take" if pending["kind"] == "double" else "accept")
            elif game["dice"] is None:
                kind = "double" if game["can_double"] and rng.random() < 0.1 else "roll"
                action = ActionBody(kind=kind)
            else:
                states.append(state)
                action = ActionBody(kind="play", move=rng.choice(game["legal_plays"]))
            live.act(seat, action, now)
        seed += 1
    return states


@pytest.mark.skipif(NODE is None, reason="needs Node.js (`node`) to run view.test.mjs")
def test_view_logic_under_node(tmp_path: Path) -> None:
    states = [
        *_states_to_move("standard", 1, 300),
        *_states_to_move("nackgammon", 2, 60),
        *_states_to_move("hypergammon", 3, 60),
    ]
    fixture = tmp_path / "states.json"
    fixture.write_text(json.dumps(states))
    assert NODE is not None
    finished = subprocess.run(
        [NODE, "--test", str(WEB / "view.test.mjs")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "BG_VIEW_STATES": str(fixture)},
        check=False,
    )
    output = finished.stdout + finished.stderr
    assert finished.returncode == 0, output[-6000:]
    assert "# fail 0" in output and "# skipped 0" in output, output[-3000:]
