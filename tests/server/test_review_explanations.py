"""Each error of a review carries its explanation (issue 56): the decision's JSON
``explanation`` over HTTP, against a real server process."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from backgammon.analysis.explain import THEME_IDS
from backgammon.analysis.explain.cube import CUBE_THEME_IDS
from backgammon.analysis.explain.errors import THEME_NAMES

from .test_review import SHORT_MATCH, _wait


@pytest.fixture(scope="module")
def url(module_server_factory: Any) -> str:
    """One server for the module (SQLite is enough: nothing is stored)."""
    server = module_server_factory("--no-warm-up", "--bot-processes", "1")
    return str(server.url)


def test_each_error_of_an_upload_is_explained(url: str) -> None:
    answer = httpx.post(
        f"{url}/api/analysis", json={"text": SHORT_MATCH, "name": "short.mat"}, timeout=60
    )
    assert answer.status_code == 202, answer.text
    status = _wait(url, answer.json()["id"])
    assert status["state"] == "done", status
    result = status["result"]
    errors = result["errors"]
    assert {error["player"] for error in errors if error["kind"] == "checker"} == {"Alice", "Bob"}
    for move in result["moves"]:
        explanation = move["explanation"]
        if move["mark"] is None:
            assert explanation is None, move
            continue
        assert set(explanation) == {"kind", "text", "themes"}
        assert explanation["kind"] == move["kind"]
        ids = [theme["id"] for theme in explanation["themes"]]
        if move["kind"] == "checker":
            # "8/5 6/5 is better than 24/21 24/23 by 0.130. ..." with the themes in order.
            assert explanation["text"].startswith(f"{move['right']} is better than {move['play']}")
            assert ids and ids == [theme for theme in THEME_IDS if theme in ids]
        else:
            assert explanation["text"].startswith(f"Right: {move['cube_action']}.")
            assert set(ids) <= set(CUBE_THEME_IDS)
        for theme in explanation["themes"]:
            assert set(theme) == {"id", "name", "says"}
            assert theme["name"] == THEME_NAMES[theme["id"]]
            assert theme["says"] and isinstance(theme["says"], str)
    # The errors list is the moves' own JSON: the same explanation.
    by_index = {move["index"]: move for move in result["moves"]}
    assert all(error["explanation"] == by_index[error["index"]]["explanation"] for error in errors)
