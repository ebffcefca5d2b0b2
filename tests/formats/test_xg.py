"""eXtreme Gammon files: every move and cube action replays through the rules, the
scores agree with XG's, XG's candidate plays resolve to legal plays, errors are located,
and no bytes make anything but our own error escape.

The files are built by ``tests/formats/xg_files.py`` from the reference matches, laid out
as the real files of ``tests/data/xg/gammonview`` are (``test_xg_real.py`` reads those).
"""

from __future__ import annotations

import contextlib
import json
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from backgammon import Play, Roll, XgFileError
from backgammon.apps.cli import app
from backgammon.formats import (
    MatchRecord,
    RecordEntry,
    XgCheckerAnalysis,
    XgCubeAnalysis,
    read_match,
    read_match_bytes,
    read_xg_position,
    write_match,
)
from backgammon.formats.xg import steps_notation
from backgammon.formats.xg_analysis import XG_KEY
from backgammon.formats.xg_archive import open_container
from backgammon.formats.xg_records import RECORD_BYTES, decode_comments, decode_records
from backgammon.rules.game import Game, OpeningRoll
from tests.formats import xg_files
from tests.formats.test_sgf import _random_record
from tests.reference import REFERENCE

MATCHES = sorted((REFERENCE / "formats").glob("match0*.mat"))


def signature(record: MatchRecord) -> list[tuple[object, ...]]:
    """Scores and every action with its player; a roll that no play follows (the file
    stops, or the player resigns after rolling) is left out: XG records rolls only
    with their moves."""
    games = []
    for game in record.games:
        entries = game.entries
        kept = [
            (entry.player, entry.action)
            for index, entry in enumerate(entries)
            if not isinstance(entry.action, Roll)
            or (index + 1 < len(entries) and isinstance(entries[index + 1].action, Play))
        ]
        games.append((game.score_before, game.score_after, tuple(kept)))
    return games


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_every_action_replays_and_the_scores_are_xgs(path: Path, tmp_path: Path) -> None:
    original = read_match(path)
    target = tmp_path / f"{path.stem}.xg"
    target.write_bytes(xg_files.xg_of(original))
    record = read_match(target)
    assert record.players == original.players and record.length == original.length
    assert signature(record) == signature(original)
    records = decode_records(open_container(target.read_bytes()).files["temp.xg"])
    footers = [r for r in records if type(r).__name__ == "GameFooter"]
    assert [game.score_after for game in record.games] == [f.score for f in footers]
    assert record.score == records[-1].score  # type: ignore[union-attr]
    assert record.info.metadata["event"] == "Test event"
    assert record.info.metadata["site"] == "DailyGammon"


@pytest.mark.parametrize("path", MATCHES[:1], ids=lambda p: p.name)
def test_xgs_candidate_plays_are_legal_and_its_analysis_is_kept(path: Path) -> None:
    record = read_match_bytes(xg_files.xg_of(read_match(path)), path="match.xg")
    checked = cubes = 0
    for game, entry, analysis in xg_analyses(record):
        if isinstance(analysis, XgCheckerAnalysis):
            legal = {play.position for play in game.legal_plays()} or {game.position}
            assert analysis.options and all(o.play.position in legal for o in analysis.options)
            assert analysis.played is not None
            assert analysis.options[analysis.played].play.position == entry.action.position
            assert analysis.best is analysis.options[0]
            assert analysis.to_json()["options"][0]["play"] == str(analysis.options[0].play)
            checked += 1
        else:
            assert analysis.best_action == "double, take"  # 0.2 < 0.35 < 1.0
            cubes += 1
    assert checked > 20 and cubes > 10


def xg_analyses(
    record: MatchRecord,
) -> Iterator[tuple[Game, RecordEntry, XgCheckerAnalysis | XgCubeAnalysis]]:
    """Every action XG analysed, with the game replayed up to just before it."""
    for game_record in record.games:
        game = Game(record.info.variant, rules=record.info.rules)
        for entry in game_record.entries:
            analysis = entry.annotations.get(XG_KEY)
            if isinstance(analysis, XgCheckerAnalysis | XgCubeAnalysis):
                yield game, entry, analysis
            game.push(entry.action)


