"""Build eXtreme Gammon files for the tests: records laid out as XG's published format
describes them, packed in its container, from matches read from our reference files.

The library only reads XG files; this writer exists so the tests can make files with
known contents, and mutate them record by record (re-packed with correct checksums).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Iterable

from backgammon import Beaver, Double, Drop, Play, Position, Raccoon, Roll, Take
from backgammon.formats import GameRecord, MatchRecord
from backgammon.formats.xg_records import RECORD_BYTES
from backgammon.rules.game import Ending, Game, OpeningRoll, Outcome, WinKind
from backgammon.rules.match import Match

HEADER_BYTES = 8232


def board(position: Position) -> tuple[int, ...]:
    """A position (seen from the mover) as XG's 26 signed counts."""
    player, opponent = position.player, position.opponent
    counts = [0] * 26
    for point in range(1, 25):
        counts[point] = player[point] - opponent[25 - point]
    counts[25] = player[25]
    counts[0] = -opponent[25]
    return tuple(counts)


def player_one_board(position: Position, player: int) -> tuple[int, ...]:
    """A position seen from ``player`` (0 or 1) as XG keeps a cube record's board and a
    move record's board before the play: always with XG's player 1 as the positive side."""
    return board(position if player == 0 else position.flip())


def steps(play: Play) -> tuple[int, ...]:
    """A play's steps as XG's eight (from, to) numbers."""
    pairs: list[int] = []
    for step in play.steps:
        source = 24 if step.source == 25 else step.source - 1
        target = step.destination - 1 if step.destination > 0 else -2
        pairs += [source, target]
    return tuple(pairs + [-1] * (8 - len(pairs)))


def _record(kind: int) -> bytearray:
    data = bytearray(RECORD_BYTES)
    data[8] = kind
    return data


def _pascal(data: bytearray, offset: int, text: str, capacity: int) -> None:
    raw = text.encode("cp1252")[:capacity]
    data[offset] = len(raw)
    data[offset + 1 : offset + 1 + len(raw)] = raw


def _wide(data: bytearray, offset: int, text: str) -> None:
    raw = text.encode("utf-16-le")[:256]
    data[offset : offset + len(raw)] = raw


def match_header(
    players: tuple[str, str],
    length: int,
    *,
    crawford: bool = True,
    jacoby: bool = False,
    beaver: bool = False,
    event: str = "Test event",
    version: int = 30,
    variation: int = 0,
) -> bytes:
    """The match header (``length`` 0: a money session)."""
    data = _record(0)
    _pascal(data, 9, players[0], 40)
    _pascal(data, 50, players[1], 40)
    struct.pack_into("<ii4B", data, 92, length or 99999, variation, crawford, jacoby, beaver, 0)
    struct.pack_into("<d", data, 128, 45000.5)  # 2023-03-15, noon
    _pascal(data, 136, event, 128)
    struct.pack_into("<iI", data, 552, version, 0x494C4D44)
    struct.pack_into("<ii", data, 576, -1, -1)
    struct.pack_into("<i", data, 608, 4)  # DailyGammon
    struct.pack_into("<ii", data, 612, 0, 0)
    for index, text in enumerate((event, players[0], players[1], "Online", "Final")):
        _wide(data, 622 + 258 * index, text)
    return bytes(data)


def game_header(number: int, score: tuple[int, int], crawford: bool, start: Position) -> bytes:
    data = _record(1)
    struct.pack_into("<iiB", data, 12, score[0], score[1], crawford)
    struct.pack_into("<26b", data, 21, *board(start))
    struct.pack_into("<iBxxxiii", data, 48, number, 0, -1, -1, 0)
    return bytes(data)


def cube_record(
    player: int, position: Position, *, double: int, take: int = -1, beaver: int = -1
) -> bytes:
    """A cube decision of ``player`` (0 or 1) before a roll, with made-up analysis."""
    data = _record(2)
    xg_player = 1 if player == 0 else -1
    struct.pack_into("<6i", data, 12, xg_player, double, take, beaver, -1, 0)
    struct.pack_into("<26b", data, 36, *player_one_board(position, player))
    if double == -2:
        struct.pack_into("<d", data, 200, -1000.0)
        struct.pack_into("<diii", data, 216, -1000.0, -1, 0, -1)
    else:
        struct.pack_into("<i", data, 64 + 28, 2)
        struct.pack_into("<7f", data, 64 + 60, 0.01, 0.12, 0.45, 0.55, 0.15, 0.01, 0.12)
        struct.pack_into("<3f", data, 64 + 88, 0.2, 0.35, 1.0)
        struct.pack_into("<d", data, 200, 0.0)
        struct.pack_into("<diii", data, 216, 0.0, -1, 0, 2)
    struct.pack_into("<i", data, 292, -1)
    return bytes(data)


