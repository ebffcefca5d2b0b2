"""The records of an eXtreme Gammon game file (``temp.xg`` inside the container), its
rollouts (``temp.xgr``) and its comments (``temp.xgc``), decoded into plain values.

A pure leaf codec: bytes in, frozen dataclasses out. Written from the Pascal record
definitions eXtreme Gammon publishes (https://www.extremegammon.com/xgformat.aspx):
``TSaveRec`` is 2,560 bytes, little-endian, fields on their natural alignment; its
first 8 bytes are unused pointers and byte 8 is the record's kind. Fields added in
later file versions (``version`` in the match header) are read only from files that
have them.

Positions (``PositionEngine``) are 26 signed bytes seen from the player the record is
about: index 1..24 are that player's points (positive: their checkers, negative: the
opponent's), 25 is their bar, 0 the opponent's bar (negative). Moves are four
(from, to) pairs in 0-based points: 24 is the bar, -2 borne off, -1 unused. Evaluations
(``TResult``) are 7 numbers: the side's chances to lose a backgammon, lose a gammon,
lose, win, win a gammon, win a backgammon, and the cubeless equity.
"""

from __future__ import annotations

import datetime
import struct
from dataclasses import dataclass

from backgammon.errors import XgFileError

__all__ = [
    "RECORD_BYTES",
    "ROLLOUT_BYTES",
    "Candidate",
    "CubeRecord",
    "DoubleAnalysis",
    "GameFooter",
    "GameHeader",
    "MatchFooter",
    "MatchHeader",
    "MoveRecord",
    "Rollout",
    "XgRecord",
    "decode_comments",
    "decode_records",
    "decode_rollouts",
]

RECORD_BYTES = 2560
"""Size of every record of ``temp.xg``."""

ROLLOUT_BYTES = 2184
"""Size of every rollout record of ``temp.xgr``."""

MAGIC = 0x494C4D44
"""The match header's magic number ("DMLI")."""

Board = tuple[int, ...]
Evaluation = tuple[float, ...]


@dataclass(frozen=True, slots=True)
class MatchHeader:
    """The match header: players, length, rules, metadata.

    ``length`` is 0 for a money session (XG writes 99999). ``variation``: 0 backgammon,
    1 Nackgammon, 2 Hypergammon, 3 Longgammon. ``date`` is ``None`` when unset.
    ``cube_limit`` and ``auto_double_max`` are 0 when unset (files before version 8).
    """

    players: tuple[str, str]
    length: int
    variation: int
    crawford: bool
    jacoby: bool
    beaver: bool
    auto_double: bool
    elo: tuple[float, float]
    experience: tuple[int, int]
    date: datetime.datetime | None
    event: str
    location: str
    round: str
    game_id: int
    site_id: int
    version: int
    money_match: bool
    cube_limit: int
    auto_double_max: int
    transcriber: str
    comment_header: int
    comment_footer: int


@dataclass(frozen=True, slots=True)
class GameHeader:
    """A game's header: the score before it (player 1, player 2), whether it is the
    Crawford game, its starting position (as XG stores it) and its number."""

    score: tuple[int, int]
    crawford: bool
    position: Board
    number: int
    in_progress: bool
    comment_header: int
    comment_footer: int
    auto_doubles: int


@dataclass(frozen=True, slots=True)
class DoubleAnalysis:
    """XG's analysis of a cube decision, from the side that may double.

    Attributes:
        level: the analysis level (XG's ``PLAYERLEVEL`` code, -1 or less when none).
        no_double: cubeful equity of not doubling.
        double_take, double_drop: cubeful equities of doubling, taken or dropped.
        evaluation: the 7-number evaluation of the position (no double).
        evaluation_double: the same after double/take.
        is_beaver: whether a take would be a beaver.
    """

    level: int
    no_double: float
    double_take: float
    double_drop: float
    evaluation: Evaluation
    evaluation_double: Evaluation
    is_beaver: bool


@dataclass(frozen=True, slots=True)
class CubeRecord:
    """A cube decision before a roll: ``player`` (+1 player 1, -1 player 2) may double.

    ``double``: 0 no, 1 yes, -2 no decision (the cube was not available). ``take``:
    0 drop, 1 take, 2 beaver. ``beaver_answer``: 1 accepted, 2 raccoon. ``cube``: the
    cube before the decision as XG stores it (0 centred, +n 2**n owned by ``player``,
    -n owned by the opponent). ``error_double``/``error_take``: the equity lost (-1000
    when not analysed).
    """

    player: int
    double: int
    take: int
    beaver_answer: int
    raccoon_answer: int
    cube: int
    position: Board
    analysis: DoubleAnalysis
    error_double: float
    error_take: float
    rollout: int
    analysis_level: int
    comment: int