@pytest.mark.parametrize("seed", range(12))
def test_random_matches_replay_from_xg(seed: int) -> None:
    """Money sessions, Jacoby, beavers and raccoons, Nackgammon and Hypergammon,
    resignations and games left unfinished."""
    original = _random_record(seed)
    record = read_match_bytes(xg_files.xg_of(original), path="random.xg")
    assert record.info.rules.jacoby == original.info.rules.jacoby
    assert record.info.rules.beavers == original.info.rules.beavers
    assert record.info.variant == original.info.variant
    assert signature(record) == signature(original)


@pytest.mark.parametrize("path", MATCHES[:2], ids=lambda p: p.name)
def test_either_player_numbering_reads_the_same_match(path: Path) -> None:
    original = read_match(path)
    swapped = xg_files.swap_numbering(xg_files.match_records(original))
    record = read_match_bytes(xg_files.xg_file(swapped), path="swapped.xg")
    assert signature(record) == signature(original)


def _records_of(path: Path) -> list[bytes]:
    return xg_files.match_records(read_match(path))


def test_an_illegal_move_is_a_located_error() -> None:
    records = _records_of(MATCHES[0])
    index = next(i for i, r in enumerate(records) if r[8] == 3 and i > 6)
    move = bytearray(records[index])
    struct.pack_into("<2i", move, 100, 6, 6)  # other dice than the play's
    records[index] = bytes(move)
    with pytest.raises(XgFileError, match=r"game 1, move \d+: .*not a legal play") as caught:
        read_match_bytes(xg_files.xg_file(records), path="bad.xg")
    assert caught.value.record == index + 1
    assert str(caught.value).startswith(f"bad.xg: record {index + 1}: game 1, move")


def test_a_wrong_score_is_a_located_error() -> None:
    records = _records_of(MATCHES[0])
    index = next(i for i, r in enumerate(records) if r[8] == 4)
    footer = bytearray(records[index])
    struct.pack_into("<i", footer, 12, 7)
    records[index] = bytes(footer)
    with pytest.raises(XgFileError, match="XG gives the score 7-"):
        read_match_bytes(xg_files.xg_file(records), path="bad.xg")


def test_a_cube_action_by_the_wrong_player_is_refused() -> None:
    records = _records_of(MATCHES[0])
    index = next(i for i, r in enumerate(records) if r[8] == 2 and r[16] == 1)
    cube = bytearray(records[index])
    struct.pack_into("<i", cube, 12, -struct.unpack_from("<i", cube, 12)[0])
    records[index] = bytes(cube)
    with pytest.raises(XgFileError, match=r"Double by player \d, but player \d must act"):
        read_match_bytes(xg_files.xg_file(records), path="bad.xg")


def test_container_errors_say_what_is_wrong() -> None:
    data = xg_files.xg_of(read_match(MATCHES[1]))
    with pytest.raises(XgFileError, match="expected b'RGMH'"):
        read_match_bytes(b"XXXX" + data[4:], path="a.xg")
    with pytest.raises(XgFileError, match="CRC-32 does not match"):
        read_match_bytes(data[:9000] + bytes([data[9000] ^ 1]) + data[9001:], path="a.xg")
    with pytest.raises(XgFileError, match="fewer than its 8232-byte header"):
        read_match_bytes(data[:100], path="a.xg")
    with pytest.raises(XgFileError, match="do not fit in the file"):
        read_match_bytes(data[:-40] + data[-36:], path="a.xg")


def test_moves_name_the_bar_and_off_and_ignore_what_follows_the_end() -> None:
    assert steps_notation((24, 20, 5, -2, -1, 7, 7, 7)) == "bar/21 6/off"
    assert steps_notation((23, 17, 12, 9, -1, -1, 1, -1)) == "24/18 13/10"


def test_comments_lose_their_rtf_markup() -> None:
    rtf = r"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\f0\fs20 Nice \b roll\b0\par Bad one}"
    assert decode_comments(f"plain\r\n{rtf}".encode()) == ["plain", "Nice roll\nBad one"]


def test_comments_reach_the_record() -> None:
    records = _records_of(MATCHES[1])
    index = next(i for i, r in enumerate(records) if r[8] == 3)
    move = bytearray(records[index])
    struct.pack_into("<i", move, 2524, 1)
    records[index] = bytes(move)
    data = xg_files.xg_file(records, xgc=b"unused\r\nA fine\x01\x02move")
    record = read_match_bytes(data, path="c.xg")
    commented = [e for e in record.games[0].entries if e.comment]
    assert [e.comment for e in commented] == ["A fine\nmove"]
    assert isinstance(commented[0].action, Play)


