"""Match files: Jellyfish ``.mat``, GNU Backgammon's SGF and OGXM (read and written),
and eXtreme Gammon's ``.xg``/``.xgp`` (read only), read through a visitor and replayed
through the rules.

>>> import backgammon.formats as formats
>>> record = formats.read_match("tests/data/reference/formats/match01_3pt.mat")  # doctest: +SKIP
>>> record.length, record.games[0].score_before, record.games[0].score_after  # doctest: +SKIP
(3, (0, 0), (0, 1))
"""

from __future__ import annotations

from pathlib import Path

from backgammon.errors import MatchFileError, XgFileError
from backgammon.formats.record import (
    GameRecord,
    Location,
    MatchInfo,
    MatchRecord,
    MatchVisitor,
    RecordBuilder,
    RecordEntry,
)
from backgammon.formats.xg import XgPosition, read_xg_position
from backgammon.formats.xg_analysis import XgCheckerAnalysis, XgCubeAnalysis
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    Drop,
    Raccoon,
    RejectResignation,
    Take,
)
from backgammon.rules.game import Game, OpeningRoll
from backgammon.rules.match import Match

__all__ = [
    "GameRecord",
    "Location",
    "MatchInfo",
    "MatchRecord",
    "MatchVisitor",
    "RecordBuilder",
    "RecordEntry",
    "XgCheckerAnalysis",
    "XgCubeAnalysis",
    "XgPosition",
    "detect_format",
    "read_match",
    "read_match_bytes",
    "read_match_text",
    "read_xg_position",
    "record_of_match",
    "write_match",
    "write_match_text",
]

FORMATS = ("mat", "sgf")
READ_ONLY_FORMATS = ("xg", "xgp")
XG_MAGIC = b"RGMH"
OGXM_MAGIC = b"OGXM"


def detect_format(text: str, path: str | Path | None = None) -> str:
    """``"sgf"`` or ``"mat"``: by content (an SGF file starts with ``(;``), else by the
    file's extension, else ``"mat"``."""
    if text.lstrip("\ufeff \t\r\n").startswith("(;"):
        return "sgf"
    if path is not None and Path(path).suffix.lower() == ".sgf":
        return "sgf"
    return "mat"


def read_match_text(
    text: str, format: str | None = None, *, path: str | None = None
) -> MatchRecord:
    """Read a match from text, replaying every action through the rules.

    Raises:
        MatchFileError: on anything malformed or illegal, with its location.
    """
    kind = format or detect_format(text, path)
    builder = RecordBuilder()
    if kind == "sgf":
        from backgammon.formats.sgf import read_sgf

        read_sgf(text, builder, path=path)
    elif kind == "mat":
        from backgammon.formats.mat import read_mat

        read_mat(text, builder, path=path)
    else:
        raise ValueError(f"unknown match format {kind!r}; known: {', '.join(FORMATS)}")
    return builder.record


def read_match(path: str | Path) -> MatchRecord:
    """Read a match file: ``.mat``, ``.sgf``, OGXM's ``.ogxm``, or eXtreme Gammon's
    ``.xg`` (chosen by content, then extension).

    The record has ``.length`` and ``.games``; each game has ``.score_before`` and
    ``.score_after`` as (first player, second player) tuples in the file's order. From an
    ``.xg`` file, XG's analysis is kept on the entries it analysed
    (``entry.annotations["xg"]``: an :class:`XgCheckerAnalysis` or
    :class:`XgCubeAnalysis`).

    Raises:
        MatchFileError: if the file cannot be read, is not text, or is malformed or
            illegal anywhere (with the line and column; for ``.xg`` files an
            :class:`~backgammon.errors.XgFileError` naming the record, game and move).
    """
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise MatchFileError(f"cannot read the file: {error.strerror}", path=name) from None
    return read_match_bytes(data, path=name)