@dataclass(frozen=True, slots=True)
class Candidate:
    """One play XG considered: its steps (four 0-based (from, to) pairs), the position
    it leads to (seen from the mover), its evaluation and the level it was analysed at."""

    steps: tuple[int, ...]
    position: Board
    evaluation: Evaluation
    level: int
    rollout: int

    @property
    def equity(self) -> float:
        """The candidate's equity (the evaluation's last number)."""
        return self.evaluation[6]


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """A checker play: ``player`` (+1/-1) rolled ``dice`` in ``position_before`` and
    played ``steps`` to ``position_after`` (both seen from the mover). ``candidates``
    are XG's analysed plays, best first; ``error`` is the equity lost (-1000 when not
    analysed) and ``luck`` the roll's luck."""

    player: int
    position_before: Board
    position_after: Board
    steps: tuple[int, ...]
    dice: tuple[int, int]
    cube: int
    candidates: tuple[Candidate, ...]
    played: bool
    error: float
    luck: float
    analysis_level: int
    comment: int


@dataclass(frozen=True, slots=True)
class GameFooter:
    """A game's end: the score after it, the winner (+1/-1), the points won and how it
    ended (``termination``: 0 drop, 1 single, 2 gammon, 3 backgammon; +100 resigned,
    +1000 settled)."""

    score: tuple[int, int]
    crawford_next: bool
    winner: int
    points: int
    termination: int
    evaluation: Evaluation


@dataclass(frozen=True, slots=True)
class MatchFooter:
    """The match's end: the final score and the winner (+1/-1)."""

    score: tuple[int, int]
    winner: int
    date: datetime.datetime | None


@dataclass(frozen=True, slots=True)
class Rollout:
    """A rollout from ``temp.xgr``: games rolled, the result (7 numbers) and its 95%
    confidence half-width, for no double (``1``) and double/take (``2``)."""

    games: int
    result: Evaluation
    error: float
    games_double: int
    result_double: Evaluation
    error_double: float
    truncated: bool
    truncation: int
    cubeless: bool


XgRecord = MatchHeader | GameHeader | CubeRecord | MoveRecord | GameFooter | MatchFooter | None

_POINTERS_AND_KIND = 9
_DELPHI_EPOCH = datetime.datetime(1899, 12, 30)


def _date(days: float) -> datetime.datetime | None:
    """A Delphi ``TDateTime`` (days since 1899-12-30), ``None`` when unset or absurd."""
    if not 1.0 <= days <= 2958465.0:  # up to 9999-12-31
        return None
    return _DELPHI_EPOCH + datetime.timedelta(days=days)


def _pascal(data: bytes, offset: int, capacity: int) -> str:
    length = min(data[offset], capacity)
    return data[offset + 1 : offset + 1 + length].decode("cp1252", errors="replace")


def _wide(data: bytes, offset: int, units: int) -> str:
    text = data[offset : offset + 2 * units].decode("utf-16-le", errors="replace")
    return text.split("\x00", 1)[0]


def _board(data: bytes, offset: int) -> Board:
    return struct.unpack_from("<26b", data, offset)


def _floats(fmt: str, data: bytes, offset: int) -> Evaluation:
    return tuple(float(value) for value in struct.unpack_from(fmt, data, offset))


def _match_header(data: bytes) -> MatchHeader:
    length, variation = struct.unpack_from("<ii", data, 92)
    crawford, jacoby, beaver, auto_double = struct.unpack_from("<4B", data, 100)
    elo = struct.unpack_from("<dd", data, 104)
    experience = struct.unpack_from("<ii", data, 120)
    (date,) = struct.unpack_from("<d", data, 128)
    (game_id,) = struct.unpack_from("<i", data, 268)
    version, magic = struct.unpack_from("<iI", data, 552)
    if magic != MAGIC:
        raise ValueError(f"the match header's magic number is {magic:#x}, expected {MAGIC:#x}")
    comment_header, comment_footer = struct.unpack_from("<ii", data, 576)
    (money,) = struct.unpack_from("<B", data, 584)
    (site_id,) = struct.unpack_from("<i", data, 608)
    players = (_pascal(data, 9, 40), _pascal(data, 50, 40))
    event, location, round_ = (
        _pascal(data, 136, 128),
        _pascal(data, 283, 128),
        _pascal(data, 417, 128),
    )
    cube_limit, auto_double_max = struct.unpack_from("<ii", data, 612) if version >= 8 else (0, 0)
    if version >= 24:
        unicode = [_wide(data, 622 + 258 * index, 129) for index in range(5)]
        event, players, location, round_ = unicode[0], (unicode[1], unicode[2]), *unicode[3:]
    transcriber = _wide(data, 1960, 129) if version >= 30 else ""
    return MatchHeader(
        players=players,
        length=0 if length >= 99999 else length,
        variation=variation,
        crawford=bool(crawford),
        jacoby=bool(jacoby),
        beaver=bool(beaver),
        auto_double=bool(auto_double),
        elo=(float(elo[0]), float(elo[1])),
        experience=(experience[0], experience[1]),
        date=_date(date),
        event=event,
        location=location,
        round=round_,
        game_id=game_id,
        site_id=site_id,
        version=version,
        money_match=bool(money),
        cube_limit=cube_limit,
        auto_double_max=auto_double_max,
        transcriber=transcriber,
        comment_header=comment_header,
        comment_footer=comment_footer,
    )