def _position_file() -> bytes:
    """An .xgp-like file: a game set up after 52: 13/8 13/11, the opponent to play 64."""
    game = Game()
    game.push(OpeningRoll(5, 2))
    game.play("13/8 13/11")
    game.push(Roll(6, 4))
    position = game.position
    plays = list(game.legal_plays())
    records = [
        xg_files.match_header(("Ann", "Bob"), 7),
        xg_files.game_header(3, (2, 4), False, position.flip()),
        xg_files.cube_record(1, position, double=0),
        xg_files.move_record(1, position, Roll(6, 4), plays[0], plays[:3]),
    ]
    return xg_files.xg_file(records)


def test_a_position_file_gives_its_decision_and_xgs_plays() -> None:
    decision = read_xg_position(_position_file(), path="p.xgp")
    assert decision.player == 1 and decision.score == (2, 4)
    assert decision.dice == Roll(6, 4)
    assert decision.info.players == ("Ann", "Bob") and decision.info.length == 7
    analysis = decision.analysis
    assert isinstance(analysis, XgCheckerAnalysis) and len(analysis.options) == 3
    legal = {play.position for play in decision.position.legal_plays((6, 4))}
    assert all(option.play.position in legal for option in analysis.options)


def test_a_position_file_is_not_a_match(tmp_path: Path) -> None:
    path = tmp_path / "p.xgp"
    path.write_bytes(_position_file())
    with pytest.raises(XgFileError, match="set-up position"):
        read_match(path)


def test_cli_converts_xg_to_sgf_and_mat_and_refuses_to_write_xg(tmp_path: Path) -> None:
    source = tmp_path / "match.xg"
    original = read_match(MATCHES[1])
    source.write_bytes(xg_files.xg_of(original))
    runner = CliRunner()
    for suffix in (".sgf", ".mat"):
        target = tmp_path / f"out{suffix}"
        result = runner.invoke(app, ["convert", str(source), str(target)])
        assert result.exit_code == 0, result.output
        assert signature(read_match(target)) == signature(original)
    refused = runner.invoke(app, ["convert", str(MATCHES[1]), str(tmp_path / "out.xg")])
    assert refused.exit_code == 2 and "read only" in refused.output
    assert not (tmp_path / "out.xg").exists()
    with pytest.raises(ValueError, match="read only"):
        write_match(original, tmp_path / "x.xgp")


def test_cli_reports_a_broken_xg_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.xg"
    bad.write_bytes(b"RGMH" + bytes(100))
    result = CliRunner().invoke(app, ["convert", str(bad), str(tmp_path / "out.sgf")])
    assert result.exit_code == 2 and "error: " in result.output and "bad.xg" in result.output


# -- fuzzing: only XgFileError escapes ------------------------------------------------

SMALL = xg_files.match_records(read_match(MATCHES[1]))[:40]
SMALL_FILE = xg_files.xg_file(SMALL)


def _only_our_error(data: bytes) -> None:
    with contextlib.suppress(XgFileError):
        read_match_bytes(data, path="fuzz.xg")
    with contextlib.suppress(XgFileError):
        read_xg_position(data, path="fuzz.xgp")


@given(st.binary(max_size=2000))
@settings(max_examples=100, deadline=None)
def test_random_bytes(data: bytes) -> None:
    _only_our_error(b"RGMH" + data)
    _only_our_error(data)


@given(st.lists(st.tuples(st.integers(0, len(SMALL_FILE) - 1), st.integers(1, 255)), max_size=8))
@settings(max_examples=60, deadline=None)
def test_flipped_bytes_in_the_file(flips: list[tuple[int, int]]) -> None:
    data = bytearray(SMALL_FILE)
    for offset, mask in flips:
        data[offset] ^= mask
    _only_our_error(bytes(data))


@given(st.integers(0, len(SMALL_FILE)))
@settings(max_examples=40, deadline=None)
def test_truncated_files(size: int) -> None:
    _only_our_error(SMALL_FILE[:size])


@given(
    st.lists(
        st.tuples(
            st.integers(0, len(SMALL) - 1),
            st.integers(8, RECORD_BYTES - 1),
            st.sampled_from([1, 0x80, 0xFF, 0x7F]),
        ),
        min_size=1,
        max_size=4,
    )
)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_mutated_records_with_valid_checksums(mutations: list[tuple[int, int, int]]) -> None:
    records = [bytearray(record) for record in SMALL]
    for index, offset, mask in mutations:
        records[index][offset] ^= mask
    _only_our_error(xg_files.xg_file([bytes(record) for record in records]))


