"""eXtreme Gammon's ``.xg`` match files and ``.xgp`` position files, read (XG's own
format is not written: write ``.sgf`` or ``.mat`` instead).

:func:`read_xg` streams a file through a :class:`~backgammon.formats.record.MatchVisitor`
(pair it with :class:`~backgammon.formats.record.RecordBuilder` to replay every move and
cube action through the rules), with XG's analysis attached to the plays and cube
decisions it analysed (see :mod:`backgammon.formats.xg_analysis`).
:func:`read_xg_position` reads the decision of an ``.xgp`` position file.

How XG's records become actions:

- Players: XG's player 1 is player 0 here (the first name), player 2 is player 1. The
  active-player codes are read as the published format says (1: player 1) unless the
  first decided game shows the file numbering them the other way (its last mover won,
  and the score column that grew is theirs); a game's winner is the player whose score
  grew.
- A cube record before a roll: "no decision" (-2) is skipped, and so is the -1 that
  real files put before a resignation's game footer; "no double" keeps its
  analysis on the roll that follows; a double is ``Double``, then ``Take``, ``Drop`` or
  ``Beaver`` (and ``Raccoon``) by the right player. A refused beaver cannot be replayed.
- Boards: a move record's board before the play and a cube record's board keep XG's
  player 1 positive whoever is on roll; the board after a play and the candidates' are
  seen from the mover (see :func:`from_mover`).
- A move record: its roll, then the play. The play is the legal play that leads to the
  position XG recorded after it; its steps must agree, and XG's position before it
  must be the one the rules reached.
- The game footer: a resignation (termination 101-103) is ``Resign`` and
  ``AcceptResignation``; a drop or a borne-off game must end by the rules with the
  winner and points XG recorded, and the score after it must be XG's. A settled game
  (termination 1000 and over) cannot be replayed and is refused.

Errors are :class:`~backgammon.errors.XgFileError` naming the record, game and move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backgammon.errors import BackgammonError, XgFileError
from backgammon.formats.record import Location, MatchInfo, MatchVisitor
from backgammon.formats.xg_analysis import (
    XG_KEY,
    XgCheckerAnalysis,
    XgCubeAnalysis,
    XgPlayOption,
    level_name,
    probabilities,
)
from backgammon.formats.xg_archive import XgContainer, open_container
from backgammon.formats.xg_records import (
    Candidate,
    CubeRecord,
    GameFooter,
    GameHeader,
    MatchFooter,
    MatchHeader,
    MoveRecord,
    Rollout,
    XgRecord,
    decode_comments,
    decode_records,
    decode_rollouts,
)
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    CubeRules,
    CubeState,
    Double,
    Drop,
    Raccoon,
    Resign,
    ResignLevel,
    Take,
)
from backgammon.rules.dice import Roll
from backgammon.rules.play import Play, legal_plays, parse_play
from backgammon.rules.position import Position
from backgammon.rules.variant import STANDARD, Variant

__all__ = ["XgPosition", "read_xg", "read_xg_position"]

GAME_FILE = "temp.xg"
ROLLOUT_FILE = "temp.xgr"
COMMENT_FILE = "temp.xgc"

_SITES = (
    "GammonSite",
    "FIBS",
    "TrueMoney Games",
    "GridGammon",
    "DailyGammon",
    "NetGammon",
    "VOG",
    "Gammon Empire/Play65",
    "Club Games",
    "PartyGammon",
    "XcitingGames",
    "BGRoom",
    "DiceArena",
    "Safe Harbor Games",
    "GameAccount",
    "XG Mobile",
)
_VARIATIONS = {0: "standard", 1: "nackgammon", 2: "hypergammon"}


def _variant(code: int) -> Variant:
    if code == 0:
        return STANDARD
    name = _VARIATIONS.get(code)
    if name is None:
        raise ValueError(
            f"variation {code} ({'Longgammon' if code == 3 else 'unknown'}) is not supported"
        )
    from backgammon.variants import find

    return find(name)


def _player(code: int, swapped: bool = False) -> int:
    """XG's active player (1 or -1; 2 in some files) as 0 or 1 (``swapped``: the file
    numbers its players the other way round, see :func:`_numbering_swapped`)."""
    if code == 1:
        return int(swapped)
    if code in (-1, 2):
        return 1 - int(swapped)
    raise ValueError(f"active player {code}, expected 1 or -1")


def _numbering_swapped(records: list[XgRecord]) -> bool:
    """Whether the file's active-player codes run opposite to its score columns.

    The published format says 1 is player 1 (the first score); readers of real files
    have reported the opposite. The first game that ends without a settlement settles
    it: its last mover won (they bore off, or the opponent resigned on their turn; a
    dropped double: the doubler), and the score column that grew is theirs. Without
    such a game the published numbering holds.
    """
    score: tuple[int, int] | None = None
    last: int | None = None
    for record in records:
        if isinstance(record, GameHeader):
            score, last = record.score, None
        elif isinstance(record, MoveRecord) or (
            isinstance(record, CubeRecord) and record.double == 1
        ):
            last = record.player
        elif isinstance(record, GameFooter) and score is not None and last in (1, -1, 2):
            gains = (record.score[0] - score[0], record.score[1] - score[1])
            if record.termination < 1000 and (gains[0] > 0) != (gains[1] > 0):
                column = 0 if gains[0] > 0 else 1
                return _player(last) != column
    return False


def board_position(board: tuple[int, ...], variant: Variant = STANDARD) -> Position:
    """An XG ``PositionEngine`` (seen from one side) as a :class:`Position` seen from
    that side.

    Raises:
        InvalidPositionError: if the checkers do not fit ``variant``.
        ValueError: if a bar holds checkers of the wrong side.
    """
    if board[25] < 0 or board[0] > 0:
        raise ValueError(f"a bar holds the wrong side's checkers: {list(board)}")
    player = [0] * 26
    opponent = [0] * 26
    for point in range(1, 25):
        count = board[point]
        if count > 0:
            player[point] = count
        elif count < 0:
            opponent[25 - point] = -count
    player[25], opponent[25] = board[25], -board[0]
    total = variant.checkers
    for side, name in ((player, "the side it is seen from"), (opponent, "the other side")):
        on_board = sum(side)
        if on_board > total:
            raise ValueError(f"{name} has {on_board} checkers, more than {total}")
        side[0] = total - on_board
    position = Position(player, opponent)
    position.validate(variant)
    return position


def from_mover(board: tuple[int, ...], code: int) -> tuple[int, ...]:
    """A move record's position before the play, or a cube record's position, as seen
    by the player on roll (active-player ``code``).

    XG keeps those boards with player 1 (code 1) as the positive side whoever is on
    roll, while a play's position after it, and its candidates', are seen from the
    mover. Eleven real match files (1,937 plays) bear this out; a board for code -1
    (or 2) is therefore turned round: point ``p`` becomes ``25 - p`` and the signs swap.
    """
    if code == 1:
        return board
    return tuple(-count for count in reversed(board))


def _board(board: tuple[int, ...], variant: Variant, what: str) -> Position:
    try:
        return board_position(board, variant)
    except (BackgammonError, ValueError) as error:
        raise ValueError(f"{what}: {error}") from None


def steps_notation(steps: tuple[int, ...]) -> str:
    """XG's (from, to) pairs (0-based, 24 the bar, -2 off, -1 the end) as notation."""
    parts = []
    for index in range(0, len(steps) - 1, 2):
        source, target = steps[index], steps[index + 1]
        if source == -1:
            break
        start = "bar" if source == 24 else str(source + 1)
        end = "off" if target < 0 else str(target + 1)
        parts.append(f"{start}/{end}")
    return " ".join(parts)


