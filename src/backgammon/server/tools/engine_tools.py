"""The server's other engine work, run in the bots' pool (never in the event loop):
the position tool's report (:func:`position_report`, with the cube decision) and
rollout (:func:`rollout_report`, with progress), and the analysis of uploaded
match files (:func:`check_upload`, :func:`analyze_upload`).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from backgammon.errors import BackgammonError
from backgammon.notation.fibs_board import decode_fibs_board
from backgammon.notation.xgid import XgidFields, decode_xgid, encode_xgid
from backgammon.rules.dice import Roll
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant
from backgammon.server.bots.pool import engine_for

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from backgammon.analysis import Decision, MatchAnalysis, PlayOption
    from backgammon.engine import Engine
    from backgammon.formats.record import MatchRecord

__all__ = [
    "MAX_ROLLOUT_TRIALS",
    "AnalysisCancelledError",
    "PositionText",
    "analyze_upload",
    "check_upload",
    "cube_report",
    "position_report",
    "read_position",
    "read_position_text",
    "rollout_report",
    "rollout_subjects",
]


MAX_ROLLOUT_TRIALS = 1296
"""The most trials a rollout of the position tool may ask for, in all (a line's
trials times its lines: :func:`backgammon.server.tools.rollouts.check_cost`)."""
ROLLOUT_PLAYS = 3
"""How many of the best plays a rollout with dice rolls out."""
_ROLLOUT_CHUNK = 12
"""Trials between two progress reports of a rollout (about half a second)."""


@dataclass(frozen=True, slots=True)
class PositionText:
    """What a pasted Position ID, XGID or FIBS ``board:`` line says: the position, seen
    from the side on roll, and what else the text carries (a Position ID carries only
    the checkers: no dice, cube 1 centred, money).

    Attributes:
        position: the checkers, seen from the side on roll.
        source: ``"position_id"``, ``"xgid"`` or ``"fibs"``.
        on_roll: who is on roll, in words (XG's ``X``/``O``, or the FIBS name).
        dice: the dice the side on roll has rolled, if any.
        cube: the cube's value.
        owner: who owns the cube, seen from the side on roll: ``"player"``,
            ``"opponent"`` or ``None`` (centred).
        length: the match length (0: money).
        score: the side on roll's score and its opponent's.
        crawford: this is the Crawford game.
        jacoby: the Jacoby rule (money).
        beavers: beavers allowed (money).
        max_cube: the largest cube allowed (``None``: no limit; 1: cubeless).
        double_pending: a double waits for an answer (an XGID's dice ``D``).
        may_double: whether the side on roll's cube access (a FIBS line's "may double")
            allows a double at all; ``None`` when the text does not say.
        xgid: the XGID the text gives (without dice, ``None``: from the side on roll).
    """

    position: Position
    source: str
    on_roll: str
    dice: tuple[int, int] | None = None
    cube: int = 1
    owner: str | None = None
    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int | None = None
    double_pending: bool = False
    may_double: bool | None = None
    xgid: XgidFields | None = None

    def context(self) -> dict[str, Any]:
        """What the report says of it (JSON)."""
        return {
            "source": self.source,
            "on_roll": self.on_roll,
            "dice": None if self.dice is None else list(self.dice),
            "cube": self.cube,
            "owner": self.owner,
            "length": self.length,
            "score": list(self.score),
            "crawford": self.crawford,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
            "max_cube": self.max_cube,
            "double_pending": self.double_pending,
        }

    def xgid_with(self, dice: tuple[int, int] | None) -> str:
        """The XGID of this position with ``dice`` (an XGID's own fields kept: its side
        on roll may be the top player; otherwise the side on roll is XG's ``X``)."""
        rolled = (0, 0) if dice is None else dice
        if self.xgid is not None:
            pending = self.xgid.double_pending and dice is None
            return encode_xgid(replace(self.xgid, dice=rolled, double_pending=pending))
        position = self.position
        flags = int(self.crawford) if self.length else int(self.jacoby) + 2 * int(self.beavers)
        cube_log2 = self.cube.bit_length() - 1
        max_log2 = 10 if self.max_cube is None else max(self.max_cube.bit_length() - 1, cube_log2)
        fields = XgidFields(
            bottom=tuple(position.player[1:]),
            top=tuple(position.opponent[1:]),
            cube_log2=cube_log2,
            cube_position={"player": 1, "opponent": -1}.get(self.owner or "", 0),
            turn=1,
            dice=rolled,
            score_bottom=self.score[0],
            score_top=self.score[1],
            crawford_jacoby=flags,
            match_length=self.length,
            max_cube=max_log2,
        )
        return encode_xgid(fields)


def _read_xgid(text: str) -> PositionText:
    fields = decode_xgid(text)
    position = Position.from_xgid(text)
    bottom = fields.turn == 1
    owner = {0: None, 1: "player", -1: "opponent"}[fields.cube_position * fields.turn]
    match = fields.match_length > 0
    return PositionText(
        position,
        "xgid",
        "X (XG's bottom player, upper-case)" if bottom else "O (XG's top player, lower-case)",
        dice=None if fields.dice == (0, 0) else fields.dice,
        cube=1 << fields.cube_log2,
        owner=owner,
        length=fields.match_length,
        score=(fields.score_bottom, fields.score_top)
        if bottom
        else (fields.score_top, fields.score_bottom),
        crawford=match and bool(fields.crawford_jacoby & 1),
        jacoby=not match and bool(fields.crawford_jacoby & 1),
        beavers=not match and bool(fields.crawford_jacoby & 2),
        max_cube=1 << fields.max_cube if fields.max_cube else 1,
        double_pending=fields.double_pending,
        xgid=fields,
    )


def _read_fibs(text: str) -> PositionText:
    fields = decode_fibs_board(text)
    position = Position.from_fibs_board(text)
    mine = fields.turn != -fields.colour  # the line's player is on roll
    dice = fields.player_dice if mine else fields.opponent_dice
    may = (fields.player_may_double, fields.opponent_may_double)
    me, them = may if mine else may[::-1]
    length = 0 if fields.match_length in (0, 9999) else fields.match_length
    score = (fields.player_score, fields.opponent_score)
    return PositionText(
        position,
        "fibs",
        fields.player_name if mine else fields.opponent_name,
        dice=None if 0 in dice else dice,
        cube=fields.cube,
        owner=None if me == them else "player" if me else "opponent",
        length=length,
        score=score if mine else score[::-1],
        crawford=bool(length) and not me and not them,
        may_double=me,
    )


def read_position_text(text: str) -> PositionText:
    """Read a Position ID, an XGID or a FIBS ``board:`` line (what the position tool
    accepts) with what it carries besides the checkers.

    Raises:
        ValueError: naming what is wrong with ``text`` (``position: ...``), a number
            out of range included (the codecs bound the cube to 2**15, a match length
            and scores to 32767).
    """
    stripped = text.strip()
    if not stripped:
        raise ValueError("position: paste a Position ID, an XGID or a FIBS board: line")
    try:
        if stripped.startswith("board:"):
            read = _read_fibs(stripped)
        elif stripped.upper().startswith("XGID=") or ":" in stripped:
            read = _read_xgid(stripped)
        else:
            position = Position.from_position_id(stripped)
            read = PositionText(position, "position_id", "the player of the Position ID")
        # What the report writes back must be writable: a bad number is refused here,
        # before any work, not in the worker.
        read.xgid_with(read.dice)
    except (BackgammonError, ValueError) as error:
        raise ValueError(f"position: {error}") from None
    return read


def read_position(text: str) -> Position:
    """The position of a Position ID, an XGID or a FIBS ``board:`` line (what the
    position tool accepts), seen from the side on roll.

    Raises:
        ValueError: naming what is wrong with ``text`` (a :class:`BackgammonError`).
    """
    return read_position_text(text).position


def _board_json(position: Position) -> dict[str, list[int]]:
    """The two sides' checker counts (index 0 borne off, 1-24 points, 25 the bar,
    each in its own numbering) and pip counts, as the web app draws them."""
    return {
        "player": list(position.player),
        "opponent": list(position.opponent),
        "pips": list(position.pip_counts()),
    }


def _no_double_reason(read: PositionText) -> str | None:
    """Why the side on roll cannot double here, or ``None`` if it may."""
    away = read.length - read.score[0] if read.length else None
    if read.double_pending:
        return "a double is pending: the text gives no cube decision to make"
    if read.length and max(read.score) >= read.length:
        return f"the score {read.score[0]}-{read.score[1]} ends a {read.length}-point match"
    if read.max_cube == 1:
        return "the cube is not in play (cubeless)"
    if read.crawford:
        return "the Crawford game: no doubling"
    if read.owner == "opponent":
        return "the opponent owns the cube"
    if read.may_double is False:
        return "the side on roll may not double"
    if read.max_cube is not None and read.cube >= read.max_cube:
        return f"the cube is at its largest value ({read.max_cube})"
    if away is not None and read.cube >= away:
        return "the cube is dead: it already covers what the side on roll needs"
    return None


def cube_report(read: PositionText, engine: Engine, ply: int) -> dict[str, Any]:
    """The cube decision of the side on roll before it rolls, searched cubefully
    ``ply`` deep (:func:`~backgammon.engine.cubeful.cube_decision_at`: the cube
    carried through the lookahead, Janowski's model at the leaves, the Kazaross-XG2
    table in a match, the exact bear-off equities in money) at the text's cube and
    score: the equities of no double, double/take and double/pass (per unit of the
    current cube) and the proper action in words; or, when it cannot double, why
    (``available`` false).

    A score outside the match equity table is said as a ``reason`` too.
    """
    from backgammon.engine.bearoff import BearoffDatabase
    from backgammon.engine.cube import CubeOwner
    from backgammon.engine.cubeful import CubeContext, cube_decision_at
    from backgammon.engine.met import kazaross_xg2

    kind = "match" if read.length else "money"
    reason = _no_double_reason(read)
    if reason is not None:
        return {"available": False, "kind": kind, "reason": reason}
    owner = CubeOwner.PLAYER if read.owner == "player" else CubeOwner.CENTRED
    try:
        if read.length:
            table = kazaross_xg2()
            away = (read.length - read.score[0], read.length - read.score[1])
            if max(away) > table.size:
                raise ValueError(f"the scores are beyond the {table.size}-point table")
            context = CubeContext(cube=read.cube, owner=owner, away=away, met=table)
            exact = None
        else:
            context = CubeContext(
                cube=read.cube, owner=owner, jacoby=read.jacoby, beavers=read.beavers
            )
            exact = BearoffDatabase.open().cube_equity_rows
        decision = cube_decision_at(
            engine.evaluate_boards, read.position.to_array(), ply, context, engine.pruning, exact
        )
    except ValueError as error:  # beyond the table's scores
        return {"available": False, "kind": kind, "reason": str(error)}
    return {
        "available": True,
        "kind": kind,
        "ply": ply,
        "no_double": round(decision.no_double, 4),
        "double_take": round(decision.double_take, 4),
        "double_pass": round(decision.double_pass, 4),
        "action": decision.action.value,
        "take": decision.take,
        "beaver": decision.beaver,
    }


def _dice_used(
    dice: tuple[int, int] | None, text_dice: tuple[int, int] | None
) -> tuple[int, int] | None:
    """The dice a report uses: ``dice`` from the field (``(0, 0)``: none, whatever the
    text carries), else the text's own."""
    if dice is None:
        return text_dice
    return None if dice == (0, 0) else dice


def position_report(
    text: str, dice: tuple[int, int] | None, ply: int, top: int = 10
) -> dict[str, Any]:
    """What the position tool shows (run in a worker): the position's IDs and board,
    what the text carries (its ``context``: dice, cube, score, side on roll), its
    cubeless evaluation for the side on roll at ``ply``; with dice (``dice``, else the
    text's own; ``(0, 0)``: none) the ``top`` best plays, ranked, each with its equity and resulting
    board; without, the cube decision at the text's cube and score.

    Raises:
        ValueError: for a bad position, roll or ply.
    """
    read = read_position_text(text)
    position = read.position
    used = _dice_used(dice, read.dice)
    engine = engine_for("standard")
    evaluation = engine.evaluate_at(position, ply)
    report: dict[str, Any] = {
        "position_id": position.position_id,
        "xgid": read.xgid_with(used),
        "context": read.context(),
        "board": _board_json(position),
        "ply": ply,
        "dice": None if used is None else list(used),
        "dice_from": None if used is None else "text" if dice is None else "field",
        "evaluation": {
            "probabilities": [round(p, 4) for p in evaluation.probabilities],
            "equity": round(evaluation.equity, 4),
        },
        # exact (a solved database) or the network's estimate, with a note saying how
        # to get exact values where they exist but are not built
        "source": engine.source.as_json(),
        "cube": None,
        "plays": [],
    }
    if used is None:
        report["cube"] = cube_report(read, engine, ply)
    else:
        ranked = engine.rank_plays(position, Roll(*used), ply=ply)
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


def _rollout_line(rows: list[npt.NDArray[np.float64]], mover: bool) -> dict[str, Any] | None:
    """The running averages of a rollout's rows (each: five probabilities, then the
    variance-reduced equity) with their standard errors; ``mover``: the rows are of the
    position a play leaves (the opponent on roll), turned back to the mover's view."""
    import numpy as np

    from backgammon.engine.search import invert

    if not rows:
        return None
    table = np.concatenate(rows)
    n = table.shape[0]
    mean = table[:, :5].mean(axis=0)
    spread = table[:, :5].std(axis=0, ddof=1) if n > 1 else np.zeros(5)
    equity = float(table[:, 5].mean())
    error = float(table[:, 5].std(ddof=1) / np.sqrt(n)) if n > 1 else None
    if mover:
        mean = invert(mean)
        spread = spread[[0, 3, 4, 1, 2]]
        equity = -equity
    return {
        "trials": n,
        "probabilities": [round(float(p), 4) for p in mean],
        "probability_errors": [round(float(s / np.sqrt(n)), 4) for s in spread],
        "equity": round(equity, 4),
        "standard_error": None if error is None else round(error, 4),
    }


def rollout_subjects(text: str, dice: tuple[int, int] | None) -> int:
    """How many lines a :func:`rollout_report` of ``text`` rolls out (run in a worker):
    1 for the position, or with dice the number of its best plays it takes.

    Raises:
        ValueError: for a bad position or roll.
    """
    read = read_position_text(text)
    used = _dice_used(dice, read.dice)
    if used is None:
        return 1
    return min(ROLLOUT_PLAYS, len(read.position.legal_plays(Roll(*used))))


def rollout_report(
    text: str,
    dice: tuple[int, int] | None,
    trials: int,
    job: str,
    board: MutableMapping[str, Any],
    ply: int = 0,
) -> dict[str, Any]:
    """A cubeless rollout for the position tool (run in a worker): of the position
    itself (the side on roll before it rolls), or with dice (``dice``, else the text's
    own; ``(0, 0)``: none) of the :data:`ROLLOUT_PLAYS` best plays at ``ply``, each
    played out ``trials`` times
    (quasi-random dice, variance reduction: :func:`~backgammon.engine.rollout.rollout_trials`,
    the engine's rollout). Progress goes to ``board[job]`` as ``{"done", "total",
    "result"}`` about every :data:`_ROLLOUT_CHUNK` trials, the result being the running
    one; a true ``board[job + ":cancel"]`` stops it at the next report (the result
    then says ``"cancelled": true``).

    Raises:
        ValueError: for a bad position, roll or number of trials.
    """
    from backgammon.engine.rollout import RolloutSettings, rollout_trials

    if not 1 <= trials <= MAX_ROLLOUT_TRIALS:
        raise ValueError(f"trials: between 1 and {MAX_ROLLOUT_TRIALS}, got {trials}")
    read = read_position_text(text)
    used = _dice_used(dice, read.dice)
    engine = engine_for("standard")
    settings = RolloutSettings(trials=trials)
    # What is rolled out: (label, the position to play out, whether it is a play's).
    subjects: list[tuple[str | None, Position, bool]]
    if used is None:
        subjects = [(None, read.position, False)]
    else:
        ranked = engine.rank_plays(read.position, Roll(*used), ply=ply)[:ROLLOUT_PLAYS]
        subjects = [(item.play.notation(), item.play.position.flip(), True) for item in ranked]
    rows: list[list[npt.NDArray[np.float64]]] = [[] for _ in subjects]
    total = trials * len(subjects)

    def result(cancelled: bool) -> dict[str, Any]:
        return {
            "position_id": read.position.position_id,
            "dice": None if used is None else list(used),
            "trials": trials,
            "cancelled": cancelled,
            "lines": [
                {"play": label, **(_rollout_line(done, mover) or {"trials": 0})}
                for (label, _position, mover), done in zip(subjects, rows, strict=True)
            ],
        }

    done = 0
    board[job] = {"done": 0, "total": total, "result": result(False)}
    # One chunk of each subject in turn, so that all their figures move together.
    for first in range(0, trials, _ROLLOUT_CHUNK):
        chunk = range(first, min(trials, first + _ROLLOUT_CHUNK))
        for index, (_label, position, _mover) in enumerate(subjects):
            rows[index].append(
                rollout_trials(engine.evaluate_boards, position.to_array(), chunk, settings)
            )
            done += len(chunk)
            if board.get(f"{job}:cancel"):
                return result(True)
            board[job] = {"done": done, "total": total, "result": result(False)}
    return result(False)


def _read_upload(text: str | bytes, name: str | None) -> MatchRecord:
    """The match of an uploaded file: ``.mat`` or SGF text, or the bytes of any file
    :func:`~backgammon.formats.read_match_bytes` reads (``.xg``, ``.ogxm``, text).

    Raises:
        ValueError: naming what is wrong with the file (a :class:`MatchFileError`).
    """
    from backgammon.formats import read_match_bytes, read_match_text

    try:
        if isinstance(text, bytes):
            return read_match_bytes(text, path=name)
        return read_match_text(text, path=name)
    except BackgammonError as error:
        raise ValueError(str(error)) from None


class AnalysisCancelledError(Exception):
    """:func:`analyze_upload` stopped: its job was cancelled."""


def check_upload(text: str | bytes, name: str | None) -> int:
    """How many actions the uploaded match file (its text, or its bytes) has to
    analyse (run in a worker: it replays every action through the rules).

    Raises:
        ValueError: naming what is wrong with the file (a :class:`MatchFileError`).
    """
    record = _read_upload(text, name)
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


def _holder(owner: int | None, player: int) -> str | None:
    """The cube's owner as the web app names it, from ``player``'s side."""
    return None if owner is None else "player" if owner == player else "opponent"


def _option_json(option: PlayOption, best: float, played: str) -> dict[str, Any]:
    return {
        "play": option.play,
        "equity": round(option.equity, 4),
        "difference": round(option.equity - best, 4),
        "probabilities": [round(p, 4) for p in option.probabilities],
        "played": option.play == played,
    }


def _decision_json(
    analysis: MatchAnalysis, decision: Decision, index: int, variant: Variant
) -> dict[str, Any]:
    """One decision as the review page shows it (see :func:`analyze_upload`)."""
    from backgammon.analysis import CheckerAnalysis

    position = analysis.position(decision)  # seen from the mover or the doubler
    item: dict[str, Any] = {
        "index": index,
        "game": decision.game,
        "move": decision.move_number,
        "player": analysis.players[decision.player],
        "seat": decision.player,
        "kind": decision.kind,
        "loss": round(decision.equity_loss, 3),
        "mark": None if decision.mark is None else decision.mark.value,
        "position_id": decision.position_id,
    }
    if isinstance(decision, CheckerAnalysis):
        roll = Roll(*decision.roll)
        best = decision.best.equity
        win, equity = decision.win, decision.equity_before
        item.update(
            decision=f"{decision.roll[0]}-{decision.roll[1]}: {decision.play}",
            right=decision.best.play,
            play=decision.play,
            forced=decision.forced,
            dice=list(decision.roll),
            played=_steps(position, roll, decision.played, variant),
            best=_steps(position, roll, decision.best, variant),
            options=[
                _option_json(option, best, decision.played.play) for option in decision.options
            ],
            luck=round(decision.luck, 4),
        )
        seat = decision.player
    else:
        seat = decision.doubler
        win = decision.probabilities[0]
        if decision.should_double:
            equity = min(decision.double_take, decision.double_pass)
        else:
            equity = decision.no_double
        item.update(
            decision=decision.error or decision.action,
            right=decision.best_action,
            action=decision.action,
            doubler=analysis.players[decision.doubler],
            cube_action=decision.cube_action,
            should_double=decision.should_double,
            should_take=decision.should_take,
            equities={
                "no_double": round(decision.no_double, 4),
                "double_take": round(decision.double_take, 4),
                "double_pass": round(decision.double_pass, 4),
            },
            probabilities=[round(p, 4) for p in decision.probabilities],
            cubeless_equity=round(decision.cubeless_equity, 4),
            close=decision.close,
        )
        if decision.player != decision.doubler:  # a take or pass: the taker's view
            position = position.flip()
    # The board before the decision, seen from the player who decided.
    item["board"] = _board_json(position)
    item["cube"] = {"value": decision.cube, "owner": _holder(decision.cube_owner, decision.player)}
    item["before"] = {
        "win": round(win if seat == 0 else 1.0 - win, 4),
        "equity": round(equity if seat == 0 else -equity, 4),
    }
    item["explanation"] = _explanation_json(analysis, decision, variant)
    return item


def _explanation_json(
    analysis: MatchAnalysis, decision: Decision, variant: Variant
) -> dict[str, object] | None:
    """A marked error's explanation (``{"kind", "text", "themes": [{"id", "says"}]}``,
    :func:`backgammon.analysis.explain.brief_json`), or ``None``: not an error, or a
    variant whose moves are not the standard ones."""
    from backgammon.analysis.explain import brief_json, explain_error

    if not variant.plain_movement:
        return None
    explanation = explain_error(decision, analysis.checkers)
    return None if explanation is None else brief_json(explanation)


def _file_analysis_json(record: MatchRecord, decision: Decision) -> dict[str, Any] | None:
    """The analysis the file brought of ``decision`` (eXtreme Gammon's, from an
    ``.xg`` file; an OGXM file's) as JSON with its ``engine`` named, or ``None``."""
    from backgammon.analysis.file_analysis import file_analysis

    found = file_analysis(record, decision)
    if found is None:
        return None
    return {"engine": getattr(found, "engine", "XG"), **found.to_json()}


def _shown(decision: Decision) -> bool:
    """Whether the review lists ``decision``: every play and cube action, and the
    implicit "no double" before a roll only when it was close or marked."""
    from backgammon.analysis import CubeAnalysis

    if not isinstance(decision, CubeAnalysis) or decision.action != "no double":
        return True
    return decision.close or decision.mark is not None


def analyze_upload(
    text: str | bytes,
    name: str | None,
    job: str,
    board: MutableMapping[str, Any],
    ply: int = 0,
) -> tuple[dict[str, Any], str]:
    """The analysis of an uploaded match file at ``ply`` (run in a worker), summarised
    for the review page, and the analysis report (:func:`~backgammon.analysis.html_report`).

    The summary has each player's statistics, the games (score before, winner, points),
    ``moves``: every checker play and cube action of every game in order (the implicit
    "no double" before a roll only when it was close or marked), and ``errors``: the
    marked ones among them. Each carries its ``index`` in ``moves``, the board before
    it seen from the player who decided (as :func:`position_report` gives boards), the
    cube (its owner ``"player"``, ``"opponent"`` or ``None``), and ``before``: the first
    player's chance to win the game and equity before it (for the plot). A checker play
    has the ``dice``, the ``played`` and ``best`` plays as single-die steps
    ``[[from, to], ...]`` in the mover's numbering (25 the bar, 0 off) and the best
    ``options`` ranked (the play made added last when it is not among them) with their
    equities and differences from the best; a cube decision the doubler's ``equities``
    of no double, double/take and double/pass and the right ``cube_action``.
    Progress goes to ``board[job]`` as ``(done, total)`` actions (a shared mapping)
    about every percent; a true ``board[job + ":cancel"]`` stops it there.

    Raises:
        ValueError: naming what is wrong with the file, or a ``ply`` other than 0-2.
        AnalysisCancelledError: ``board[job + ":cancel"]`` was set.
    """
    from backgammon.analysis import AnalysisSettings, analyze_match, html_report, summarize

    if ply not in (0, 1, 2):
        raise ValueError(f"ply: 0, 1 or 2, not {ply!r}")
    record = _read_upload(text, name)
    shown = [-1]

    def progress(done: int, total: int) -> None:
        # Every percent or so: the mapping may live in another process.
        if done == total or done - shown[0] >= max(1, total // 100):
            shown[0] = done
            if board.get(f"{job}:cancel"):
                raise AnalysisCancelledError(f"the analysis {job} was cancelled")
            board[job] = (done, total)

    engine = engine_for(record.info.variant.name)
    analysis = analyze_match(
        record, engine, settings=AnalysisSettings(ply=ply), progress=progress, store=False
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
    moves: list[dict[str, Any]] = []
    for decision in analysis.decisions:
        if _shown(decision):
            item = _decision_json(analysis, decision, len(moves), record.info.variant)
            item["file_analysis"] = _file_analysis_json(record, decision)
            moves.append(item)
    summary = {
        "players": players,
        "names": list(analysis.players),
        "length": analysis.length,
        "ply": ply,
        "games": len(analysis.games),
        "game_results": [
            {
                "game": game.number,
                "score": list(game.score_before),
                "crawford": game.crawford,
                "winner": None if game.winner is None else analysis.players[game.winner],
                "points": game.points,
            }
            for game in analysis.games
        ],
        "moves": moves,
        "errors": [move for move in moves if move["mark"] is not None],
        "signatures": _signature_lines(text),
    }
    return summary, html_report(analysis)


def _signature_lines(text: str | bytes) -> list[str]:
    """What the signatures of an uploaded OGXM file say, a line each (none for other
    files or an unsigned one)."""
    from backgammon.formats import OGXM_MAGIC
    from backgammon.formats.ogxm_signatures import check_signatures, describe_signatures

    if not isinstance(text, bytes) or not text.startswith(OGXM_MAGIC):
        return []
    return describe_signatures(check_signatures(text)).splitlines()
