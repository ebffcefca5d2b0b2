"""OGXM files through the ``ogxm`` package's reference codec: our matches written as
OGXM pass its v2 rules and read back as the same match; OGXM → SGF → OGXM keeps the
file; streams; bad bytes raise only our error."""

from __future__ import annotations

import contextlib
from itertools import pairwise
from pathlib import Path

import ogxm
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from backgammon import MatchFileError, Play, Roll
from backgammon.apps.cli import app
from backgammon.formats import MatchRecord, read_match, read_match_bytes, write_match
from backgammon.formats.ogxm import ogxm_document, read_ogxm_stream, write_ogxm
from tests.formats.test_sgf import _random_record
from tests.reference import REFERENCE

REAL = Path(__file__).parents[1] / "data" / "xg" / "gammonview"
UNREADABLE = {"5nqfGw9bWG3deTaU", "hQ8sVn2LbTdF4wRm", "rK7pXm4TqLb9NzWd", "uwvEbd63UvdX7SDin5o_Iw"}
FILES = [
    *sorted((REFERENCE / "formats").glob("match0*.mat")),
    *sorted((REFERENCE / "formats").glob("match0*.sgf")),
    *(
        path
        for path in sorted(REAL.glob("*.mat")) + sorted(REAL.glob("*.xg"))
        if path.stem not in UNREADABLE
    ),
]


def signature(record: MatchRecord) -> list[tuple[object, ...]]:
    """Scores and every action with its player: a play by where it leads, a roll by
    its dice (OGXM keeps a roll's dice, not their order); a roll that no play follows
    (the file stops there) is left out."""
    games = []
    for game in record.games:
        entries = game.entries
        kept: list[tuple[int, object]] = []
        for index, entry in enumerate(entries):
            action = entry.action
            if isinstance(action, Roll):
                if index + 1 == len(entries) or not isinstance(entries[index + 1].action, Play):
                    continue
                kept.append((entry.player, ("roll", action.low, action.high)))
            else:
                kept.append((entry.player, action.position if isinstance(action, Play) else action))
        games.append((game.score_before, game.score_after, tuple(kept)))
    return games


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_our_files_round_trip_through_ogxm(path: Path, tmp_path: Path) -> None:
    record = read_match(path)
    target = tmp_path / "match.ogxm"
    write_match(record, target)
    data = target.read_bytes()
    document = ogxm.binary_to_json(data)
    assert ogxm.v2_problem(document) is None
    assert ogxm.json_to_binary(document) == data
    assert document["replay_complete"] is True
    length = record.length or 1 << 30
    capped = tuple(min(points, length) for points in record.score)  # OGXM caps
    assert (document["white_score"], document["black_score"]) == capped
    again = read_match(target)
    assert again.players == record.players and again.length == record.length
    assert _cube_rules(again) == _cube_rules(record)
    assert signature(again) == signature(record)


def test_ogxm_to_sgf_to_ogxm_keeps_the_file(tmp_path: Path) -> None:
    record = read_match(FILES[2])
    record.info.metadata["event"] = "Club night"
    record.info.metadata["date"] = "2025-06-01"
    first = write_ogxm(record)
    sgf = tmp_path / "match.sgf"
    write_match(read_match_bytes(first, path="m.ogxm"), sgf)
    assert write_ogxm(read_match(sgf)) == first
    assert ogxm.binary_to_json(first)["event"] == "Club night"
    assert ogxm.binary_to_json(first)["started_at"] == 1748736000000  # 2025-06-01 00:00 UTC
    assert read_match(sgf).info.metadata["date"] == "2025-06-01"


@pytest.mark.parametrize("seed", range(10))
def test_random_matches_round_trip(seed: int) -> None:
    """Money sessions with Jacoby, beavers and raccoons, Nackgammon, Hypergammon,
    resignations and unfinished games."""
    record = _random_record(seed)
    data = write_ogxm(record)
    assert ogxm.v2_problem(ogxm.binary_to_json(data)) is None
    again = read_match_bytes(data, path="random.ogxm")
    assert again.info.variant == record.info.variant
    assert _cube_rules(again) == _cube_rules(record)
    assert signature(again) == signature(record)