def _game_header(data: bytes, version: int) -> GameHeader:
    score1, score2, crawford = struct.unpack_from("<iiB", data, 12)
    number, in_progress = struct.unpack_from("<iB", data, 48)
    comment_header, comment_footer, auto_doubles = struct.unpack_from("<iii", data, 56)
    return GameHeader(
        score=(score1, score2),
        crawford=bool(crawford),
        position=_board(data, 21),
        number=number,
        in_progress=bool(in_progress),
        comment_header=comment_header,
        comment_footer=comment_footer,
        auto_doubles=auto_doubles if version >= 26 else 0,
    )


def _double_analysis(data: bytes, offset: int) -> DoubleAnalysis:
    (level,) = struct.unpack_from("<i", data, offset + 28)
    (is_beaver,) = struct.unpack_from("<h", data, offset + 58)
    no_double, double_take, double_drop = _floats("<3f", data, offset + 88)
    return DoubleAnalysis(
        level=level,
        no_double=no_double,
        double_take=double_take,
        double_drop=double_drop,
        evaluation=_floats("<7f", data, offset + 60),
        evaluation_double=_floats("<7f", data, offset + 104),
        is_beaver=bool(is_beaver),
    )


def _cube_record(data: bytes) -> CubeRecord:
    player, double, take, beaver, raccoon, cube = struct.unpack_from("<6i", data, 12)
    (error_double,) = struct.unpack_from("<d", data, 200)
    error_take, rollout, _choice, level = struct.unpack_from("<diii", data, 216)
    (comment,) = struct.unpack_from("<i", data, 292)
    return CubeRecord(
        player=player,
        double=double,
        take=take,
        beaver_answer=beaver,
        raccoon_answer=raccoon,
        cube=cube,
        position=_board(data, 36),
        analysis=_double_analysis(data, 64),
        error_double=float(error_double),
        error_take=float(error_take),
        rollout=rollout,
        analysis_level=level,
        comment=comment,
    )


_BEST_MOVES = 124  # where the move record's analysis (EngineStructBestMove) starts


def _candidates(data: bytes, rollouts: tuple[int, ...]) -> tuple[Candidate, ...]:
    (count,) = struct.unpack_from("<i", data, _BEST_MOVES + 64)
    candidates = []
    for index in range(max(0, min(count, 32))):
        (level,) = struct.unpack_from("<h", data, _BEST_MOVES + 1156 + 4 * index)
        candidates.append(
            Candidate(
                steps=struct.unpack_from("<8b", data, _BEST_MOVES + 900 + 8 * index),
                position=_board(data, _BEST_MOVES + 68 + 26 * index),
                evaluation=_floats("<7f", data, _BEST_MOVES + 1284 + 28 * index),
                level=level,
                rollout=rollouts[index],
            )
        )
    return tuple(candidates)


def _move_record(data: bytes) -> MoveRecord:
    player, *steps = struct.unpack_from("<9i", data, 64)
    dice = struct.unpack_from("<2i", data, 100)
    (cube,) = struct.unpack_from("<i", data, 108)
    played, error, luck = struct.unpack_from("<B3xdd", data, 2308)
    rollouts = struct.unpack_from("<32i", data, 2344)
    (level,) = struct.unpack_from("<i", data, 2472)
    (comment,) = struct.unpack_from("<i", data, 2524)
    return MoveRecord(
        player=player,
        position_before=_board(data, 9),
        position_after=_board(data, 35),
        steps=tuple(steps),
        dice=(dice[0], dice[1]),
        cube=cube,
        candidates=_candidates(data, rollouts),
        played=bool(played),
        error=float(error),
        luck=float(luck),
        analysis_level=level,
        comment=comment,
    )


def _game_footer(data: bytes) -> GameFooter:
    score1, score2, crawford = struct.unpack_from("<iiB", data, 12)
    winner, points, termination = struct.unpack_from("<iii", data, 24)
    return GameFooter(
        score=(score1, score2),
        crawford_next=bool(crawford),
        winner=winner,
        points=points,
        termination=termination,
        evaluation=_floats("<7d", data, 56),
    )