def resolve_play(
    before: Position, dice: Roll, steps: tuple[int, ...], after: Position | None, variant: Variant
) -> Play:
    """The legal play of ``dice`` from ``before`` that XG's ``steps`` describe, leading
    to ``after`` when given.

    Raises:
        ValueError: if no legal play fits (the message quotes the steps).
    """
    plays = legal_plays(before, dice, variant)
    if not plays:
        if after is not None and after != before:
            raise ValueError(f"no play is legal with {dice}, but the position changed")
        return Play.no_move(before)
    notation = steps_notation(steps)
    if after is not None:
        for play in plays:
            if play.position == after:
                return play
        raise ValueError(f"{notation or 'no move'} with {dice}: not a legal play here")
    try:
        return parse_play(notation, before, dice, variant)
    except BackgammonError as error:
        raise ValueError(f"{notation or 'no move'} with {dice}: {error}") from None


@dataclass(slots=True)
class _Context:
    """What the reader knows while it walks the records."""

    path: str | None
    variant: Variant
    rollouts: list[Rollout]
    comments: list[str]
    swapped: bool = False
    record: int = 0
    game: int = 0
    move: int = 0
    score: tuple[int, int] = (0, 0)
    length: int = 0
    footer_comment: int = -1
    cube_note: XgCubeAnalysis | None = None

    def fail(self, message: str) -> XgFileError:
        where = f"game {self.game}, move {self.move}: " if self.game else ""
        return XgFileError(where + message, path=self.path, record=self.record)

    def rollout(self, index: int) -> Rollout | None:
        return self.rollouts[index] if 0 <= index < len(self.rollouts) else None

    def comment(self, index: int) -> str | None:
        return self.comments[index] or None if 0 <= index < len(self.comments) else None


