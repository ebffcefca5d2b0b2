"""``/metrics`` in Prometheus's text format, read as a scraper reads it."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import httpx
import pytest

from backgammon.server.client import ServerClient
from backgammon.server.metrics import CollectorPauses


@pytest.fixture
def backend() -> str:
    """The metrics are the process's own: SQLite is enough."""
    return "sqlite"


def _samples(url: str) -> tuple[dict[str, float], str]:
    text = httpx.get(f"{url}/metrics", timeout=30).text
    values = {
        line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line and not line.startswith("#")
    }
    return values, text


def _buckets(values: dict[str, float], name: str) -> list[tuple[float, float]]:
    prefix = f'{name}_bucket{{le="'
    return [
        (float("inf") if key[len(prefix) : -2] == "+Inf" else float(key[len(prefix) : -2]), count)
        for key, count in values.items()
        if key.startswith(prefix)
    ]


def test_the_latency_of_each_accepted_action_from_receipt_to_publication(
    server_factory: Any,
) -> None:
    """``backgammon_action_seconds`` is a histogram with buckets, counting every
    accepted action once (a refused one not at all)."""
    server = server_factory("--no-warm-up", "--no-bots")

    async def scenario() -> None:
        async with ServerClient(server.url) as alice, ServerClient(server.url) as bob:
            await alice.guest()
            await bob.guest()
            match_id = str((await alice.create_match(length=3, rated=False))["id"])
            await bob.join(match_id)
            for client in (alice, bob):
                await client.connect()
                await client.subscribe(match_id)
            state = alice.states[match_id]
            mover = (alice, bob)[state["waiting_for"]]
            other = (alice, bob)[1 - state["waiting_for"]]
            values, text = _samples(server.url)
            assert "# TYPE backgammon_action_seconds histogram" in text
            assert values["backgammon_action_seconds_count"] == 0
            answer = await mover.act(match_id, "play", move=state["game"]["legal_plays"][0])
            assert answer["type"] == "ack", answer
            refused = await mover.act(match_id, "roll")  # not mover's turn any more
            assert refused["type"] == "error", refused
            answer = await other.act(match_id, "roll")
            assert answer["type"] == "ack", answer

    asyncio.run(scenario())
    values, _text = _samples(server.url)
    assert values["backgammon_action_seconds_count"] == 2
    assert values["backgammon_action_seconds_sum"] > 0
    buckets = _buckets(values, "backgammon_action_seconds")
    assert len(buckets) >= 10
    bounds = [bound for bound, _count in buckets]
    counts = [count for _bound, count in buckets]
    assert bounds == sorted(bounds) and bounds[-1] == float("inf")
    assert counts == sorted(counts) and counts[-1] == 2
    # The commit histogram keeps its name and counts the opening throw as well.
    assert values['backgammon_commit_seconds_bucket{le="+Inf"}'] >= 3
    # The collector's passes: every pass timed, by generation.
    assert "# TYPE backgammon_gc_pause_seconds histogram" in _text
    for generation in range(3):
        label = f'generation="{generation}"'
        count = values[f"backgammon_gc_pause_seconds_count{{{label}}}"]
        assert values[f'backgammon_gc_pause_seconds_bucket{{{label},le="+Inf"}}'] == count


def test_the_collector_s_passes_are_timed_by_generation_while_started() -> None:
    pauses = CollectorPauses()
    pauses.start()
    pauses.start()  # once however often it is started
    try:
        for generation in (0, 1, 2, 2):
            gc.collect(generation)
    finally:
        pauses.stop()
    young, middle, full = pauses.pauses
    assert (middle.count, full.count) == (1, 2)  # young passes may also run by themselves
    assert young.count >= 1
    assert 0 < full.total < 60
    counted = [histogram.count for histogram in pauses.pauses]
    gc.collect(0)
    gc.collect(2)
    assert [histogram.count for histogram in pauses.pauses] == counted  # stopped