def _match_footer(data: bytes) -> MatchFooter:
    score1, score2, winner = struct.unpack_from("<iii", data, 12)
    (date,) = struct.unpack_from("<d", data, 48)
    return MatchFooter(score=(score1, score2), winner=winner, date=_date(date))


def decode_records(data: bytes, *, path: str | None = None) -> list[XgRecord]:
    """The records of ``temp.xg`` in file order; kinds this reader does not use (XG's
    "missing" and unimplemented records) are ``None``.

    Raises:
        XgFileError: if the data is not whole records, the first is not a match header
            (with its magic number), or a record is of an unknown kind.
    """
    if not data or len(data) % RECORD_BYTES:
        raise XgFileError(
            f"the match data is cut short or damaged: {len(data)} bytes, not whole "
            f"{RECORD_BYTES}-byte records",
            path=path,
        )
    records: list[XgRecord] = []
    version = 0
    for number, start in enumerate(range(0, len(data), RECORD_BYTES), 1):
        chunk = data[start : start + RECORD_BYTES]
        kind = chunk[8]
        if (number == 1) != (kind == 0):
            expected = "the match header (kind 0)" if number == 1 else "a record after the header"
            raise XgFileError(
                f"a record of kind {kind}, expected {expected}", path=path, record=number
            )
        try:
            record = _decode(kind, chunk, version)
        except ValueError as error:
            raise XgFileError(str(error), path=path, record=number) from None
        if isinstance(record, MatchHeader):
            version = record.version
        records.append(record)
    return records


def _decode(kind: int, chunk: bytes, version: int) -> XgRecord:
    if kind == 0:
        return _match_header(chunk)
    if kind == 1:
        return _game_header(chunk, version)
    if kind == 2:
        return _cube_record(chunk)
    if kind == 3:
        return _move_record(chunk)
    if kind == 4:
        return _game_footer(chunk)
    if kind == 5:
        return _match_footer(chunk)
    if kind in (6, 7):
        return None
    raise ValueError(f"unknown record kind {kind} (expected 0 to 7)")


def decode_rollouts(data: bytes) -> list[Rollout]:
    """The rollouts of ``temp.xgr`` (a trailing partial record is ignored)."""
    rollouts = []
    for start in range(0, len(data) - ROLLOUT_BYTES + 1, ROLLOUT_BYTES):
        chunk = data[start : start + ROLLOUT_BYTES]
        truncated, truncation = struct.unpack_from("<B3xi", chunk, 0)
        (cubeless,) = struct.unpack_from("<B", chunk, 41)
        (games,) = struct.unpack_from("<i", chunk, 84)
        error, error_double = struct.unpack_from("<ff", chunk, 2020)
        (games_double,) = struct.unpack_from("<i", chunk, 2140)
        rollouts.append(
            Rollout(
                games=games,
                result=_floats("<7f", chunk, 2028),
                error=float(error),
                games_double=games_double,
                result_double=_floats("<7f", chunk, 2056),
                error_double=float(error_double),
                truncated=bool(truncated),
                truncation=truncation,
                cubeless=bool(cubeless),
            )
        )
    return rollouts


def decode_comments(data: bytes) -> list[str]:
    """The comments of ``temp.xgc``: one per line (CR LF between lines; XG writes the
    line breaks inside a comment as the bytes 1, 2), each as plain text (RTF markup
    removed)."""
    text = data.decode("cp1252", errors="replace")
    return [_plain(line.replace("\x01\x02", "\n")) for line in text.split("\r\n")]


def _plain(rtf: str) -> str:
    """The text of a simple RTF document (groups of destinations dropped, control
    words removed, ``\\par`` as a line break); other text unchanged."""
    if not rtf.startswith("{\\rtf"):
        return rtf
    out: list[str] = []
    depth = 0
    skip_depth: int | None = None
    index = 0
    while index < len(rtf):
        char = rtf[index]
        index += 1
        if char == "{":
            depth += 1
            if rtf.startswith(("\\*", "\\fonttbl", "\\colortbl", "\\stylesheet"), index):
                skip_depth = depth if skip_depth is None else skip_depth
        elif char == "}":
            if skip_depth == depth:
                skip_depth = None
            depth -= 1
        elif char == "\\":
            word_end = index
            while word_end < len(rtf) and rtf[word_end].isalpha():
                word_end += 1
            word = rtf[index:word_end]
            if not word and index < len(rtf):
                if skip_depth is None and rtf[index] in "\\{}":
                    out.append(rtf[index])
                index += 1
                continue
            while word_end < len(rtf) and (rtf[word_end].isdigit() or rtf[word_end] == "-"):
                word_end += 1
            if word_end < len(rtf) and rtf[word_end] == " ":
                word_end += 1
            if skip_depth is None and word in ("par", "line"):
                out.append("\n")
            index = word_end
        elif skip_depth is None and char not in "\r\n":
            out.append(char)
    return "".join(out).strip()