@given(st.integers(-(2**31), 2**31 - 1), st.sampled_from([4, 8, 12, 16, 20]))
@settings(max_examples=30, deadline=None)
def test_wrong_sizes_in_the_archive_trailer(value: int, field: int) -> None:
    data = bytearray(SMALL_FILE)
    struct.pack_into("<i", data, len(data) - 36 + field, value)
    _only_our_error(bytes(data))


@given(st.sampled_from([512, 516, 520]), st.integers(-(2**31), 2**31 - 1))
@settings(max_examples=40, deadline=None)
def test_wrong_sizes_in_the_registry_with_a_valid_checksum(field: int, value: int) -> None:
    def patch(entry: bytearray) -> None:
        struct.pack_into("<i", entry, field, value)

    _only_our_error(xg_files.container({"temp.xg": b"".join(SMALL)}, patch=patch))


FIELDS = [12, 16, 20, 24, 28, 32, 48, 64, 68, 72, 76, 80, 100, 104, 108, 124 + 64, 552, 92, 96]


@given(
    st.integers(0, len(SMALL) - 1),
    st.one_of(
        st.tuples(st.sampled_from(FIELDS), st.integers(-(2**31), 2**31 - 1)),
        st.tuples(st.integers(8, 61), st.integers(-128, 127)),
    ),
)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_wrong_values_in_record_fields(index: int, change: tuple[int, int]) -> None:
    offset, value = change
    record = bytearray(SMALL[index])
    if offset in FIELDS:
        struct.pack_into("<i", record, offset, value)
    else:
        struct.pack_into("<b", record, offset, value)
    records = [*SMALL[:index], bytes(record), *SMALL[index + 1 :]]
    _only_our_error(xg_files.xg_file(records))


def test_cli_analyzes_an_xg_file_and_puts_xgs_analysis_beside_ours(tmp_path: Path) -> None:
    source = tmp_path / "match.xg"
    source.write_bytes(xg_files.xg_of(read_match(MATCHES[1])))
    report = tmp_path / "analysis.json"
    result = CliRunner().invoke(
        app,
        ["analyze", str(source), "--errors", "0", "--processes", "1", "--json", str(report)],
        terminal_width=160,
    )
    assert result.exit_code == 0, result.output
    # The path may be wrapped (rich's 80 columns; a parallel worker's temporary folder
    # is deeper): look for the file's name with the white space taken out.
    unwrapped = "".join(result.output.split())
    assert "match.xg" in unwrapped and "gnubg" in result.output and "PR" in result.output
    decisions = json.loads(report.read_text())["decisions"]
    checker = [d for d in decisions if d["kind"] == "checker" and not d["forced"]]
    assert checker and all(d["file_analysis"]["kind"] == "checker" for d in checker)
    for decision in checker:
        xg = decision["file_analysis"]
        assert xg["options"][xg["played"]]["play"] == decision["play"]
    cube = [d for d in decisions if d["kind"] == "cube" and d["file_analysis"] is not None]
    assert cube and all(d["file_analysis"]["best_action"] == "double, take" for d in cube)


def test_a_game_resigned_before_its_opening_roll_reads() -> None:
    """As a real server's file has it (tests/data/xg/README.md): the game's footer
    says a single resignation and no move was made. It was refused (the rules had no
    one on roll to resign); the loser now resigns before the opening roll."""
    records = _records_of(MATCHES[0])
    first_footer = next(i for i, r in enumerate(records) if r[8] == 4)
    score = struct.unpack_from("<ii", records[first_footer], 12)
    after = (score[0] + 1, score[1])
    records = [
        *records[: first_footer + 1],
        xg_files.game_header(2, score, False, Game().position),
        xg_files.game_footer(after, 0, 1, 101),
        xg_files.match_footer(after, 0),
    ]
    record = read_match_bytes(xg_files.xg_file(records), path="early.xg")
    resigned = record.games[1]
    assert [entry.action.player for entry in resigned.entries[:1]] == [1]
    assert resigned.outcome is not None and resigned.outcome.winner == 0
    assert resigned.score_after == after
