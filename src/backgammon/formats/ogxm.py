"""OGXM match files (``.ogxm``) and streams (``.ogxms``), read and written through the
``ogxm`` package (MIT), whose bundled reference codec enforces every rule of the format.

:func:`write_ogxm` builds the file's JSON projection from a match record and has the
codec encode it; :func:`read_ogxm` decodes a file and streams its match through a
:class:`~backgammon.formats.record.MatchVisitor` (with a
:class:`~backgammon.formats.record.RecordBuilder`, every action replays through the
rules); :func:`read_ogxm_stream` does so for each match of a stream.

The projection, as the codec reads and writes it (learnt from the codec itself; the
format's specification is HedgeHog's ``OGXM_FORMAT_SPEC.md``):

- ``player_white``/``player_black``: our player 0 and player 1. A ply's ``color`` is
  1 for White and 0 for Black (:func:`_color`); a game's ``winner`` is 0 for White and
  1 for Black. (Learnt from files HedgeHog's reference writer made, and from the v1
  files of GammonView's corpus converted by the codec, checked against the ``.mat``
  of the same matches.)
- ``beavers``, ``raccoons`` (money play; absent is false) and ``cube_limit`` (the
  largest cube; absent or 0: none): the cube rules.
- ``started_at`` (milliseconds since 1970, UTC): the match's ``date`` metadata
  (``YYYY-MM-DD``, written as 00:00 UTC that day; read as its UTC date).
- Points are numbered as Black sees them: Black's point ``p`` is ``p``, White's is
  ``25 - p`` (:func:`_absolute`); White's bar is 0 and Black's 25. The codec's OGIDs
  number them the same way.
- A game the file ends with a winner but no drop, resignation or last checker off is
  a resignation at ``points_won`` over the cube (GammonView's v1 files write them so).
  Game markers (24-26, 30) carry no player and are skipped; a game from a set-up
  position cannot be replayed and is refused.
- A game is a list of plies. ``action_id`` 0..20 is a checker play with the roll at
  that index of the 21 rolls (1-1, 1-2, ... 6-6), its ``moves`` each ``{"from": point,
  "pips": die}``; the first ply of a game is the opening roll's play. 21 double,
  22 take, 23 drop, 32 beaver, 33 raccoon; 27 resigns the game (``resign_value``:
  single, gammon or backgammon), accepted when the game's ``winner`` is the other side.
"""

from __future__ import annotations

import datetime
import io
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from backgammon.errors import BackgammonError, MatchFileError
from backgammon.formats.record import Location, MatchInfo, MatchRecord, MatchVisitor
from backgammon.formats.xg_analysis import best_cube_action, cube_equities_json
from backgammon.notation.play_text import BAR_POINT, OFF_POINT
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    CubeRules,
    Double,
    Drop,
    Raccoon,
    Resign,
    ResignLevel,
    Take,
)
from backgammon.rules.dice import Roll
from backgammon.rules.game import OpeningRoll
from backgammon.rules.play import Play, Step
from backgammon.rules.variant import STANDARD, Variant

__all__ = [
    "OgxmAnalysis",
    "OgxmPlyAnalysis",
    "ogxm_document",
    "ogxm_stream_members",
    "read_ogxm",
    "read_ogxm_stream",
    "write_ogxm",
]

ROLLS = tuple((low, high) for low in range(1, 7) for high in range(low, 7))
_CUBE_ACTIONS: dict[type, int] = {Double: 21, Take: 22, Drop: 23, Beaver: 32, Raccoon: 33}
_CUBE_OF_ID = {number: kind for kind, number in _CUBE_ACTIONS.items()}
_CUBE_FACTORS = {22: 2, 32: 4, 33: 2}  # take, beaver (the take and redouble), raccoon
RESIGN = 27
NULL_ACTION = 30
_MARKERS = frozenset({24, 25, 26, NULL_ACTION})  # game over, match over, final, null
_LEVELS = {
    "single": ResignLevel.SINGLE,
    "gammon": ResignLevel.GAMMON,
    "backgammon": ResignLevel.BACKGAMMON,
}
_VARIANTS = {"standard": "backgammon", "nackgammon": "nackgammon", "hypergammon": "hypergammon"}
_METADATA = ("event", "round")


