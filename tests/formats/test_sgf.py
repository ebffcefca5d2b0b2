"""GNU Backgammon's SGF: the reference matches read, replay and round-trip; the
generic parser; the encodings of moves, cube actions, resignations and set-up; and
malformed input raising only :class:`MatchFileError`."""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon.errors import MatchFileError
from backgammon.formats.record import Location, MatchInfo, MatchRecord, RecordBuilder
from backgammon.formats.sgf import (
    MAX_NODES,
    SgfNode,
    SgfProperty,
    SgfTree,
    SgfWriter,
    format_sgf,
    parse_sgf,
    read_sgf,
    write_sgf,
)
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
from backgammon.rules.game import Ending, OpeningRoll, WinKind
from backgammon.rules.match import Match
from backgammon.rules.play import Play
from backgammon.rules.variant import STANDARD, Variant
from backgammon.variants import find
from tests.reference import FORMATS

SGF_FILES = sorted(FORMATS.glob("*.sgf"))
HERE = Location()


@cache
def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@cache
def _read(path: Path) -> MatchRecord:
    builder = RecordBuilder()
    read_sgf(_text(path), builder, path=str(path))
    return builder.record


def _read_text(text: str) -> MatchRecord:
    builder = RecordBuilder()
    read_sgf(text, builder)
    return builder.record


def _mat_for(path: Path) -> Path:
    return FORMATS / (path.name.removesuffix("_analysed.sgf").removesuffix(".sgf") + ".mat")


def _mat_summary(text: str) -> dict[str, Any]:
    """Length, players and per game (score before, winner, points) from a .mat file,
    by regular expressions (independent of the library's .mat reader)."""
    found = re.search(r"^\s*(\d+) point match", text, re.M)
    assert found is not None
    length = int(found.group(1))
    blocks = re.split(r"^\s*Game \d+\s*$", text, flags=re.M)[1:]
    games = []
    players: tuple[str, str] | None = None
    for block in blocks:
        header = re.search(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$", block, re.M)
        assert header is not None
        players = (header.group(1), header.group(3))
        wins = re.search(r"^( *)Wins (\d+) points?", block, re.M)
        assert wins is not None
        winner = 0 if len(wins.group(1)) < 20 else 1
        games.append(((int(header.group(2)), int(header.group(4))), winner, int(wins.group(2))))
    assert players is not None
    return {"length": length, "players": players, "games": games}


def _entries(record: MatchRecord) -> list[list[tuple[Any, ...]]]:
    return [
        [(entry.player, entry.action, entry.comment, entry.annotations) for entry in game.entries]
        for game in record.games
    ]


def assert_same_record(first: MatchRecord, second: MatchRecord) -> None:
    """Equal header, scores, outcomes, actions, comments and annotations."""
    assert second.info == first.info
    assert second.comment == first.comment
    assert len(second.games) == len(first.games)
    for one, two in zip(first.games, second.games, strict=True):
        assert (two.number, two.score_before, two.score_after) == (
            one.number,
            one.score_before,
            one.score_after,
        )
        assert (two.outcome, two.crawford, two.comment) == (one.outcome, one.crawford, one.comment)
    assert _entries(second) == _entries(first)


# -- the reference matches ------------------------------------------------------------


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda path: path.name)
def test_reference_match_replays_to_the_mat_scores(path: Path) -> None:
    record = _read(path)
    mat = _mat_summary(_text(_mat_for(path)))
    assert record.length == mat["length"]
    assert record.players == mat["players"]  # PW is player 0, the .mat's left column
    assert len(record.games) == len(mat["games"])
    for game, (score, winner, points) in zip(record.games, mat["games"], strict=True):
        assert game.score_before == score
        assert game.outcome is not None
        assert (game.outcome.winner, game.outcome.points) == (winner, points)
    last_score, last_winner, last_points = mat["games"][-1]
    final = list(last_score)
    final[last_winner] += last_points
    assert record.score == tuple(final)
    assert max(record.score) >= record.length