def _cube_rules(record: MatchRecord) -> tuple[object, ...]:
    """What OGXM keeps of the cube rules (beavers and raccoons in money play only)."""
    rules = record.info.rules
    money = not record.length
    return (rules.beavers and money, rules.raccoons and money and rules.beavers, rules.max_cube)


def test_a_stream_gives_each_match(tmp_path: Path) -> None:
    records = [read_match(FILES[0]), read_match(FILES[1])]
    data = b"".join(write_ogxm(record) for record in records)
    read = read_ogxm_stream(data, path="two.ogxms")
    assert [signature(r) for r in read] == [signature(r) for r in records]
    path = tmp_path / "two.ogxms"
    path.write_bytes(data)
    with pytest.raises(MatchFileError, match="stream of more than one match"):
        read_match(path)


def test_cli_converts_to_and_from_ogxm(tmp_path: Path) -> None:
    runner = CliRunner()
    target = tmp_path / "match.ogxm"
    result = runner.invoke(app, ["convert", str(FILES[0]), str(target)])
    assert result.exit_code == 0, result.output
    back = tmp_path / "back.mat"
    result = runner.invoke(app, ["convert", str(target), str(back)])
    assert result.exit_code == 0, result.output
    assert signature(read_match(back)) == signature(read_match(FILES[0]))


def test_what_ogxm_cannot_hold_is_refused() -> None:
    from backgammon.variants import find

    record = read_match(FILES[0])
    record.info = type(record.info)(
        record.info.length, record.info.players, record.info.rules, find("tavla")
    )
    with pytest.raises(ValueError, match="not tavla"):
        ogxm_document(record)


SAMPLE = write_ogxm(read_match(FILES[1]))


@given(st.binary(max_size=600))
@settings(max_examples=60, deadline=None)
def test_random_bytes_raise_only_our_error(data: bytes) -> None:
    with contextlib.suppress(MatchFileError):
        read_match_bytes(b"OGXM" + data, path="fuzz.ogxm")


@given(st.lists(st.tuples(st.integers(0, len(SAMPLE) - 1), st.integers(1, 255)), max_size=4))
@settings(max_examples=60, deadline=None)
def test_flipped_bytes_raise_only_our_error(flips: list[tuple[int, int]]) -> None:
    data = bytearray(SAMPLE)
    for offset, mask in flips:
        data[offset] ^= mask
    with contextlib.suppress(MatchFileError):
        read_match_bytes(bytes(data), path="fuzz.ogxm")


def _steps(moves: list[dict[str, int]]) -> list[tuple[int, int]]:
    return sorted((move["from"], move["pips"]) for move in moves)


def test_cli_writes_our_analysis_into_the_ogxm_file(tmp_path: Path) -> None:
    from backgammon import __version__

    target = tmp_path / "analysed.ogxm"
    result = CliRunner().invoke(
        app,
        ["analyze", str(FILES[1]), "--errors", "0", "--processes", "1", "--ogxm", str(target)],
    )
    assert result.exit_code == 0, result.output
    data = target.read_bytes()
    document = ogxm.binary_to_json(data)
    assert ogxm.v2_problem(document) is None
    assert ogxm.json_to_binary(document) == data
    info = document["analysis_info"]
    assert (info["model_name"], info["engine_build"]) == ("backgammon", __version__)
    plies = [ply for game in document["games"] for ply in game["plies"]]
    analysed = [ply for ply in plies if "alternatives" in ply.get("analysis", {})]
    assert len(analysed) > 20
    for ply in analysed:
        alternatives = ply["analysis"]["alternatives"]
        played = [a for a in alternatives if a["is_played"]]
        assert len(played) == 1 and _steps(played[0]["move"]) == _steps(ply.get("moves", []))
        assert alternatives[0]["equity"] == max(a["equity"] for a in alternatives)
    assert signature(read_match(target)) == signature(read_match(FILES[1]))


