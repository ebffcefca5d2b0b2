"""A tournament's rounds (or an arena's games) and standings as its page and its
``tournament:ID`` room show them: JSON computed from the stored record and the links
of its pairings to their matches, for :class:`~backgammon.server.tournaments.service.
TournamentService` to serve and keep.
"""

from __future__ import annotations

from typing import Any

from backgammon.server.tournaments import store
from backgammon.server.tournaments.arena import ArenaState
from backgammon.server.tournaments.model import _load_event
from backgammon.tournaments import Round
from backgammon.tournaments.tournament import RoundHistory

__all__ = ["Links"]

Links = dict[tuple[int, int], tuple[str, str, int | None]]
"""Every pairing's match: ``(round, pairing) -> (match id, status, winning seat)``."""


def _rounds_progress(
    row: store.TournamentRow, event: RoundHistory, pending: Round | None, links: Links
) -> dict[str, Any]:
    """The rounds (the one in play included, its finished matches' winners shown)
    and the standings of a round-by-round event."""
    shown = list(event.rounds)
    if pending is not None and row.status == "running":
        shown.append(pending)
    rounds = []
    for played in shown:
        pairings = []
        for index, pairing in enumerate(played.pairings):
            link = links.get((played.number, index))
            shown_pairing = pairing
            if link is not None and pairing.winner is None and link[1] == "finished":
                shown_pairing = pairing.won_by(str(pairing.players[link[2] or 0]))
            match_id = None if link is None else link[0]
            pairings.append({**shown_pairing.to_json(), "match": match_id})
        rounds.append({"number": played.number, "pairings": pairings})
    return {"rounds": rounds, "standings": [s.to_json() for s in event.standings()]}


def _progress(row: store.TournamentRow, links: Links) -> dict[str, Any]:
    """The rounds (or an arena's games) and standings of an ended tournament, or an
    arena's at this point: read from its record (a 256-player Swiss of 20 rounds
    replays in half a second, a long arena's standings take as long; the service
    runs this in a thread and keeps the result)."""
    assert row.state is not None
    if row.format == "arena":
        return _arena_progress(ArenaState.from_json(row.state), links)
    return _rounds_progress(row, _load_event(row), None, links)


def _with_scores(progress: dict[str, Any], scores: dict[str, tuple[int, int]]) -> dict[str, Any]:
    """``progress`` with each finished match's final ``score`` beside its pairing (in the
    pairing's order of players; null for a match in play and a bye). New dicts: the
    progress may be a kept one."""

    def scored(pairing: dict[str, Any]) -> dict[str, Any]:
        score = scores.get(pairing.get("match") or "")
        return {**pairing, "score": None if score is None else list(score)}

    rounds = [
        {**played, "pairings": [scored(p) for p in played["pairings"]]}
        for played in progress["rounds"]
    ]
    games = progress.get("games")
    shown = {**progress, "rounds": rounds}
    if games is not None:
        shown["games"] = [scored(game) for game in games]
    return shown


def _arena_key(row: store.TournamentRow) -> tuple[str, int, tuple[int, ...]]:
    """What an arena's view depends on: its status, how many pairings it made and
    which are still in play (a pairing is stored with its match's link, a result
    taken off ``open`` with its game)."""
    assert row.state is not None
    return row.status, len(row.state["paired"]), tuple(row.state["open"])


def _arena_progress(state: ArenaState, links: Links) -> dict[str, Any]:
    """An arena's games (in the order paired), standings and end time."""
    return {
        "rounds": [],
        "games": state.games(links),
        "standings": [standing.to_json() for standing in state.arena.standings()],
        "ends_at": state.ends_at,
    }