def move_record(
    player: int, before: Position, dice: Roll, play: Play, candidates: Iterable[Play]
) -> bytes:
    data = _record(3)
    struct.pack_into("<26b", data, 9, *player_one_board(before, player))
    struct.pack_into("<26b", data, 35, *board(play.position))
    xg_player = 1 if player == 0 else -1
    struct.pack_into("<9i", data, 64, xg_player, *steps(play))
    struct.pack_into("<2ii", data, 100, dice.first, dice.second, 0)
    listed = list(candidates)
    base = 124
    struct.pack_into("<i", data, base + 64, len(listed))
    for index, candidate in enumerate(listed):
        struct.pack_into("<26b", data, base + 68 + 26 * index, *board(candidate.position))
        moves = list(steps(candidate))
        if -1 in moves:  # XG leaves stale numbers after the end marker
            end = moves.index(-1)
            moves[end + 1 :] = [7] * (7 - end)
        struct.pack_into("<8b", data, base + 900 + 8 * index, *moves[:8])
        struct.pack_into("<h", data, base + 1156 + 4 * index, 2)
        equity = 0.1 - 0.05 * index
        struct.pack_into(
            "<7f", data, base + 1284 + 28 * index, 0.01, 0.1, 0.45, 0.55, 0.12, 0.01, equity
        )
    played = next((i for i, c in enumerate(listed) if c.position == play.position), 0)
    struct.pack_into("<B3xdd", data, 2308, 1, 0.05 * played, 0.02)
    struct.pack_into("<32i", data, 2344, *([-1] * 32))
    struct.pack_into("<i", data, 2472, 2)
    struct.pack_into("<i", data, 2524, -1)
    return bytes(data)


def game_footer(score: tuple[int, int], winner: int, points: int, termination: int) -> bytes:
    data = _record(4)
    struct.pack_into(
        "<iiBxxxiii", data, 12, score[0], score[1], 0, 1 if winner == 0 else -1, points, termination
    )
    return bytes(data)


def match_footer(score: tuple[int, int], winner: int) -> bytes:
    data = _record(5)
    struct.pack_into("<iii", data, 12, score[0], score[1], 1 if winner == 0 else -1)
    return bytes(data)


def _termination(outcome: Outcome) -> int:
    kind = int(WinKind(outcome.kind))
    if outcome.ending is Ending.DROPPED:
        return 0
    if outcome.ending is Ending.RESIGNED:
        return 100 + kind
    return kind


def match_records(record: MatchRecord) -> list[bytes]:
    """The XG records of a match read from one of our files (every game replayed)."""
    info = record.info
    records = [
        match_header(
            info.players,
            info.length,
            crawford=info.rules.crawford,
            beaver=info.rules.beavers,
            jacoby=info.rules.jacoby,
            variation={"nackgammon": 1, "hypergammon": 2}.get(info.variant.name, 0),
        )
    ]
    match = Match(info.length, rules=info.rules, variant=info.variant, players=info.players)
    for game_record in record.games:
        game = match.new_game()
        records.append(
            game_header(
                game_record.number, game_record.score_before, game_record.crawford, game.position
            )
        )
        _game_records(game, game_record, records)
        outcome = game.outcome
        if outcome is not None:
            records.append(
                game_footer(
                    game_record.score_after, outcome.winner, outcome.points, _termination(outcome)
                )
            )
    if record.games and record.games[-1].outcome is not None:
        records.append(match_footer(record.score, record.games[-1].outcome.winner))
    return records