def read_match_bytes(data: bytes, *, path: str | None = None) -> MatchRecord:
    """Read a match from a file's bytes: an eXtreme Gammon file if it starts with
    XG's magic number or ``path`` ends in ``.xg``/``.xgp``, an OGXM file (``OGXM``,
    ``.ogxm``; a one-match ``.ogxms`` stream), else ``.mat`` or SGF text.

    Raises:
        MatchFileError: as :func:`read_match`.
    """
    name = path
    suffix = "" if path is None else Path(path).suffix.lower().lstrip(".")
    if not data:
        empty = XgFileError if suffix in READ_ONLY_FORMATS else MatchFileError
        raise empty("the file is empty (0 bytes)", path=name)
    if data.startswith(XG_MAGIC) or suffix in READ_ONLY_FORMATS:
        from backgammon.formats.xg import read_xg

        builder = RecordBuilder()
        read_xg(data, builder, path=name)
        return builder.record
    if suffix == "ogxms":
        from backgammon.formats.ogxm import ogxm_stream_members

        members = ogxm_stream_members(data, path=name, at_most=1)  # none replayed yet
        if len(members) != 1:
            many = "no match" if not members else "more than one match"
            raise MatchFileError(
                f"an OGXM stream of {many}: read it with read_ogxm_stream", path=name
            )
        data = members[0]
    if data.startswith(OGXM_MAGIC) or suffix in ("ogxm", "ogxms"):
        from backgammon.formats.ogxm import read_ogxm

        builder = RecordBuilder()
        read_ogxm(data, builder, path=name)
        return builder.record
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    if "\x00" in text:
        raise MatchFileError("not a text file (it contains NUL bytes)", path=name)
    return read_match_text(text, path=name)


def write_match_text(record: MatchRecord, format: str) -> str:
    """The text of ``record`` as a ``"mat"`` or ``"sgf"`` file."""
    if format == "sgf":
        from backgammon.formats.sgf import write_sgf

        return write_sgf(record)
    if format == "mat":
        from backgammon.formats.mat import write_mat

        return write_mat(record)
    raise ValueError(f"unknown match format {format!r}; known: {', '.join(FORMATS)}")


def write_match(record: MatchRecord, path: str | Path) -> None:
    """Write ``record`` to ``path`` as ``.mat``, ``.sgf`` or ``.ogxm``, chosen by the
    extension.

    Raises:
        ValueError: for another extension (``.xg``/``.xgp`` are read only).
        OSError: if the file cannot be written.
    """
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in READ_ONLY_FORMATS:
        raise ValueError(
            f"eXtreme Gammon's .{suffix} files are read only: write .mat, .sgf or .ogxm, got {path}"
        )
    if suffix == "ogxm":
        from backgammon.formats.ogxm import write_ogxm

        Path(path).write_bytes(write_ogxm(record))
        return
    if suffix not in FORMATS:
        raise ValueError(
            f"cannot write {path}: the format is chosen by the extension, .mat, .sgf or .ogxm"
        )
    Path(path).write_text(write_match_text(record, suffix), encoding="utf-8")


def record_of_match(match: Match) -> MatchRecord:
    """A record of a match played with the rules' :class:`Match` (e.g. in the terminal
    game), ready to be written."""
    info = MatchInfo(match.length, match.players, match.rules, match.variant)
    record = MatchRecord(info)
    for number, game in enumerate(match.games, 1):
        record.games.append(_record_of_game(number, game))
    return record


def _record_of_game(number: int, game: Game) -> GameRecord:
    replay = Game(game.variant, rules=game.rules, context=game.context)
    record = GameRecord(number, game.context.score, crawford=game.context.crawford)
    for action in game.history:
        if isinstance(action, OpeningRoll):
            player = action.starter if action.starter is not None else 0
        elif isinstance(action, Take | Drop | Beaver | AcceptResignation | RejectResignation):
            player = replay.decider if replay.decider is not None else 0
        elif isinstance(action, Raccoon):
            player = replay.pending.by if replay.pending is not None else 0
        else:
            player = replay.turn if replay.turn is not None else 0
        replay.push_unchecked(action)
        record.entries.append(RecordEntry(player, action))
    record.outcome = game.outcome
    return record