def test_reference_details() -> None:
    record = _read(FORMATS / "match01_3pt.sgf")
    assert record.info.metadata == {"date": "2026-11-22"}
    assert record.info.rules.crawford
    first = record.games[0]
    opening, play = first.entries[0], first.entries[1]
    assert opening.action == OpeningRoll(4, 6) and opening.player == 1  # B[64...]: root starts
    assert isinstance(play.action, Play) and str(play.action) == "24/14"
    assert play.annotations["A"][0] == "0" and "MR" in play.annotations
    assert [type(entry.action) for entry in first.entries[-2:]] == [Double, Drop]
    assert first.outcome is not None and first.outcome.ending is Ending.DROPPED
    second = record.games[1]  # RE[B+8R]: gnubg resigns a gammon with the cube at 4
    assert second.outcome is not None
    assert (second.outcome.ending, second.outcome.kind, second.outcome.cube) == (
        Ending.RESIGNED,
        WinKind.GAMMON,
        4,
    )
    assert [type(entry.action) for entry in second.entries[-2:]] == [Resign, AcceptResignation]
    assert second.entries[-2].player == 0
    crawford = _read(FORMATS / "match03_5pt.sgf").games
    assert [game.crawford for game in crawford] == [False, False, False, False, True]


def test_analysed_match_keeps_its_analysis() -> None:
    plain = _read(FORMATS / "match03_5pt.sgf")
    analysed = _read(FORMATS / "match03_5pt_analysed.sgf")
    assert [[(player, action) for player, action, *_ in game] for game in _entries(analysed)] == [
        [(player, action) for player, action, *_ in game] for game in _entries(plain)
    ]
    entries = [entry for game in analysed.games for entry in game.entries]
    first_play = analysed.games[0].entries[1]
    assert first_play.annotations["LU"] == ["0.00192"]
    assert first_play.annotations["A"][1].startswith("mhxw E ver 3 ")
    assert list(first_play.annotations) == ["A", "MR", "LU"]
    assert sum("LU" in entry.annotations for entry in entries) > 200
    assert sum("GW" in entry.annotations or "GB" in entry.annotations for entry in entries) > 20
    cube = [entry for entry in entries if isinstance(entry.action, Double | Take | Drop)]
    assert cube and all(entry.annotations["DA"][0].startswith("E ver 3") for entry in cube)
    rolls = [entry for entry in entries if isinstance(entry.action, Roll)]
    assert all(not entry.annotations for entry in rolls)  # a node's analysis goes to the play
    assert not any("LU" in entry.annotations for game in plain.games for entry in game.entries)


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda path: path.name)
def test_reference_round_trip(path: Path) -> None:
    record = _read(path)
    text = write_sgf(record)
    again = _read_text(text)
    assert_same_record(record, again)
    assert write_sgf(again) == text
    # Every action node is written exactly as GNU Backgammon wrote it.
    original = [line for line in _text(path).splitlines() if line.startswith(";")]
    assert [line for line in text.splitlines() if line.startswith(";")] == original
    roots = [line for line in text.splitlines() if line.startswith("(")]
    assert len(roots) == len(record.games)
    assert all("GM[6]" in root and "PW[gnubg]PB[root]" in root for root in roots)


def test_truncated_reference_files_raise_match_file_errors() -> None:
    text = _text(FORMATS / "match01_3pt.sgf")
    for cut in range(0, len(text), 1499):
        with pytest.raises(MatchFileError) as info:
            read_sgf(text[:cut], RecordBuilder(), path="cut.sgf")
        assert info.value.path == "cut.sgf" and info.value.line is not None


def test_games_cut_at_a_node_read_unfinished_and_round_trip() -> None:
    text = _text(FORMATS / "match01_3pt.sgf")
    game = text[: text.index(")") + 1]
    nodes = [match.start() for match in re.finditer(r"\n;", game)]
    for index, cut in enumerate(nodes[1::3]):
        closed = game[:cut] + ")"
        with pytest.raises(MatchFileError, match="not over"):
            read_sgf(closed, RecordBuilder())
        unfinished = closed.replace("RE[W+1]", "")
        record = _read_text(unfinished)
        assert record.games[0].outcome is None
        assert record.score == (0, 0)
        assert len(record.games[0].entries) >= 3 * index + 1
        assert_same_record(record, _read_text(write_sgf(record)))


# -- the generic parser ---------------------------------------------------------------


