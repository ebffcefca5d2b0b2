"""The review page's view logic (``server/web/reviewview.js``), by Node's test runner.

``reviewview.test.mjs`` checks hand-made moves; this test also gives it the server's
own analysis of a match played by the rules (with doubles and takes), so that every
move the server sends is listed, drawn, captioned, tabled and plotted.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from backgammon.formats import write_match_text
from backgammon.server.matches.live import LiveMatch
from backgammon.server.protocol import ActionBody, MatchSettings
from backgammon.server.tools.engine_tools import analyze_upload

from .node import needs_node, run_node_tests


def _match_text(seed: int, actions: int) -> str:
    """A 5-point match of random plays (each game's first roller doubles, the other
    takes) as a .mat file, the second player leaving after ``actions`` actions."""
    rng = random.Random(seed)
    live = LiveMatch("m", MatchSettings(length=5, clock=None), ("Alice", "Bob"), rng.randbytes(32))
    live.start(0.0)
    doubled: set[int] = set()
    for now in range(1, actions):
        if live.result is not None:
            break
        state = live.state(float(now))
        game, seat = state["game"], state["waiting_for"]
        if game["pending"] is not None:
            double = game["pending"]["kind"] == "double"
            action = ActionBody(kind="take") if double else ActionBody(kind="accept")
        elif game["dice"] is None:
            double = game["can_double"] and game["number"] not in doubled
            if double:
                doubled.add(game["number"])
            action = ActionBody(kind="double" if double else "roll")
        else:
            action = ActionBody(kind="play", move=rng.choice(game["legal_plays"]))
        live.act(seat, action, float(now))
    return write_match_text(live.record(), "mat")


@needs_node
def test_review_view_logic_under_node(tmp_path: Path) -> None:
    summary, report = analyze_upload(_match_text(5, 160), "m.mat", "job", {})
    assert report.startswith("<!DOCTYPE html>")
    fixture = tmp_path / "result.json"
    fixture.write_text(json.dumps(summary))
    run_node_tests("reviewview.test.mjs", {"BG_REVIEW_RESULT": str(fixture)})