def read_xg(data: bytes, visitor: MatchVisitor, *, path: str | None = None) -> XgContainer:
    """Stream an ``.xg`` file's match through ``visitor`` (see the module's notes) and
    return its container (header texts, thumbnail, raw files).

    Raises:
        XgFileError: if the file is malformed, or (with a
            :class:`~backgammon.formats.record.RecordBuilder`) a move or cube action is
            illegal, or a score differs from the rules', naming record, game and move.
    """
    container = open_container(data, path=path)
    files = container.files
    if GAME_FILE not in files:
        raise XgFileError(f"the archive has no {GAME_FILE} (the game records)", path=path)
    records = decode_records(files[GAME_FILE], path=path)
    context = _Context(
        path,
        STANDARD,
        decode_rollouts(files.get(ROLLOUT_FILE, b"")),
        decode_comments(files.get(COMMENT_FILE, b"")),
        swapped=_numbering_swapped(records),
    )
    for number, record in enumerate(records, 1):
        context.record = number
        try:
            _visit(record, visitor, context)
        except XgFileError:
            raise
        except (BackgammonError, ValueError) as error:
            raise context.fail(str(error)) from None
    visitor.end_match(Location(path))
    return container


def _visit(record: XgRecord, visitor: MatchVisitor, context: _Context) -> None:
    where = Location()
    if isinstance(record, MatchHeader):
        info = _match_info(record)
        context.variant, context.length = info.variant, info.length
        visitor.begin_match(info, where)
        for index in (record.comment_header, record.comment_footer):
            note = context.comment(index)
            if note:
                visitor.comment(note, where)
    elif isinstance(record, GameHeader):
        _begin_game(record, visitor, context)
    elif isinstance(record, CubeRecord):
        _cube(record, visitor, context)
    elif isinstance(record, MoveRecord):
        _move(record, visitor, context)
    elif isinstance(record, GameFooter):
        _end_game(record, visitor, context)
    elif (
        isinstance(record, MatchFooter)
        and context.game
        and record.score not in (context.score, _capped(context))
    ):
        raise context.fail(
            f"the match footer gives the score {record.score[0]}-{record.score[1]}, but "
            f"the games give {context.score[0]}-{context.score[1]}"
        )


def _capped(context: _Context) -> tuple[int, int]:
    length = context.length or 1 << 30
    return min(context.score[0], length), min(context.score[1], length)


def _match_info(header: MatchHeader) -> MatchInfo:
    variant = _variant(header.variation)
    money = header.length == 0
    limit = header.cube_limit
    rules = CubeRules(
        beavers=money and header.beaver,
        raccoons=money and header.beaver,
        jacoby=money and header.jacoby,
        crawford=header.crawford or money,
        automatic_doubles=max(header.auto_double_max, 1) if money and header.auto_double else 0,
        max_cube=2**limit if 0 < limit <= 15 else None,
    )
    metadata = {
        "event": header.event,
        "round": header.round,
        "place": header.location,
        "date": header.date.date().isoformat() if header.date else "",
        "site": _SITES[header.site_id] if 0 <= header.site_id < len(_SITES) else "",
        "transcriber": header.transcriber,
        "application": f"eXtreme Gammon (file version {header.version})",
    }
    players = tuple(
        name.strip() or f"Player {index}" for index, name in enumerate(header.players, 1)
    )
    return MatchInfo(
        header.length,
        (players[0], players[1]),
        rules,
        variant,
        {key: value for key, value in metadata.items() if value},
    )


def _begin_game(header: GameHeader, visitor: MatchVisitor, context: _Context) -> None:
    context.game = header.number if header.number > 0 else context.game + 1
    context.move = 0
    context.cube_note = None
    context.footer_comment = header.comment_footer
    if any(header.position):
        start = _board(header.position, context.variant, "the game's starting position")
        if start != Position.initial(context.variant):
            raise context.fail(
                "the game starts from a set-up position, which a match record cannot "
                "hold (for an .xgp position file use read_xg_position)"
            )
    visitor.begin_game(context.game, header.score, Location())
    context.score = header.score
    note = context.comment(header.comment_header)
    if note:
        visitor.comment(note, Location())