Steps = tuple[tuple[int, int], ...]
"""A play's steps as ``(from, to)`` points in the mover's numbering (25 bar, 0 off)."""


@dataclass(frozen=True, slots=True)
class OgxmPlyAnalysis:
    """An analysis of one checker play, to be written into an OGXM file.

    Attributes:
        alternatives: the plays considered, best first: their steps and equities.
        played: the index of the play made among them (``None``: not listed).
    """

    alternatives: tuple[tuple[Steps, float], ...]
    played: int | None = None


@dataclass(frozen=True, slots=True)
class OgxmAnalysis:
    """An analysis to write as one of an OGXM file's analyses.

    Attributes:
        engine: the engine's name; ``version``: its version (the file's model name
            and engine build).
        plies: the lookahead it searched (our 0-ply is the network alone).
        plays: each analysed play, keyed by (game number, entry index).
    """

    engine: str
    version: str
    plies: int
    plays: dict[tuple[int, int], OgxmPlyAnalysis] = field(default_factory=dict)
    cubes: dict[tuple[int, int], tuple[float, float, float]] = field(default_factory=dict)
    """Each analysed cube decision: the doubler's equities of no double, double/take
    and double/pass, keyed by (game number, entry index) of the roll (a "no double")
    or of the double."""


OGXM_KEY = "ogxm"
"""The annotation under which a play or cube action read from an OGXM file keeps the
file's analysis of it (:class:`OgxmCheckerRead`, :class:`OgxmCubeRead`)."""


@dataclass(frozen=True, slots=True)
class OgxmCheckerRead:
    """An OGXM file's analysis of a checker play, as read.

    Attributes:
        engine: the analysing engine, as the file names it (model and build).
        options: the plays it considered, best first: their notation (in the mover's
            numbering) and its equity.
        played: the index of the play made among them (``None``: not listed).
    """

    engine: str
    options: tuple[tuple[str, float], ...]
    played: int | None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data in the shape of XG's (``kind`` ``"checker"``, options with
        play and equity, played, the engine as ``level``)."""
        return {
            "kind": "checker",
            "options": [{"play": play, "equity": equity} for play, equity in self.options],
            "played": self.played,
            "level": self.engine,
        }


@dataclass(frozen=True, slots=True)
class OgxmCubeRead:
    """An OGXM file's analysis of a cube decision (the doubler's equities), as read."""

    engine: str
    no_double: float
    double_take: float
    double_drop: float

    @property
    def best_action(self) -> str:
        """``"no double"``, ``"double, take"``, ``"double, pass"`` or ``"too good"``."""
        return best_cube_action(self.no_double, self.double_take, self.double_drop)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data in the shape of XG's (``kind`` ``"cube"``)."""
        return {**cube_equities_json(self), "level": self.engine}


def _absolute(player: int, point: int) -> int:
    """A point of ``player`` in the file's numbering (Black's own) and back."""
    return 25 - point if player == 0 else point


def _color(player: int) -> int:
    """A ply's ``color`` for our player (and our player for a ``color``)."""
    return 1 - player


def _roll_id(roll: Roll) -> int:
    return ROLLS.index((roll.low, roll.high))


def ogxm_document(record: MatchRecord, analysis: OgxmAnalysis | None = None) -> dict[str, Any]:
    """The OGXM JSON projection of ``record`` (what :func:`write_ogxm` encodes), with
    ``analysis`` as the file's analysis when given.

    Raises:
        ValueError: for what OGXM cannot hold here (another variant, a rejected
            resignation, a variant's own actions).
    """
    info = record.info
    variant = _VARIANTS.get(info.variant.name)
    if variant is None:
        raise ValueError(
            f"OGXM holds backgammon, Nackgammon and Hypergammon, not {info.variant.name}"
        )
    document: dict[str, Any] = {
        "player_white": info.players[0],
        "player_black": info.players[1],
        "match_length": info.length,
        "variant": variant,
        "crawford": bool(info.length and info.rules.crawford),
        "jacoby": bool(not info.length and info.rules.jacoby),
        "games": [_game_document(game, analysis) for game in record.games],
    }
    rules = info.rules
    if not info.length and rules.beavers:  # the codec leaves false flags out
        document["beavers"] = True
        document["raccoons"] = rules.raccoons
    if rules.max_cube is not None:
        document["cube_limit"] = rules.max_cube
    if analysis is not None:
        document["analysis_info"] = {
            "model_name": analysis.engine,
            "engine_build": analysis.version,
            "checker_ply": analysis.plies,
        }
    for key in _METADATA:
        if info.metadata.get(key):
            document[key] = info.metadata[key]
    started = _started_at(info.metadata.get("date", ""))
    if started is not None:
        document["started_at"] = started
    return document