def _game_records(game: Game, game_record: GameRecord, records: list[bytes]) -> None:
    entries = game_record.entries
    double_at: int | None = None
    answer = {"take": -1, "beaver": -1}
    for index, entry in enumerate(entries):
        action = entry.action
        if isinstance(action, OpeningRoll):
            starter = action.starter or 0
            records.append(cube_record(starter, game.position_for(starter), double=-2))
        elif isinstance(action, Roll):
            previous = entries[index - 1].action if index else None
            if not isinstance(previous, Take | Beaver | Raccoon):
                records.append(cube_record(entry.player, game.position, double=0))
        elif isinstance(action, Play):
            dice = game.dice
            assert dice is not None
            others = [p for p in game.legal_plays() if p.position != action.position][:2]
            candidates = [*others[:1], action, *others[1:]]
            records.append(move_record(entry.player, game.position, dice, action, candidates))
        elif isinstance(action, Double):
            double_at = len(records)
            answer = {"take": -1, "beaver": -1}
            records.append(cube_record(entry.player, game.position, double=1))
        elif isinstance(action, Take | Drop | Beaver | Raccoon):
            assert double_at is not None and game.pending is not None
            doubler = game.pending.by
            if isinstance(action, Raccoon):
                answer["beaver"] = 2
            else:
                answer["take"] = (
                    1 if isinstance(action, Take) else 0 if isinstance(action, Drop) else 2
                )
                answer["beaver"] = 1 if answer["take"] == 2 else -1
            records[double_at] = cube_record(
                doubler, game.position_for(doubler), double=1, **answer
            )
        game.push(action)


def container(
    files: dict[str, bytes],
    *,
    thumbnail: bytes = b"",
    compress: bool = True,
    patch: Callable[[bytearray], None] | None = None,
) -> bytes:
    """XG's container around ``files`` (their names as XG uses them); ``patch`` may
    change each registry entry before the checksum is taken."""
    header = bytearray(HEADER_BYTES)
    struct.pack_into("<4sIIqI", header, 0, b"RGMH", 1, HEADER_BYTES, 0, len(thumbnail))
    name = "Test Game".encode("utf-16-le")
    header[40 : 40 + len(name)] = name
    stored = bytearray()
    registry = bytearray()
    for file_name, content in files.items():
        body = zlib.compress(content) if compress else content
        entry = bytearray(532)
        raw_name = file_name.encode("ascii")
        entry[0] = len(raw_name)
        entry[1 : 1 + len(raw_name)] = raw_name
        struct.pack_into(
            "<iiiIBB",
            entry,
            512,
            len(content),
            len(body),
            len(stored),
            zlib.crc32(content),
            0 if compress else 1,
            6,
        )
        stored += body
        if patch is not None:
            patch(entry)
        registry += entry
    packed_registry = zlib.compress(bytes(registry))
    archive = bytes(stored) + packed_registry
    trailer = struct.pack(
        "<IiiiiI12x", zlib.crc32(archive), len(files), 1, len(packed_registry), len(stored), 1
    )
    return bytes(header) + thumbnail + archive + trailer


def xg_file(records: list[bytes], **files: bytes) -> bytes:
    """A whole .xg file of these records (plus optional ``temp.xgc``/``temp.xgr``)."""
    contents = {
        "temp.xgi": records[0] + (records[-1] if len(records) > 1 else b""),
        "temp.xg": b"".join(records),
    }
    for key, value in files.items():
        contents[f"temp.{key}"] = value
    return container(contents)


def xg_of(record: MatchRecord) -> bytes:
    """A whole .xg file of ``record``."""
    return xg_file(match_records(record))


def swap_numbering(records: list[bytes]) -> list[bytes]:
    """The records with XG's active-player and winner codes the other way round (as
    some readers report real files number them)."""
    offsets = {2: 12, 3: 64, 4: 24}
    player_one_boards = {2: 36, 3: 9}  # XG's player 1 is their positive side
    swapped = []
    for record in records:
        data = bytearray(record)
        offset = offsets.get(data[8])
        if offset is not None:
            struct.pack_into("<i", data, offset, -struct.unpack_from("<i", data, offset)[0])
        start = player_one_boards.get(data[8])
        if start is not None:
            counts = struct.unpack_from("<26b", data, start)
            struct.pack_into("<26b", data, start, *(-count for count in reversed(counts)))
        swapped.append(bytes(data))
    return swapped
