"""The server's other engine work, run in the bots' pool (never in the event loop):
the position tool's report (:func:`position_report`) and the analysis of uploaded
match files (:func:`check_upload`, :func:`analyze_upload`).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

from backgammon.errors import BackgammonError
from backgammon.rules.dice import Roll
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant
from backgammon.server.bots import engine_for

if TYPE_CHECKING:
    from backgammon.analysis import PlayOption

__all__ = ["analyze_upload", "check_upload", "position_report", "read_position"]


def read_position(text: str) -> Position:
    """The position of a Position ID, an XGID or a FIBS ``board:`` line (what the
    position tool accepts), seen from the side on roll.

    Raises:
        ValueError: naming what is wrong with ``text`` (a :class:`BackgammonError`).
    """
    stripped = text.strip()
    if not stripped:
        raise ValueError("position: paste a Position ID, an XGID or a FIBS board: line")
    try:
        if stripped.startswith("board:"):
            return Position.from_fibs_board(stripped)
        if stripped.upper().startswith("XGID=") or ":" in stripped:
            return Position.from_xgid(stripped)
        return Position.from_position_id(stripped)
    except BackgammonError as error:
        raise ValueError(f"position: {error}") from None


def _board_json(position: Position) -> dict[str, list[int]]:
    """The two sides' checker counts (index 0 borne off, 1-24 points, 25 the bar,
    each in its own numbering) and pip counts, as the web app draws them."""
    return {
        "player": list(position.player),
        "opponent": list(position.opponent),
        "pips": list(position.pip_counts()),
    }


def position_report(
    text: str, dice: tuple[int, int] | None, ply: int, top: int = 10
) -> dict[str, Any]:
    """What the position tool shows (run in a worker): the position's IDs and board,
    its cubeless evaluation for the side on roll at ``ply``, and with ``dice`` the
    ``top`` best plays, ranked, each with its equity and resulting board.

    Raises:
        ValueError: for a bad position, roll or ply.
    """
    position = read_position(text)
    engine = engine_for("standard")
    evaluation = engine.evaluate_at(position, ply)
    report: dict[str, Any] = {
        "position_id": position.position_id,
        "xgid": position.xgid,
        "board": _board_json(position),
        "ply": ply,
        "dice": None if dice is None else list(dice),
        "evaluation": {
            "probabilities": [round(p, 4) for p in evaluation.probabilities],
            "equity": round(evaluation.equity, 4),
        },
        "plays": [],
    }
    if dice is not None:
        ranked = engine.rank_plays(position, Roll(*dice), ply=ply)
        best = ranked[0].equity
        report["plays"] = [
            {
                "play": item.play.notation(),
                "equity": round(item.equity, 4),
                "difference": round(item.equity - best, 4),
                "probabilities": [round(p, 4) for p in item.evaluation.probabilities],
                # The result as the mover sees it (the mover still at the bottom).
                "board": _board_json(item.play.position),
            }
            for item in ranked[:top]
        ]
    return report


def check_upload(text: str, name: str | None) -> int:
    """How many actions the uploaded match file has to analyse (run in a worker: it
    replays every action through the rules).

    Raises:
        ValueError: naming what is wrong with the file (a :class:`MatchFileError`).
    """
    from backgammon.formats import read_match_text

    try:
        record = read_match_text(text, path=name)
    except BackgammonError as error:
        raise ValueError(str(error)) from None
    return sum(len(game.entries) for game in record.games)


def _steps(position: Position, roll: Roll, option: PlayOption, variant: Variant) -> list[list[int]]:
    """A play's single-die steps ``[[from, to], ...]`` in the mover's numbering (25 the
    bar, 0 off); a play known only by its notation is found among the legal plays."""
    steps = option.steps
    if not steps and option.play != "Ø":
        found = next(
            (play for play in position.legal_plays(roll, variant) if str(play) == option.play),
            None,
        )
        if found is not None:
            steps = tuple((step.source, step.destination) for step in found.steps)
    return [[source, destination] for source, destination in steps]


def analyze_upload(
    text: str, name: str | None, job: str, board: MutableMapping[str, tuple[int, int]]
) -> dict[str, Any]:
    """The 0-ply analysis of an uploaded match file (run in a worker), summarised for
    the review page: each player's statistics and the marked decisions in move order,
    each with the board before it seen from the player who erred (as
    :func:`position_report` gives boards), the cube (its owner ``"player"``,
    ``"opponent"`` or ``None``) and, for a checker play, the ``dice`` and the ``played``
    and ``best`` plays as single-die steps ``[[from, to], ...]`` in that player's
    numbering (25 the bar, 0 off).
    Progress goes to ``board[job]`` as ``(done, total)`` actions (a shared mapping).

    Raises:
        ValueError: naming what is wrong with the file.
    """
    from backgammon.analysis import AnalysisSettings, CheckerAnalysis, analyze_match, summarize
    from backgammon.formats import read_match_text

    try:
        record = read_match_text(text, path=name)
    except BackgammonError as error:
        raise ValueError(str(error)) from None
    shown = [-1]

    def progress(done: int, total: int) -> None:
        # Every percent or so: the mapping may live in another process.
        if done == total or done - shown[0] >= max(1, total // 100):
            shown[0] = done
            board[job] = (done, total)

    engine = engine_for(record.info.variant.name)
    analysis = analyze_match(
        record, engine, settings=AnalysisSettings(ply=0), progress=progress, store=False
    )
    players = [
        {
            "name": summary.name,
            "error_rate": round(summary.error_rate, 1),
            "pr": round(summary.pr, 2),
            "rating": summary.rating,
            "checker_error_rate": round(summary.checker_error_rate, 1),
            "cube_error_rate": round(summary.cube_error_rate, 1),
            "decisions": summary.decisions,
            "marks": summary.marks,
            "luck_rate": round(summary.luck_rate, 4),
            "luck_rating": summary.luck_rating,
            "luck_adjusted_result": round(summary.luck_adjusted_result, 2),
        }
        for summary in summarize(analysis)
    ]
    errors = []
    for decision in analysis.decisions:
        if decision.mark is None:
            continue
        position = analysis.position(decision)  # seen from the mover or the doubler
        if isinstance(decision, CheckerAnalysis):
            done = f"{decision.roll[0]}-{decision.roll[1]}: {decision.play}"
            right = decision.best.play
        else:
            done = decision.error or decision.action
            right = decision.best_action
            if decision.player != decision.doubler:  # a take or pass: the taker's view
                position = position.flip()
        owner = decision.cube_owner
        holder = None if owner is None else "player" if owner == decision.player else "opponent"
        item: dict[str, Any] = {
            "game": decision.game,
            "move": decision.move_number,
            "player": analysis.players[decision.player],
            "kind": decision.kind,
            "decision": done,
            "right": right,
            "loss": round(decision.equity_loss, 3),
            "mark": decision.mark.value,
            "position_id": decision.position_id,
            # The board before the decision, seen from the player who erred.
            "board": _board_json(position),
            "cube": {"value": decision.cube, "owner": holder},
        }
        if isinstance(decision, CheckerAnalysis):
            roll = Roll(*decision.roll)
            item["dice"] = list(decision.roll)
            item["played"] = _steps(position, roll, decision.played, record.info.variant)
            item["best"] = _steps(position, roll, decision.best, record.info.variant)
        errors.append(item)
    errors.sort(key=lambda error: (error["game"], error["move"]))
    return {
        "players": players,
        "length": analysis.length,
        "games": len(analysis.games),
        "errors": errors,
    }