def _started_at(date: str) -> int | None:
    """A ``YYYY-MM-DD`` date as OGXM's ``started_at``: milliseconds since 1970 at
    00:00 UTC that day (``None`` for any other text)."""
    try:
        day = datetime.date.fromisoformat(date.strip())
    except ValueError:
        return None
    moment = datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.UTC)
    return int(moment.timestamp()) * 1000


def _date_of(started_at: object) -> str | None:
    """OGXM's ``started_at`` (milliseconds since 1970) as its UTC date ``YYYY-MM-DD``."""
    if isinstance(started_at, bool) or not isinstance(started_at, int):
        return None
    try:
        moment = datetime.datetime.fromtimestamp(started_at / 1000, tz=datetime.UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.date().isoformat()


def _first_die_first(steps: Sequence[Step], roll: Roll) -> list[Step]:
    """A play's steps with one that uses the roll's first die in front, where that
    step does not continue another (a checker's own later step keeps its place): the
    roll is stored as one of the 21, so the reader takes the dice's order from the
    first move's die (:func:`_dice_in_order`)."""
    ordered = list(steps)
    if roll.is_double or not ordered or ordered[0].die == roll.first:
        return ordered
    if any(step.source == BAR_POINT or step.destination == OFF_POINT for step in ordered):
        return ordered  # entering first, bearing off once home: the order is the rules'
    ends = {step.destination for step in ordered}
    for index, step in enumerate(ordered):
        if step.die == roll.first and step.source not in ends:
            return [step, *ordered[:index], *ordered[index + 1 :]]
    return ordered


def _pips(steps: Steps, roll: Roll) -> list[dict[str, int]]:
    """Steps as OGXM moves: each its from point and the die it used (a checker borne
    off from below the die's point used the smallest larger die left)."""
    dice = [roll.first] * 4 if roll.is_double else [roll.first, roll.second]
    moves = []
    for source, target in steps:
        need = source - target
        die = (
            need if need in dice or target > 0 else min((d for d in dice if d > need), default=need)
        )
        if die in dice:
            dice.remove(die)
        moves.append({"from": source, "pips": die})
    return moves


def _ply_analysis(found: OgxmPlyAnalysis, player: int, roll: Roll) -> dict[str, Any]:
    alternatives = []
    for index, (steps, equity) in enumerate(found.alternatives):
        moves = [
            {"from": _absolute(player, move["from"]), "pips": move["pips"]}
            for move in _pips(steps, roll)
        ]
        alternatives.append({"move": moves, "equity": equity, "is_played": index == found.played})
    return {"alternatives": alternatives}


def _add_cube_analysis(
    ply: dict[str, Any], analysis: OgxmAnalysis | None, key: tuple[int, int]
) -> None:
    found = None if analysis is None else analysis.cubes.get(key)
    if found is not None:
        no_double, double_take, double_pass = found
        ply.setdefault("analysis", {})["cube_decision"] = {
            "no_double_equity": no_double,
            "double_take_equity": double_take,
            "double_pass_equity": double_pass,
        }


def _game_document(game: Any, analysis: OgxmAnalysis | None) -> dict[str, Any]:
    plies: list[dict[str, Any]] = []
    roll: Roll | None = None
    roll_index = -1
    for index, entry in enumerate(game.entries):
        action = entry.action
        if isinstance(action, OpeningRoll):
            roll, roll_index = action.roll, index
        elif isinstance(action, Roll):
            roll, roll_index = action, index
        elif isinstance(action, Play):
            if roll is None:
                raise ValueError(f"game {game.number}: a play without a roll")
            moves = [
                {"from": _absolute(entry.player, step.source), "pips": step.die}
                for step in _first_die_first(action.steps, roll)
            ]
            ply: dict[str, Any] = {
                "action_id": _roll_id(roll),
                "color": _color(entry.player),
                "moves": moves,
            }
            found = None if analysis is None else analysis.plays.get((game.number, index))
            if found is not None and found.alternatives:
                ply["analysis"] = _ply_analysis(found, entry.player, roll)
            _add_cube_analysis(ply, analysis, (game.number, roll_index))
            plies.append(ply)
            roll = None
        elif type(action) in _CUBE_ACTIONS:
            ply = {"action_id": _CUBE_ACTIONS[type(action)], "color": _color(entry.player)}
            _add_cube_analysis(ply, analysis, (game.number, index))
            plies.append(ply)
        elif isinstance(action, Resign):
            plies.append(
                {
                    "action_id": RESIGN,
                    "color": _color(entry.player),
                    "resign_value": int(action.level),
                }
            )
        elif not isinstance(action, AcceptResignation):
            raise ValueError(f"game {game.number}: OGXM cannot hold {type(action).__name__}")
    document: dict[str, Any] = {"plies": plies}
    if game.outcome is not None:
        document["winner"] = game.outcome.winner
        document["points_won"] = game.outcome.points
    return document


def write_ogxm(record: MatchRecord, analysis: OgxmAnalysis | None = None) -> bytes:
    """``record`` as an OGXM v2 file, with ``analysis`` as its analysis when given.

    Raises:
        ValueError: for what OGXM cannot hold (see :func:`ogxm_document`), or if the
            codec refuses the document (naming the rule it breaks).
    """
    import ogxm

    document = ogxm_document(record, analysis)
    problem = ogxm.v2_problem(document)
    if problem is not None:
        raise ValueError(f"the OGXM codec refuses the match: rule {problem!r}")
    try:
        return bytes(ogxm.json_to_binary(document))
    except ogxm.OgxmError as error:
        raise ValueError(f"the OGXM codec refuses the match: {error}") from None


def read_ogxm(data: bytes, visitor: MatchVisitor, *, path: str | None = None) -> dict[str, Any]:
    """Stream an OGXM file's match through ``visitor``; returns the file's JSON
    projection (its analyses and annotations included).

    Raises:
        MatchFileError: if the codec refuses the bytes, the file holds what the rules
            cannot replay, or (with a RecordBuilder) an action is illegal, naming the
            game and ply.
    """
    import ogxm

    try:
        document: dict[str, Any] = dict(ogxm.binary_to_json(data))
    except (ogxm.OgxmError, ValueError, TypeError) as error:
        raise MatchFileError(
            f"not a readable OGXM file (cut short or damaged; the codec says: {error})", path=path
        ) from None
    where = Location(path)
    try:
        info = _match_info(document)
        visitor.begin_match(info, where)
        score = [0, 0]
        engine = _engine_name(document)
        for number, game in enumerate(document.get("games", []), 1):
            visitor.begin_game(number, (score[0], score[1]), where)
            _visit_game(game, number, visitor, where, engine, info.variant.checkers)
            winner, points = game.get("winner"), game.get("points_won")
            if winner in (0, 1) and isinstance(points, int):
                score[winner] += points
    except MatchFileError:
        raise
    except (BackgammonError, ValueError, KeyError, TypeError) as error:
        raise where.error(f"OGXM: {error}") from None
    visitor.end_match(where)
    return document


def _match_info(document: dict[str, Any]) -> MatchInfo:
    length = int(document.get("match_length", 0))
    variant: Variant = STANDARD
    name = document.get("variant", "backgammon")
    if name != "backgammon":
        if name not in ("nackgammon", "hypergammon"):
            raise ValueError(f"variant {name!r} is not supported")
        from backgammon.variants import find

        variant = find(name)
    beavers = bool(document.get("beavers")) and not length
    rules = CubeRules(
        crawford=bool(document.get("crawford")) if length else True,
        jacoby=bool(document.get("jacoby")) and not length,
        beavers=beavers,
        raccoons=beavers and bool(document.get("raccoons")),
        max_cube=int(document.get("cube_limit") or 0) or None,
    )
    players = (
        str(document.get("player_white", "White")),
        str(document.get("player_black", "Black")),
    )
    metadata = {key: str(document[key]) for key in _METADATA if document.get(key)}
    date = _date_of(document.get("started_at"))
    if date is not None:
        metadata["date"] = date
    return MatchInfo(length, players, rules, variant, metadata)


def _engine_name(document: dict[str, Any]) -> str:
    """The analysing engine as the file names it: its model and build."""
    info = document.get("analysis_info") or {}
    parts = [str(info[key]) for key in ("model_name", "engine_build") if info.get(key)]
    return " ".join(parts) or "OGXM"


def _cube_read(ply: dict[str, Any], engine: str) -> OgxmCubeRead | None:
    found = (ply.get("analysis") or {}).get("cube_decision")
    if not isinstance(found, dict):
        return None
    keys = ("no_double_equity", "double_take_equity", "double_pass_equity")
    if not all(isinstance(found.get(key), int | float) for key in keys):
        return None
    return OgxmCubeRead(engine, *(float(found[key]) for key in keys))


def _checker_read(ply: dict[str, Any], player: int, engine: str) -> OgxmCheckerRead | None:
    alternatives = (ply.get("analysis") or {}).get("alternatives")
    if not isinstance(alternatives, list) or not alternatives:
        return None
    options = []
    played = None
    for index, alternative in enumerate(alternatives):
        moves = [(int(m["from"]), int(m["pips"])) for m in alternative.get("move", [])]
        options.append((_notation(player, moves), float(alternative["equity"])))
        if alternative.get("is_played"):
            played = index
    return OgxmCheckerRead(engine, tuple(options), played)


def _annotate(visitor: MatchVisitor, found: object, where: Location) -> None:
    if found is not None:
        visitor.annotate(None, {OGXM_KEY: found}, where)


@dataclass(slots=True)
class _GameTally:
    """What the reader follows through a game's plies to tell how it ended: the cube's
    value, each side's checkers borne off, and whether a drop or an accepted
    resignation ended it."""

    cube: int
    borne_off: list[int] = field(default_factory=lambda: [0, 0])
    ended: bool = False


def _visit_game(
    game: dict[str, Any],
    number: int,
    visitor: MatchVisitor,
    where: Location,
    engine: str,
    checkers: int,
) -> None:
    plies = game.get("plies", [])
    if game.get("is_default_board") is False:
        raise ValueError(
            f"game {number} starts from a set-up position, which a match record cannot hold"
        )
    tally = _GameTally(int(game.get("initial_cube_value", 1)))
    actions = [int(ply.get("action_id", NULL_ACTION)) for ply in plies]
    last = max((i for i, action in enumerate(actions, 1) if action not in _MARKERS), default=0)
    for index, ply in enumerate(plies, 1):
        if actions[index - 1] in _MARKERS:
            continue
        try:
            _visit_ply(ply, actions[index - 1], game, visitor, where, engine, tally, index == last)
        except (KeyError, ValueError) as error:
            raise ValueError(f"game {number}, ply {index}: {error}") from None
    winner, points = game.get("winner"), game.get("points_won")
    if winner not in (0, 1):
        visitor.end_game(None, None, where)
        return
    if tally.borne_off[1 - winner] >= checkers:
        sides = ("White", "Black")
        raise ValueError(
            f"game {number}: the file gives the game to {sides[winner]}, but "
            f"{sides[1 - winner]} bore off every checker (files this program wrote "
            "before 2026-11-27 swapped the colours: write it again from the match)"
        )
    if not tally.ended and tally.borne_off[winner] < checkers and isinstance(points, int):
        _implied_resignation(winner, points, tally, visitor, where)
    visitor.end_game(winner, points if isinstance(points, int) else None, where)


def _dice_in_order(roll: tuple[int, int], moves: list[tuple[int, int]]) -> tuple[int, int]:
    """The roll's dice in the order played: the format keeps a roll as one of the 21
    (low die first), its moves in their order, so the first move's die comes first
    (a 5-2 played 13/8 13/11 stays 5-2; with no move, the higher die first)."""
    low, high = roll
    if low != high and moves and moves[0][1] == low:
        return low, high
    return high, low


def _visit_ply(
    ply: dict[str, Any],
    action: int,
    game: dict[str, Any],
    visitor: MatchVisitor,
    where: Location,
    engine: str,
    tally: _GameTally,
    last: bool,
) -> None:
    color = int(ply.get("color", -1))
    if color not in (0, 1):
        raise ValueError(f"color {color}")
    player = _color(color)
    if 0 <= action <= 20:
        moves = [(int(m["from"]), int(m["pips"])) for m in ply.get("moves", [])]
        visitor.roll(player, _dice_in_order(ROLLS[action], moves), where)
        _annotate(visitor, _cube_read(ply, engine), where)  # a "no double" before it
        tally.borne_off[player] += sum(_absolute(player, start) <= die for start, die in moves)
        visitor.play(player, _notation(player, moves), where)
        _annotate(visitor, _checker_read(ply, player, engine), where)
    elif action in _CUBE_OF_ID:
        visitor.cube(player, _CUBE_OF_ID[action](), where)
        _annotate(visitor, _cube_read(ply, engine), where)
        tally.cube *= _CUBE_FACTORS.get(action, 1)
        tally.ended = tally.ended or action == _CUBE_ACTIONS[Drop]
    elif action == RESIGN:
        visitor.resign(player, Resign(_LEVELS[str(ply.get("resign_value", "single"))]), where)
        if game.get("winner") == 1 - player and last:
            visitor.resign(1 - player, AcceptResignation(), where)
            tally.ended = True
    else:
        raise ValueError(f"action {action} is not supported")


def _implied_resignation(
    winner: int, points: int, tally: _GameTally, visitor: MatchVisitor, where: Location
) -> None:
    """A game the file ends with a winner but no drop, resignation or last checker off
    (GammonView's v1 files end a resigned game with its "game over" marker alone): the
    loser resigned at ``points`` over the cube's value."""
    level, remainder = divmod(points, tally.cube)
    if remainder or not 1 <= level <= 3:
        raise ValueError(
            f"the game is not over, so its winner means a resignation, but {points} points "
            f"is not 1, 2 or 3 times the cube ({tally.cube})"
        )
    visitor.resign(1 - winner, Resign(ResignLevel(level)), where)
    visitor.resign(winner, AcceptResignation(), where)


def _notation(player: int, moves: list[tuple[int, int]]) -> str:
    """OGXM moves as notation in the mover's numbering, each step that continues an
    earlier checker's route joined to it (``24/18/14``), so the route (and so its hits)
    is the one the file gives; ``Ø`` for no move."""
    chains: list[list[int]] = []
    for start, die in moves:
        source = _absolute(player, start)
        target = max(source - die, 0)
        chain = next((c for c in chains if c[-1] == source and source != 0), None)
        if chain is None:
            chains.append([source, target])
        else:
            chain.append(target)
    names = {25: "bar", 0: "off"}
    return " ".join("/".join(names.get(p, str(p)) for p in chain) for chain in chains) or "Ø"


def ogxm_stream_members(
    data: bytes, *, path: str | None = None, at_most: int | None = None
) -> list[bytes]:
    """The OGXM files of an ``.ogxms`` stream, split apart (each checked by the
    library, none replayed); with ``at_most``, no more than ``at_most`` + 1 of them
    (the stream is read no further: a reader that wants one match refuses a stream
    of many after two members, not after all of them).

    Raises:
        MatchFileError: if the stream is corrupt or truncated.
    """
    import ogxm

    members = ogxm.iter_stream(io.BytesIO(data))
    if at_most is not None:
        members = itertools.islice(members, at_most + 1)
    try:
        return [bytes(member) for member in members]
    except (ogxm.StreamError, ogxm.OgxmError, ValueError) as error:
        raise MatchFileError(f"not a readable OGXM stream: {error}", path=path) from None


def read_ogxm_stream(data: bytes, *, path: str | None = None) -> list[MatchRecord]:
    """Every match of an ``.ogxms`` stream (complete OGXM files back to back).

    Raises:
        MatchFileError: if the stream is corrupt or truncated, or a match does not
            replay (naming its place in the stream).
    """
    from backgammon.formats.record import RecordBuilder

    records = []
    for number, member in enumerate(ogxm_stream_members(data, path=path), 1):
        builder = RecordBuilder()
        try:
            read_ogxm(member, builder, path=path)
        except MatchFileError as error:
            raise MatchFileError(f"match {number} of the stream: {error}", path=path) from None
        records.append(builder.record)
    return records