def test_our_analysis_written_reads_back_as_the_files_analysis() -> None:
    from backgammon.analysis import AnalysisSettings, CheckerAnalysis, analyze_match
    from backgammon.analysis.file_analysis import file_analysis, ogxm_analysis
    from backgammon.formats.ogxm import OgxmCheckerRead, OgxmCubeRead

    record = read_match(FILES[1])
    analysis = analyze_match(record, settings=AnalysisSettings(ply=0), store=False)
    data = write_ogxm(record, ogxm_analysis(analysis))
    document = ogxm.binary_to_json(data)
    assert ogxm.v2_problem(document) is None and ogxm.json_to_binary(document) == data
    cubes = [
        ply["analysis"]["cube_decision"]
        for game in document["games"]
        for ply in game["plies"]
        if "cube_decision" in ply.get("analysis", {})
    ]
    # Every "no double" (the codec keeps no analysis on a double's ply).
    waited = [d for d in analysis.decisions if getattr(d, "action", "") == "no double"]
    assert len(cubes) == len(waited) > 5
    again = read_match_bytes(data, path="analysed.ogxm")
    plays = cube_decisions = 0
    for decision in analysis.decisions:
        found = file_analysis(again, decision)
        if isinstance(decision, CheckerAnalysis):
            if not decision.options:
                continue
            assert isinstance(found, OgxmCheckerRead), decision
            assert found.engine.startswith("backgammon ")
            # The same plays in our canonical notation, the same equities (to the
            # codec's precision), the play made marked.
            ours = [(option.play, option.equity) for option in decision.options]
            assert [play for play, _ in found.options] == [play for play, _ in ours]
            for (_, theirs), (_, mine) in zip(found.options, ours, strict=True):
                assert abs(theirs - mine) < 1e-5
            assert found.played is not None
            assert found.options[found.played][0] == decision.play
            plays += 1
        elif decision in waited:
            assert isinstance(found, OgxmCubeRead), decision
            assert abs(found.no_double - decision.no_double) < 1e-5
            assert abs(found.double_take - decision.double_take) < 1e-5
            assert abs(found.double_drop - decision.double_pass) < 1e-5
            cube_decisions += 1
    assert plays > 20 and cube_decisions == len(waited)
    # A file without analyses gives none.
    plain = read_match_bytes(write_ogxm(record), path="plain.ogxm")
    assert all(file_analysis(plain, decision) is None for decision in analysis.decisions)


def test_the_dice_keep_their_order_through_ogxm_where_the_moves_can_say_it() -> None:
    """OGXM stores a roll as one of the 21 (low die first); the moves' order says which
    die came first, so a 5-2 played 13/8 13/11 comes back 5-2, not 2-5 (issue 54).
    Where the rules fix the order (a checker entering from the bar, or one checker
    moving on with the other die) the format cannot say it."""
    kept = free = 0
    for path in FILES:
        if path.suffix != ".mat":
            continue
        record = read_match(path)
        again = read_match_bytes(write_ogxm(record), path="m.ogxm")
        for game, game_again in zip(record.games, again.games, strict=True):
            entries = list(zip(game.entries, game_again.entries, strict=True))
            for (entry, entry_again), (after, _) in pairwise(entries):
                if type(entry.action).__name__ != "Roll" or not isinstance(after.action, Play):
                    continue
                steps = after.action.steps
                if any(s.source == 25 or s.destination == 0 for s in steps):
                    continue
                first = [s for s in steps if s.die == entry.action.first]
                ends = {s.destination for s in steps}
                if entry.action.is_double or not any(s.source not in ends for s in first):
                    continue
                free += 1
                kept += entry.action.dice == entry_again.action.dice
    assert free > 50 and kept == free, (kept, free)