def _cube_analysis(record: CubeRecord, context: _Context) -> XgCubeAnalysis | None:
    analysis = record.analysis
    if record.analysis_level < 0 and record.error_double <= -1000:
        return None
    return XgCubeAnalysis(
        no_double=analysis.no_double,
        double_take=analysis.double_take,
        double_drop=analysis.double_drop,
        probabilities=probabilities(analysis.evaluation),
        level=level_name(record.analysis_level),
        double_error=None if record.error_double <= -1000 else record.error_double,
        take_error=None if record.error_take <= -1000 else record.error_take,
        rollout=context.rollout(record.rollout),
    )


def _cube(record: CubeRecord, visitor: MatchVisitor, context: _Context) -> None:
    if record.double in (-2, -1):  # no decision; -1: the game ends here (a resignation)
        return
    player = _player(record.player, context.swapped)
    analysis = _cube_analysis(record, context)
    if record.double == 0:
        context.cube_note = analysis
        return
    if record.double != 1:
        raise ValueError(f"a cube record says double={record.double}, expected -2, 0 or 1")
    context.move += 1
    where = Location()
    visitor.cube(player, Double(), where)
    _annotate(visitor, context.comment(record.comment), analysis)
    opponent = 1 - player
    if record.take == 1:
        visitor.cube(opponent, Take(), where)
    elif record.take == 0:
        visitor.cube(opponent, Drop(), where)
    elif record.take == 2:
        visitor.cube(opponent, Beaver(), where)
        if record.beaver_answer == 2:
            visitor.cube(player, Raccoon(), where)
        elif record.beaver_answer == 0:
            raise ValueError("the doubler refused the beaver, which the rules cannot replay")
    elif record.take != -1:  # -1: not answered yet (a game in progress)
        raise ValueError(f"a double answered with take={record.take}, expected 0, 1 or 2")


def _annotate(visitor: MatchVisitor, comment: str | None, analysis: object) -> None:
    annotations: dict[str, Any] = {} if analysis is None else {XG_KEY: analysis}
    if comment or annotations:
        visitor.annotate(comment, annotations, Location())


def _move(record: MoveRecord, visitor: MatchVisitor, context: _Context) -> None:
    context.move += 1
    player = _player(record.player, context.swapped)
    variant = context.variant
    dice = Roll(*record.dice)
    before = _board(
        from_mover(record.position_before, record.player), variant, "the position before the move"
    )
    after = _board(record.position_after, variant, "the position after the move")
    play = resolve_play(before, dice, record.steps, after, variant)
    visitor.roll(player, (dice.first, dice.second), Location())
    if context.cube_note is not None:
        _annotate(visitor, None, context.cube_note)
        context.cube_note = None
    visitor.play(player, play, Location())
    _annotate(
        visitor, context.comment(record.comment), _checker_analysis(record, before, dice, context)
    )


def _checker_analysis(
    record: MoveRecord, before: Position, dice: Roll, context: _Context
) -> XgCheckerAnalysis | None:
    if not record.candidates:
        return None
    options = []
    played = None
    for index, candidate in enumerate(record.candidates):
        play = _candidate_play(candidate, before, dice, context, index)
        if candidate.steps[:8] == record.steps[:8] or _same_steps(candidate.steps, record.steps):
            played = index
        options.append(
            XgPlayOption(
                play=play,
                equity=candidate.equity,
                probabilities=probabilities(candidate.evaluation),
                level=level_name(candidate.level),
                rollout=context.rollout(candidate.rollout),
            )
        )
    return XgCheckerAnalysis(
        options=tuple(options),
        played=played,
        error=None if record.error <= -1000 else record.error,
        luck=None if record.luck <= -1000 else record.luck,
    )


def _same_steps(first: tuple[int, ...], second: tuple[int, ...]) -> bool:
    """Whether two step lists name the same steps (up to the end marker)."""
    return steps_notation(first) == steps_notation(second)


def _candidate_play(
    candidate: Candidate, before: Position, dice: Roll, context: _Context, index: int
) -> Play:
    try:
        after = board_position(candidate.position, context.variant)
    except (BackgammonError, ValueError):
        after = None
    try:
        return resolve_play(before, dice, candidate.steps, after, context.variant)
    except ValueError as error:
        raise ValueError(f"XG's candidate play {index + 1}: {error}") from None


