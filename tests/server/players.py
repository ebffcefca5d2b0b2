"""Scripted players for the server tests: each plays its own seat over its own
WebSocket, as a real client does, choosing random legal plays."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

from backgammon.server.client import ServerClient


@dataclass
class Policy:
    """How a scripted player behaves: doubles the first time it may in a game
    (``double_first``), always takes, plays random legal plays."""

    seed: int = 0
    double_first: bool = True
    stop_at_seq: int | None = None  # stop once the match's log reaches this length
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)


async def play_seat(
    client: ServerClient, match_id: str, seat: int, policy: Policy, timeout: float = 120.0
) -> dict[str, Any]:
    """Act for ``seat`` whenever it must, until the match ends (or its log reaches
    ``stop_at_seq`` entries); returns the last state seen. Fails on any error."""
    doubled_in: set[int] = set()
    last_seq = -1
    while True:
        state = client.states[match_id]
        if state["result"] is not None:
            return state
        if policy.stop_at_seq is not None and state["seq"] >= policy.stop_at_seq:
            return state
        if state["waiting_for"] == seat and state["seq"] != last_seq:
            last_seq = state["seq"]
            game = state["game"]
            pending = game["pending"]
            if pending is not None and pending["kind"] == "double":
                kind, fields = "take", {}
            elif game["dice"] is None:
                double = game["can_double"] and policy.double_first
                double = double and game["number"] not in doubled_in
                if double:
                    doubled_in.add(game["number"])
                kind, fields = ("double", {}) if double else ("roll", {})
            else:
                kind, fields = "play", {"move": policy.rng.choice(game["legal_plays"])}
            answer = await client.act(match_id, kind, **fields)
            assert answer["type"] == "ack", answer
            continue
        seen = state["seq"]
        mark = len(client.messages)
        await client.wait_for(
            lambda m, seen=seen: (
                m["type"] == "state" and m["match"] == match_id and m["state"]["seq"] > seen
            ),
            timeout=timeout,
            since=max(0, mark - 1),
        )


async def play_match(
    clients: tuple[ServerClient, ServerClient], match_id: str, seed: int = 0
) -> dict[str, Any]:
    """Both seats played to the end concurrently; returns the final state."""
    results = await asyncio.gather(
        play_seat(clients[0], match_id, 0, Policy(seed)),
        play_seat(clients[1], match_id, 1, Policy(seed + 1)),
    )
    return results[0]