def test_parse_sgf_escapes_values_and_variations() -> None:
    text = "(;GM[6]C[a \\] b \\\\ c\\\nd]XX[1][2]\n  (;B[31]) (;W[42]))\n(;GM[6])"
    trees = parse_sgf(text)
    assert len(trees) == 2
    root = trees[0].nodes[0]
    assert root.get("C") == SgfProperty("C", ("a ] b \\ cd",))
    assert root.get("XX") == SgfProperty("XX", ("1", "2"))
    values = root.get("XX")
    assert values is not None and (values.line, values.column) == (2, 3)
    assert [tree.nodes[0].properties[0].name for tree in trees[0].variations] == ["B", "W"]
    assert [node.properties[0].values for node in trees[0].main_line()][1] == ("31",)
    assert parse_sgf(format_sgf(trees)) == trees


def test_format_sgf_lays_out_like_gnu_backgammon() -> None:
    tree = SgfTree(
        (
            SgfNode((SgfProperty("GM", ("6",)), SgfProperty("C", ("]\\",)))),
            SgfNode((SgfProperty("B", ("64aggk",)),)),
        )
    )
    assert format_sgf([tree]) == "(;GM[6]C[\\]\\\\]\n;B[64aggk])\n"
    with pytest.raises(ValueError, match="identifier"):
        format_sgf([SgfTree((SgfNode((SgfProperty("b", ("1",)),)),))])


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("", 1, 1, "no game tree"),
        ("  \n ", 2, 2, "no game tree"),
        ("(;GM[6]", 1, 8, "not closed"),
        ("(;GM[6]C[abc", 1, 9, "not closed"),
        ("(;GM[6]C)", 1, 9, "no value"),
        ("(;GM[6]c[x])", 1, 8, "upper case"),
        ("(;GM[6])x", 1, 9, "unexpected 'x'"),
        (";GM[6]", 1, 1, "outside any game tree"),
        ("(;GM[6]))", 1, 9, "unexpected ')'"),
        ("()", 1, 2, "empty game tree"),
        ("((;GM[6]))", 1, 2, "must start with a node"),
        ("(;GM[6](;B[11]);W[11])", 1, 16, "after a variation"),
        ("(;GM[6]GM[6])", 1, 8, "twice"),
        ("(;GM[1])", 1, 3, "not a backgammon game"),
        ("(;FF[4])", 1, 2, "no GM"),
        ("(;GM[6]\n;B[64])", 2, 2, "can be played"),
        ("(;GM[6]\n;B[6])", 2, 2, "expected double, take, drop"),
        ("(;GM[6]\n;B[64agg])", 2, 2, "pairs"),
        ("(;GM[6]\n;B[64aggkkllnno])", 2, 2, "four"),
        ("(;GM[6]\n;B[66agag])", 2, 2, "cannot be a double"),
        ("(;GM[6]\n;B[64ga])", 2, 2, "cannot move from"),
        ("(;GM[6]\n;B[64zaag])", 2, 2, "cannot move from"),
        ("(;GM[6]\n;B[64bhhl])", 2, 2, "no checker"),
        ("(;GM[6]\n;B[54afae])", 2, 2, "point 19 is held by the opponent"),
        ("(;GM[6]\n;B[64agag])", 2, 2, "not a legal play"),
        ("(;GM[6]\n;B[64aggk]W[61hgmg])", 2, 11, "both B and W"),
        ("(;GM[6]\n;B[64aggk]\n;B[61hgmg])", 3, 2, "turn"),
        ("(;GM[6]\n;B[take])", 2, 2, "no take"),
        ("(;GM[6]\n;B[resign])", 2, 2, "expected double"),
        ("(;GM[6]\n;A[0][x])", 2, 1, "before the game's first action"),
        ("(;GM[6]MI[length:x])", 1, 8, "MI[length:x]"),
        ("(;GM[6]RE[W+2])", 1, 8, "not over"),
        ("(;GM[6]RE[W+])", 1, 8, "points"),
        ("(;GM[6]RE[Z+1])", 1, 8, "expected W+points"),
        ("(;GM[6]MI[length:3]RE[W+1R]\n;B[64aggk]\n;W[double])", 1, 20, "cube decision is pending"),
        ("(;GM[6]RE[W+1R]\n;B[64aggk])", 1, 8, "only the player on roll"),
        ("(;GM[6]RE[B+5R]\n;B[64aggk])", 1, 8, "1, 2 or 3 times the cube"),
        ("(;GM[6]CV[2])", 1, 8, "automatic doubles"),
        ("(;GM[6]AB[a])", 1, 8, "set up"),
        ("(;GM[6]B[64aggk])", 1, 8, "root node"),
        ("(;GM[6]\n;AE[a:y])", 2, 2, "not supported"),
        ("(;GM[6]\n;PL[B])", 2, 2, "PL[B]"),
        ("(;GM[6]\n;DI[64])", 2, 2, "needs PL"),
        ("(;GM[6]\n;PL[B]DI[69])", 2, 7, "two dice"),
        ("(;GM[6]\n;PL[X]DI[64])", 2, 2, "expected W or B"),
        ("(;GM[6]\n;PL[B]DI[64]\n;B[61hgmg])", 3, 2, "set to"),
        ("(;GM[6]\n;PL[B]DI[64]\n;B[double])", 3, 2, "after rolling"),
        ("(;GM[6]\n;PL[B]DI[64]\n;PL[B]DI[64])", 3, 7, "rolled twice"),
        ("(;GM[6]\n;B[64aggk]B[double])", 2, 11, "twice"),
        ("(;GM[6]MI[length:3]\n;B[64aggk]\n;W[double]\n;B[drop]\n;B[double])", 5, 2, "end"),
        ("(;GM[6]MI[length:3]\n;B[64aggk]\n;W[double]\n;W[61hgmg])", 4, 2, "double waits"),
        ("(;GM[6]MI[length:3])(;GM[6]MI[length:5])", 1, 28, "5 points"),
        ("(;GM[6]RU[Crawford]MI[length:3])(;GM[6]MI[length:3])", 1, 34, "rules"),
    ],
)
def test_malformed_input(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(MatchFileError, match=re.escape(message)) as info:
        read_sgf(text, RecordBuilder(), path="bad.sgf")
    assert (info.value.path, info.value.line, info.value.column) == ("bad.sgf", line, column)


def test_dropping_a_beaver_is_refused() -> None:
    text = "(;GM[6]\n;B[64aggk]\n;W[double]\n;B[double]\n;W[drop])"
    with pytest.raises(MatchFileError, match="refusing a beaver"):
        read_sgf(text, RecordBuilder())


def test_a_second_game_before_the_first_ended() -> None:
    with pytest.raises(MatchFileError, match="before game 1 ended"):
        read_sgf("(;GM[6]\n;B[64aggk])(;GM[6])", RecordBuilder())


# -- encodings, by small hand-made files ---------------------------------------------


def test_points_letters_and_player_mapping() -> None:
    text = "(;GM[6]PW[White]PB[Black]\n;W[31hefe]\n;B[42qusu]\n;W[64xrrn]\n;B[21lnno]\n;W[42ywxt])"
    record = _read_text(text)
    assert record.players == ("White", "Black")
    plays = [entry for entry in record.games[0].entries if isinstance(entry.action, Play)]
    assert [(entry.player, str(entry.action)) for entry in plays] == [
        (0, "8/5 6/5"),  # White: a = its 1-point, so h = 8, e = 5, f = 6
        (1, "8/4 6/4"),  # Black: a = its 24-point, so q = 8, u = 4, s = 6
        (0, "24/14"),
        (1, "13/11*/10"),  # the hit is not written; it is found by replaying
        (0, "bar/23 24/20"),  # y = the bar
    ]
    hit = plays[3].action
    assert isinstance(hit, Play) and [step.hit for step in hit.steps] == [True, False]
    assert write_sgf(record).endswith(text.split("\n", 1)[1] + "\n")


def test_beaver_raccoon_and_take_in_a_money_game() -> None:
    text = (
        "(;GM[6]MI[length:0]\n;W[31hefe]\n;B[double]\n;W[double]\n;B[double]\n;W[take]\n;B[64aggk])"
    )
    record = _read_text(text)
    assert record.info.rules.beavers and record.info.rules.raccoons
    actions = [type(entry.action) for entry in record.games[0].entries]
    assert actions == [OpeningRoll, Play, Double, Beaver, Raccoon, Roll, Play]
    out = write_sgf(record)
    assert ";B[double]\n;W[double]\n;B[double]\n;W[take]\n;B[64aggk]" in out
    assert "RU[Beavers:Raccoons]" in out
    assert_same_record(record, _read_text(out))
    beaver_only = _read_text("(;GM[6]\n;W[31hefe]\n;B[double]\n;W[double]\n;B[take]\n;B[64aggk])")
    out = write_sgf(beaver_only)
    assert ";B[double]\n;W[double]\n;B[take]\n;B[64aggk]" in out
    assert_same_record(beaver_only, _read_text(out))


@pytest.mark.parametrize(("points", "level"), [(1, 1), (2, 2), (3, 3)])
def test_resignations(points: int, level: int) -> None:
    record = _read_text(f"(;GM[6]MI[length:7]RE[W+{points}R]\n;W[31hefe])")
    entries = record.games[0].entries
    assert entries[-2].action == Resign(ResignLevel(level)) and entries[-2].player == 1
    assert entries[-1].action == AcceptResignation() and entries[-1].player == 0
    assert record.score == (points, 0)
    out = write_sgf(record)
    assert f"RE[W+{points}R]" in out
    assert_same_record(record, _read_text(out))


def test_resignation_under_jacoby_writes_the_points_resigned() -> None:
    text = "(;GM[6]MI[length:0]RU[Jacoby]RE[W+2R]\n;W[31hefe])"
    record = _read_text(text)
    assert record.games[0].entries[-2].action == Resign(ResignLevel.GAMMON)
    assert record.score == (1, 0)  # the Jacoby rule: a gammon counts single, cube centred
    assert "RE[W+2R]" in write_sgf(record)
    assert_same_record(record, _read_text(write_sgf(record)))


def test_rolled_but_unplayed_dice() -> None:
    record = _read_text("(;GM[6]\n;PL[B]DI[64]LU[0.1])")
    assert record.games[0].entries[0].action == OpeningRoll(4, 6)
    assert record.games[0].entries[0].annotations == {"LU": ["0.1"]}
    assert write_sgf(record).endswith(";PL[B]DI[64]LU[0.1])\n")
    again = _read_text("(;GM[6]\n;W[31hefe]\n;DI[52]\n;B[52lqln])")
    assert [type(entry.action) for entry in again.games[0].entries] == [
        OpeningRoll,
        Play,
        Roll,
        Play,
    ]
    mid = _read_text("(;GM[6]\n;W[31hefe]\n;PL[B]DI[52])")
    assert write_sgf(mid).endswith(";W[31hefe]\n;PL[B]DI[52])\n")
    assert_same_record(mid, _read_text(write_sgf(mid)))


def test_comments_metadata_and_rules_round_trip() -> None:
    text = (
        "(;GM[6]MI[length:0]PW[A \\] b]PB[C\\\\d]DT[2026-11-22]EV[Open]RO[Final]PC[Here]"
        "AN[Me]WR[1500]BR[1600]GC[match \\] note]RU[NoCube:Jacoby:Nackgammon:Holland]"
        "C[game\r\nnote\tone]\n;W[31hefe]C[best]XY[1][2]\n;C[more]\n;B[52aclq])"
    )
    record = _read_text(text)
    info = record.info
    assert info.players == ("A ] b", "C\\d")
    assert info.metadata == {
        "date": "2026-11-22",
        "event": "Open",
        "round": "Final",
        "place": "Here",
        "annotator": "Me",
        "rating0": "1500",
        "rating1": "1600",
    }
    assert info.variant == find("nackgammon")
    assert info.rules == CubeRules(cube=False, jacoby=True, holland=True)
    assert record.comment == "match ] note"
    assert record.games[0].comment == "game\nnote one"
    play = record.games[0].entries[1]
    assert (play.comment, play.annotations) == ("best\nmore", {"XY": ["1", "2"]})
    out = write_sgf(record)
    assert "RU[NoCube:Jacoby:Nackgammon:Holland]" in out and "GC[match \\] note]" in out
    assert_same_record(record, _read_text(out))


def test_writer_takes_text_moves_and_refuses_what_sgf_cannot_hold() -> None:
    writer = SgfWriter()
    writer.begin_match(MatchInfo(3, ("a", "b")), HERE)
    writer.begin_game(1, (0, 0), HERE)
    writer.roll(0, (3, 1), HERE)
    writer.play(0, "8/5 6/5", HERE)
    writer.roll(1, (6, 4), HERE)
    with pytest.raises(MatchFileError, match="24/10"):
        writer.play(1, "24/10", HERE)
    writer.play(1, "24/14", HERE)
    writer.end_game(None, None, HERE)
    writer.end_match(HERE)
    assert writer.text.endswith(";W[31hefe]\n;B[64aggk])\n")
    assert len(writer.trees) == 1
    with pytest.raises(MatchFileError, match="cannot be written"):
        SgfWriter().begin_match(MatchInfo(0, variant=Variant("odd", ((24, 15),))), HERE)


# -- random matches round-trip ------------------------------------------------------


def _random_record(seed: int) -> MatchRecord:
    """A random match played by the rules, with cube actions, resignations, comments
    and annotations with awkward characters, fed to a RecordBuilder."""
    rng = random.Random(seed)
    money = rng.random() < 0.4
    length = 0 if money else rng.choice([3, 5, 7])
    variant = rng.choice([STANDARD, STANDARD, find("nackgammon"), find("hypergammon")])
    rules = CubeRules(
        beavers=money and rng.random() < 0.7,
        jacoby=money and rng.random() < 0.5,
        crawford=True if money else rng.random() < 0.8,
    )
    if rules.beavers and rng.random() < 0.5:
        rules = CubeRules(beavers=True, raccoons=True, jacoby=rules.jacoby)
    info = MatchInfo(length, ("Ann ]\\", "Bo\\b"), rules, variant, {"event": "E]v\\"})
    builder = RecordBuilder()
    builder.begin_match(info, HERE)
    if rng.random() < 0.5:
        builder.comment("a match\\ note]", HERE)
    match = Match(length, rules=rules, variant=variant)

    def note() -> None:
        if rng.random() < 0.3:
            builder.annotate(
                rng.choice([None, "c]o\\m\nment"]), {"LU": ["0.5"], "ZZ": ["x]\\", ""]}, HERE
            )

    for number in range(1, rng.randint(1, 3) + 1):
        game = match.new_game()
        builder.begin_game(number, match.score_after(number - 1), HERE)
        low, high = sorted(rng.sample(range(1, 7), 2))
        starter = rng.randint(0, 1)
        game.push(OpeningRoll(high, low) if starter == 0 else OpeningRoll(low, high))
        builder.roll(starter, (high, low), HERE)
        if rng.random() < 0.3:
            builder.comment("game ] comment", HERE)
        stop = number == 3 or rng.random() < 0.2
        for _ in range(rng.randint(5, 40) if stop else 400):
            if game.is_over():
                break
            turn, pending = game.turn, game.pending
            assert turn is not None
            action: Any
            if pending is not None and pending.kind == "double":
                options: list[Any] = [Take(), Take(), Drop()]
                if rules.beavers and not length:
                    options.append(Beaver())
                action = rng.choice(options)
                builder.cube(game.decider or 0, action, HERE)
            elif pending is not None and rules.raccoons and rng.random() < 0.5:
                action = Raccoon()
                builder.cube(pending.by, action, HERE)
            elif game.dice is None and game.can_double() and rng.random() < 0.05:
                action = Double()
                builder.cube(turn, action, HERE)
            elif rng.random() < 0.004 and pending is None:
                level = rng.choice(list(ResignLevel))
                game.push(Resign(level))
                builder.resign(turn, Resign(level), HERE)
                action = AcceptResignation()
                builder.resign(1 - turn, action, HERE)
            elif game.dice is None:
                action = Roll(rng.randint(1, 6), rng.randint(1, 6))
                builder.roll(turn, (action.first, action.second), HERE)
            else:
                plays = game.legal_plays()
                action = rng.choice(plays) if plays else Play.no_move(game.position)
                builder.play(turn, action, HERE)
            game.push(action)
            if not isinstance(action, AcceptResignation | Roll):  # see the writer's notes
                note()
        outcome = game.outcome
        builder.end_game(
            None if outcome is None else outcome.winner,
            None if outcome is None else outcome.points,
            HERE,
        )
        if outcome is None or match.is_over():
            break
    builder.end_match(HERE)
    return builder.record


@given(seed=st.integers(0, 2**32))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_matches_round_trip(seed: int) -> None:
    record = _random_record(seed)
    text = write_sgf(record)
    again = _read_text(text)
    assert_same_record(record, again)
    assert write_sgf(again) == text


# -- fuzzing: only MatchFileError escapes --------------------------------------------


def _small_reference() -> str:
    """The first two games of match03 without the bulky analysis, for mutations."""
    text = _text(FORMATS / "match03_5pt_analysed.sgf")
    text = re.sub(r"(?:A|DA|GS)(?:\[[^\]]*\])+", "", text)
    return text[: text.index("(", 10)] + text[text.index("(", 10) :].split(")", 1)[0] + ")"


SMALL = _small_reference()
SEEDS = [
    SMALL,
    "(;GM[6]MI[length:0]RU[Jacoby]\n;W[31hefe]\n;B[double]\n;W[double]\n;B[double]\n;W[take]"
    "\n;B[64aggk]\n;PL[W]DI[52])",
    "(;GM[6]MI[length:7]RE[W+2R]C[x\\]y]\n;W[31hefe]C[c]LU[1]\n;B[42qusu]\n;W[64xrrn]"
    "\n;B[21lnno]\n;W[42ywxt])(;GM[6]MI[length:7][ws:2])",
]


def _read_only_match_file_errors(text: str) -> None:
    """Reading raises nothing but MatchFileError; what reads, round-trips."""
    builder = RecordBuilder()
    try:
        read_sgf(text, builder, path="fuzz.sgf")
    except MatchFileError as error:
        assert error.path == "fuzz.sgf"
        return
    record = builder.record
    assert_same_record(record, _read_text(write_sgf(record)))


@given(text=st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_random_text(text: str) -> None:
    _read_only_match_file_errors(text)


@given(text=st.text(alphabet="();[]\\:+ \nBWGMCRELIPDAYabgkxyz0123456", max_size=120))
@settings(max_examples=300, deadline=None)
def test_random_sgf_like_text(text: str) -> None:
    _read_only_match_file_errors("(;GM[6]" + text)


@given(
    seed=st.sampled_from(SEEDS),
    edits=st.lists(
        st.tuples(
            st.integers(0, len(SMALL)),
            st.integers(0, 3),
            st.text(alphabet="();[]\\:+ \nBWabcxyz0123456789", max_size=3),
        ),
        min_size=1,
        max_size=4,
    ),
)
@settings(max_examples=300, deadline=None)
def test_mutated_reference(seed: str, edits: list[tuple[int, int, str]]) -> None:
    text = seed
    for position, removed, inserted in edits:
        at = position % (len(text) + 1)
        text = text[:at] + inserted + text[at + removed :]
    _read_only_match_file_errors(text)


@given(data=st.binary(max_size=200))
@settings(max_examples=100, deadline=None)
def test_random_bytes(data: bytes) -> None:
    _read_only_match_file_errors(data.decode("latin-1"))


def test_game_statistics_survive_a_round_trip() -> None:
    from backgammon.formats import read_match, read_match_text, write_match_text
    from tests.reference import REFERENCE

    record = read_match(REFERENCE / "formats" / "match03_5pt_analysed.sgf")
    assert all("GS" in game.annotations for game in record.games)
    again = read_match_text(write_match_text(record, "sgf"), "sgf")
    assert [g.annotations for g in again.games] == [g.annotations for g in record.games]


def test_a_file_of_too_many_nodes_is_refused_at_the_first_one_over() -> None:
    """A megabyte of empty nodes (200,000 of them) is refused where the bound is crossed,
    before any tree is built; a file at the bound is read."""
    at_bound = "(;GM[6]" + ";C[x]" * (MAX_NODES - 1) + ")"
    assert len(parse_sgf(at_bound)[0].nodes) == MAX_NODES
    with pytest.raises(MatchFileError, match=r"more than 20,000 nodes") as caught:
        parse_sgf("(;GM[6]" + ";C[x]" * 200_000 + ")", path="bomb.sgf")
    assert (caught.value.line, caught.value.column) == (1, 8 + 5 * (MAX_NODES - 1))
    assert "bomb.sgf:1:" in str(caught.value)