def _end_game(footer: GameFooter, visitor: MatchVisitor, context: _Context) -> None:
    gains = (footer.score[0] - context.score[0], footer.score[1] - context.score[1])
    if (gains[0] > 0) != (gains[1] > 0):  # the column that grew names the winner
        winner = 0 if gains[0] > 0 else 1
    else:
        winner = _player(footer.winner, context.swapped)
    termination = footer.termination
    where = Location()
    if termination >= 1000:
        raise ValueError("the game was settled, which the rules cannot replay")
    if termination >= 100:
        level = termination - 100
        if level not in (1, 2, 3):
            raise ValueError(f"a resignation of level {level}, expected 1, 2 or 3")
        visitor.resign(1 - winner, Resign(ResignLevel(level)), where)
        visitor.resign(winner, AcceptResignation(), where)
    visitor.end_game(winner, footer.points, where)
    score = list(context.score)
    score[winner] += footer.points
    expected = (score[0], score[1])
    length = context.length or 1 << 30
    capped = (min(expected[0], length), min(expected[1], length))
    if footer.score not in (expected, capped):
        raise context.fail(
            f"XG gives the score {footer.score[0]}-{footer.score[1]} after the game, but "
            f"the rules give {expected[0]}-{expected[1]}"
        )
    context.score = expected
    note = context.comment(context.footer_comment)
    if note:
        visitor.comment(note, where)


@dataclass(frozen=True, slots=True)
class XgPosition:
    """The decision of an ``.xgp`` position file (or the last one of an ``.xg`` file).

    Attributes:
        info: the match header (players, length, rules, variant, metadata).
        score: (player 0, player 1) points before the game.
        player: who is on roll (0 or 1).
        position: the position, seen from ``player``.
        cube: the cube's value and owner.
        dice: the roll for a checker play, ``None`` for a cube decision.
        analysis: XG's analysis of the decision (``None`` if it has none).
        comment: the decision's comment, if any.
    """

    info: MatchInfo
    score: tuple[int, int]
    player: int
    position: Position
    cube: CubeState
    dice: Roll | None
    analysis: XgCheckerAnalysis | XgCubeAnalysis | None
    comment: str | None = None


def _cube_state(code: int, player: int) -> CubeState:
    """XG's cube field (0 centred, +n owned by ``player``, -n by the opponent)."""
    if not -12 <= code <= 12:
        raise ValueError(f"a cube of 2**{abs(code)}, beyond the largest cube (4096)")
    if code == 0:
        return CubeState(1, None)
    return CubeState(2 ** abs(code), player if code > 0 else 1 - player)


def read_xg_position(data: bytes, *, path: str | None = None) -> XgPosition:
    """The last decision (checker play or cube decision) of an ``.xgp`` or ``.xg`` file,
    with XG's analysis; candidate plays are resolved to legal plays.

    Raises:
        XgFileError: if the file is malformed or has no decision.
    """
    container = open_container(data, path=path)
    if GAME_FILE not in container.files:
        raise XgFileError(f"the archive has no {GAME_FILE} (the game records)", path=path)
    records = decode_records(container.files[GAME_FILE], path=path)
    context = _Context(
        path,
        STANDARD,
        decode_rollouts(container.files.get(ROLLOUT_FILE, b"")),
        decode_comments(container.files.get(COMMENT_FILE, b"")),
        swapped=_numbering_swapped(records),
    )
    header = records[0]
    assert isinstance(header, MatchHeader)  # decode_records checks the first record
    score = (0, 0)
    found: XgPosition | None = None
    for number, record in enumerate(records, 1):
        context.record = number
        try:
            if number == 1:
                info = _match_info(header)
                context.variant = info.variant
            elif isinstance(record, GameHeader):
                score = record.score
            elif isinstance(record, MoveRecord | CubeRecord) and not (
                isinstance(record, CubeRecord) and record.double == -2
            ):
                found = _decision(record, info, score, context)
        except XgFileError:
            raise
        except (BackgammonError, ValueError) as error:
            raise context.fail(str(error)) from None
    if found is None:
        raise XgFileError("the file holds no checker play or cube decision", path=path)
    return found


def _decision(
    record: MoveRecord | CubeRecord, info: MatchInfo, score: tuple[int, int], context: _Context
) -> XgPosition:
    player = _player(record.player, context.swapped)
    if isinstance(record, CubeRecord):
        return XgPosition(
            info,
            score,
            player,
            board_position(from_mover(record.position, record.player), context.variant),
            _cube_state(record.cube, player),
            None,
            _cube_analysis(record, context),
            context.comment(record.comment),
        )
    dice = Roll(*record.dice)
    before = board_position(from_mover(record.position_before, record.player), context.variant)
    return XgPosition(
        info,
        score,
        player,
        before,
        _cube_state(record.cube, player),
        dice,
        _checker_analysis(record, before, dice, context),
        context.comment(record.comment),
    )
