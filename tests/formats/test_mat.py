"""Jellyfish ``.mat`` files: GNU Backgammon's reference matches read, replay, agree with
the same matches' SGF and round-trip; the writer's layout; beavers, resignations and
other writers' variants; malformed, truncated and fuzzed input raising only
:class:`MatchFileError`."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon.errors import MatchFileError
from backgammon.formats import record_of_match
from backgammon.formats.mat import NO_MOVE, MatWriter, read_mat, write_mat
from backgammon.formats.record import (
    GameRecord,
    Location,
    MatchInfo,
    MatchRecord,
    MatchVisitor,
    RecordBuilder,
    ResignEvent,
)
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    CubeRules,
    Double,
    Drop,
    Raccoon,
    RejectResignation,
    Resign,
    ResignLevel,
    Take,
)
from backgammon.rules.dice import Roll
from backgammon.rules.game import Action, Ending, Game, OpeningRoll
from backgammon.rules.match import Match
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from backgammon.variants import find
from tests.reference import FORMATS

MAT_FILES = sorted(FORMATS.glob("*.mat"))
HERE = Location()


def read(text: str, path: str | None = None) -> MatchRecord:
    builder = RecordBuilder()
    read_mat(text, builder, path=path)
    return builder.record


@cache
def reference(name: str) -> tuple[str, MatchRecord]:
    path = FORMATS / name
    text = path.read_text(encoding="utf-8")
    return text, read(text, str(path))


def actions(game: GameRecord) -> list[tuple[int, Action]]:
    return [(entry.player, entry.action) for entry in game.entries]


def same_games(first: MatchRecord, second: MatchRecord) -> None:
    assert len(first.games) == len(second.games)
    for one, two in zip(first.games, second.games, strict=True):
        assert (one.number, one.score_before, one.score_after) == (
            two.number,
            two.score_before,
            two.score_after,
        )
        assert one.outcome == two.outcome
        assert actions(one) == actions(two)


def mat_ids() -> list[str]:
    return [path.name for path in MAT_FILES]


# -- the reference files --------------------------------------------------------------


def file_games(text: str) -> list[tuple[int, tuple[int, int]]]:
    """The game numbers and scores the file itself states."""
    found = re.findall(r"^ Game (\d+)\n .*? : (\d+) +.*? : (\d+)$", text, re.MULTILINE)
    return [(int(game), (int(left), int(right))) for game, left, right in found]


def file_final_score(text: str) -> tuple[int, int]:
    """The last game's score plus the points of its ``Wins`` line, in its column."""
    *_, (_, score) = file_games(text)
    last = [line for line in text.splitlines() if "Wins" in line][-1]
    # A line of its own: the column says who; else " 22)  Drops    Wins 1 point": the right.
    alone = last.lstrip().startswith("Wins")
    winner = (0 if last.index("Wins") < 16 else 1) if alone else 1
    points = int(re.search(r"Wins (\d+)", last).group(1))  # type: ignore[union-attr]
    final = list(score)
    final[winner] += points
    return final[0], final[1]


@pytest.mark.parametrize("name", mat_ids())
def test_reference_file_reads_and_reaches_its_scores(name: str) -> None:
    text, record = reference(name)
    assert record.players == ("gnubg", "root")
    assert f" {record.length} point match\n" in text
    assert record.info.metadata == {"date": "2026-11-22"}
    stated = file_games(text)
    assert [(game.number, game.score_before) for game in record.games] == stated
    assert all(game.outcome is not None for game in record.games)
    assert record.score == file_final_score(text)
    assert max(record.score) >= record.length


def sgf_games(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each game of a GNU Backgammon SGF file: its result and its move nodes."""
    games = []
    for game in text.split("(;")[1:]:
        result = re.search(r"RE\[([^\]]*)\]", game)
        nodes = re.findall(r";([WB])\[([^\]]*)\]", game)
        games.append((result.group(1) if result else "", nodes))
    return games


def sgf_point(letter: str, player: int) -> int:
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    index = ord(letter) - ord("a")
    return index + 1 if player == 0 else 24 - index


def after_steps(position: Position, steps: list[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    """Both sides after moving the checkers of ``steps`` (hitting any blot landed on)."""
    own, opponent = list(position.player), list(position.opponent)
    for source, destination in steps:
        own[source] -= 1
        own[destination] += 1
        if destination and opponent[25 - destination] == 1:
            opponent[25 - destination] = 0
            opponent[25] += 1
    return tuple(own), tuple(opponent)


@pytest.mark.parametrize("name", mat_ids())
def test_reference_file_agrees_with_the_same_match_in_sgf(name: str) -> None:
    """Same dice, cube actions, resulting positions and results as GNU Backgammon's
    SGF export of the match (read here with a few regular expressions)."""
    sgf_path = FORMATS / name.replace(".mat", ".sgf")
    _, record = reference(name)
    games = sgf_games(sgf_path.read_text(encoding="utf-8"))
    assert len(games) == len(record.games)
    match = Match(record.length, rules=record.info.rules)
    for (result, nodes), game_record in zip(games, record.games, strict=True):
        game = match.new_game()
        ours: list[tuple[int, str]] = []
        for player, action in actions(game_record):
            if isinstance(action, OpeningRoll | Roll):
                roll = action.roll if isinstance(action, OpeningRoll) else action
                assert roll is not None
                ours.append((player, f"{roll.first}{roll.second}"))
            elif isinstance(action, Play):
                dice, letters = ours[-1][1], nodes[len(ours) - 1][1][2:]
                steps = [
                    (sgf_point(letters[i], player), sgf_point(letters[i + 1], player))
                    for i in range(0, len(letters), 2)
                ]
                assert after_steps(game.position, steps) == (
                    tuple(action.position.player),
                    tuple(action.position.opponent),
                ), (game_record.number, dice, letters, str(action))
            elif isinstance(action, Double | Take | Drop):
                ours.append((player, type(action).__name__.lower()))
            game.push(action)
        theirs = [
            (0 if colour == "W" else 1, value[:2] if value[:1].isdigit() else value)
            for colour, value in nodes
        ]
        assert ours == theirs
        outcome = game_record.outcome
        assert outcome is not None
        resigned = "R" if outcome.ending == Ending.RESIGNED else ""
        assert result == f"{'WB'[outcome.winner]}+{outcome.points}{resigned}"


@pytest.mark.parametrize("name", mat_ids())
def test_reference_file_round_trips(name: str) -> None:
    _, record = reference(name)
    again = read(write_mat(record))
    assert again.info == record.info
    same_games(record, again)


def without_moves(line: str) -> list[str]:
    return [word for word in line.split() if "/" not in word]


@pytest.mark.parametrize("name", mat_ids())
def test_written_text_is_laid_out_as_gnu_backgammon_writes_it(name: str) -> None:
    """Line for line the same as GNU Backgammon's file, except the order of a turn's
    steps (GNU Backgammon's follows the dice as rolled, which neither file keeps) and so,
    for a checker moved by both dice, the point where it stopped between them."""
    text, record = reference(name)
    written = write_mat(record)
    original_lines, written_lines = text.splitlines(), written.splitlines()
    assert len(written_lines) == len(original_lines)
    identical = 0
    for original, ours in zip(original_lines, written_lines, strict=True):
        assert without_moves(ours) == without_moves(original)
        if "/" not in original:
            assert ours == original
        identical += ours == original
    assert identical / len(original_lines) > 0.6
    assert written.endswith("points\n\n") or written.endswith("point\n\n")


@pytest.mark.parametrize("name", mat_ids())
def test_the_same_match_from_sgf_is_written_exactly_as_gnu_backgammon_did(name: str) -> None:
    """The SGF keeps each turn's steps in GNU Backgammon's order, so the .mat written
    from it is GNU Backgammon's own export, byte for byte."""
    sgf = pytest.importorskip("backgammon.formats.sgf")
    sgf_path = FORMATS / name.replace(".mat", ".sgf")
    text, record = reference(name)
    builder = RecordBuilder()
    sgf.read_sgf(sgf_path.read_text(encoding="utf-8"), builder)
    from_sgf = builder.record
    assert write_mat(from_sgf) == text
    for one, two in zip(from_sgf.games, record.games, strict=True):
        assert (one.score_before, one.outcome) == (two.score_before, two.outcome)
        positions = [action.position for _, action in actions(one) if isinstance(action, Play)]
        assert positions == [
            action.position for _, action in actions(two) if isinstance(action, Play)
        ]


def test_the_writer_streams_from_the_reader() -> None:
    """A reader feeding the writer directly gives the text ``write_mat`` gives."""
    text, record = reference(MAT_FILES[0].name)
    writer = MatWriter()
    read_mat(text, writer)
    assert writer.text == write_mat(record)


# -- random matches through the writer and back ---------------------------------------


def random_match(seed: int, length: int, rules: CubeRules, games: int = 3) -> MatchRecord:
    """A match played with random legal actions: doubles, takes, drops, beavers,
    raccoons, resignations accepted and rejected, before and after rolling."""
    rng = random.Random(seed)
    match = Match(length, rules=rules, players=("Alice", "Bob Smith"))
    while not match.is_over() and len(match.games) < games:
        game = match.new_game()
        first, second = rng.sample(range(1, 7), 2)
        game.push(OpeningRoll(first, second))
        while not game.is_over():
            if game.dice is None:
                chance = rng.random()
                if chance < 0.008:
                    resign(game, rng)
                    continue
                if game.can_double() and chance < 0.06:
                    game.push(Double())
                    if rules.beavers and not length and rng.random() < 0.4:
                        game.push(Beaver())
                        if rules.raccoons and rng.random() < 0.5:
                            game.push(Raccoon())
                    else:
                        game.push(Take() if rng.random() < 0.7 else Drop())
                    continue
                game.push(Roll(rng.randint(1, 6), rng.randint(1, 6)))
                if rng.random() < 0.008:
                    resign(game, rng)
                    if game.is_over():
                        continue
            plays = game.legal_plays()
            game.push(rng.choice(plays) if plays else Play.no_move(game.position))
    return record_of_match(match)


def resign(game: Game, rng: random.Random) -> None:
    game.push(Resign(rng.choice(list(ResignLevel))))
    game.push(AcceptResignation() if rng.random() < 0.6 else RejectResignation())


def without_rejected(game: GameRecord) -> list[tuple[int, Action]]:
    """The actions a .mat file keeps: a rejected resignation leaves no trace."""
    kept: list[tuple[int, Action]] = []
    for player, action in actions(game):
        if isinstance(action, RejectResignation):
            kept.pop()
        else:
            kept.append((player, action))
    return kept


MATCH_RULES = [
    (5, CubeRules()),
    (7, CubeRules(crawford=False)),
    (0, CubeRules(beavers=True, raccoons=True, max_cube=1024)),
    (0, CubeRules()),
]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("length", "rules"), MATCH_RULES)
def test_random_matches_round_trip(seed: int, length: int, rules: CubeRules) -> None:
    record = random_match(seed, length, rules)
    text = write_mat(record)
    again = read(text)
    assert again.info == record.info
    assert len(again.games) == len(record.games)
    for one, two in zip(record.games, again.games, strict=True):
        assert (one.score_before, one.score_after, one.outcome) == (
            two.score_before,
            two.score_after,
            two.outcome,
        )
        assert without_rejected(one) == actions(two)
    assert write_mat(again) == text


@pytest.mark.parametrize("seed", range(4))
def test_unfinished_games_round_trip(seed: int) -> None:
    """A file may stop anywhere in its last game: after a roll, a no-move, a double."""
    record = random_match(seed, 0, CubeRules(beavers=True, raccoons=True), games=1)
    entries = record.games[0].entries
    cut = MatchRecord(record.info)
    for stop in range(1, len(entries)):
        partial = GameRecord(1, (0, 0), entries[:stop])
        cut.games = [partial]
        expected = without_rejected(partial)
        if isinstance(expected[-1][1], Resign):
            expected.pop()  # an offer not yet answered leaves no trace either
        again = read(write_mat(cut))
        assert again.games[0].outcome is None
        assert actions(again.games[0]) == expected, stop


# -- the writer's layout --------------------------------------------------------------

Script = list[tuple[str, int, object]]
"""(hook, player, argument) steps fed to a :class:`RecordBuilder`."""


def record_of(length: int, rules: CubeRules, script: Script) -> MatchRecord:
    """A one-game record from (hook, player, argument) steps, through the builder."""
    builder = RecordBuilder()
    builder.begin_match(MatchInfo(length, ("gnubg", "root"), rules), HERE)
    builder.begin_game(1, (0, 0), HERE)
    for hook, player, argument in script:
        getattr(builder, hook)(player, argument, HERE)
    return builder.record


def finish(record: MatchRecord) -> MatchRecord:
    builder = RecordBuilder()
    record.accept(builder)
    return builder.record


def test_beavers_and_raccoons_are_written_and_read() -> None:
    script = [
        ("roll", 0, (3, 1)),
        ("play", 0, "8/5 6/5"),
        ("cube", 1, Double()),
        ("cube", 0, Beaver()),
        ("cube", 1, Raccoon()),
        ("roll", 1, (6, 4)),
        ("play", 1, "24/14"),
        ("roll", 0, (2, 1)),
        ("play", 0, "13/11 6/5"),
    ]
    rules = CubeRules(beavers=True, raccoons=True)
    record = record_of(0, rules, script)
    text = write_mat(record)
    assert '; [Beaver "On"]\n; [Raccoon "On"]\n' in text
    assert left(1, "31: 8/5 6/5 ") + " Doubles => 2\n" in text
    assert left(2, " Beavers => 4") + " Raccoons => 8\n" in text
    assert left(3, " Takes") + "64: 24/18 18/14 \n" in text
    same_games(finish(record), read(text))


def test_beavers_as_gnu_backgammon_writes_them() -> None:
    """GNU Backgammon writes a beaver and a raccoon as redoubles, and the acceptance
    as ``Takes``."""
    text = """; [Beaver "On"]
; [Raccoon "On"]

 0 point match

 Game 1
 gnubg : 0                      root : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Doubles => 4                Takes
  3)                             64: 24/18 18/14
  4)  Doubles => 8                Takes
  5) 21: 13/11 6/5                Doubles => 16
  6)  Doubles => 32               Doubles => 64
  7)  Takes                      21: 25/23 6/5
"""
    record = read(text)
    kinds = [type(action).__name__ for _, action in actions(record.games[0])]
    assert kinds == [
        *("OpeningRoll", "Play", "Double", "Beaver", "Roll", "Play", "Double", "Take"),
        *("Roll", "Play", "Double", "Beaver", "Raccoon", "Roll", "Play"),
    ]
    error = error_of(text.replace("Doubles => 64", "Doubles => 32"))
    assert (error.line, error.column) == (13, 35)
    assert "expected 'Doubles => 64'" in str(error)


def left(number: int, text: str) -> str:
    """GNU Backgammon's left column: ``"%3d) %-27s "``."""
    return f"{number:3d}) {text:<27} "


RESIGNATIONS: dict[str, tuple[Script, str]] = {
    "right, before rolling": (
        [("roll", 0, (3, 1)), ("play", 0, "8/5 6/5"), ("resign", 1, Resign())],
        left(1, "31: 8/5 6/5 ") + "\n      Wins 1 point\n\n",
    ),
    "right, after rolling": (
        [
            ("roll", 0, (3, 1)),
            ("play", 0, "8/5 6/5"),
            ("roll", 1, (6, 4)),
            ("resign", 1, Resign(ResignLevel.GAMMON)),
        ],
        left(1, "31: 8/5 6/5 ") + "64: \n      Wins 2 points\n\n",
    ),
    "left, before rolling": (
        [("roll", 1, (3, 1)), ("play", 1, "8/5 6/5"), ("resign", 0, Resign())],
        left(1, "") + "31: 8/5 6/5 \n" + " " * 34 + "Wins 1 point\n\n",
    ),
    "left, after rolling": (
        [
            ("roll", 1, (3, 1)),
            ("play", 1, "8/5 6/5"),
            ("roll", 0, (5, 2)),
            ("resign", 0, Resign(ResignLevel.BACKGAMMON)),
        ],
        left(1, "") + "31: 8/5 6/5 \n  2) 52: " + " " * 24 + "Wins 3 points\n\n",
    ),
}


@pytest.mark.parametrize("case", sorted(RESIGNATIONS))
def test_resignations_are_written_as_gnu_backgammon_writes_them(case: str) -> None:
    script, expected = RESIGNATIONS[case]
    resigner = script[-1][1]
    script = [*script, ("resign", 1 - resigner, AcceptResignation())]
    record = record_of(3, CubeRules(), script)
    text = write_mat(record)
    assert text.endswith(" gnubg : 0                      root : 0\n" + expected)
    same_games(finish(record), read(text))


def test_drops_are_written_in_both_columns() -> None:
    by_left = record_of(
        3,
        CubeRules(),
        [("roll", 1, (3, 1)), ("play", 1, "8/5 6/5"), ("cube", 0, Double()), ("cube", 1, Drop())],
    )
    assert write_mat(by_left).endswith(
        left(1, "") + "31: 8/5 6/5 \n" + left(2, " Doubles => 2") + " Drops\n      Wins 1 point\n\n"
    )
    by_right = record_of(
        3,
        CubeRules(),
        [("roll", 0, (3, 1)), ("play", 0, "8/5 6/5"), ("cube", 1, Double()), ("cube", 0, Drop())],
    )
    assert write_mat(by_right).endswith(
        left(1, "31: 8/5 6/5 ")
        + " Doubles => 2\n"
        + left(2, " Drops" + " " * 23 + "Wins 1 point")
        + "\n\n"
    )
    for record in (by_left, by_right):
        same_games(finish(record), read(write_mat(record)))


def test_header_tags_comments_and_rules() -> None:
    text = """; [Site "GammonSite"]
; [Match ID "1215168372"]
; [Player 1 "Fabio Gullotta"]
; [EventDate "2011.07.22"]
; [Variation "NackGammon"]
; [Jacoby "On"]
; [Crawford "Off"]
; [CubeLimit "64"]
; [Transcriber "someone"]
; A comment
; on two lines

7 point match

Game 1
Fabio Gullotta : 0                   Takumitsu Suzuki : 0
"""
    record = read(text)
    info = record.info
    assert info.players == ("Fabio Gullotta", "Takumitsu Suzuki")
    assert info.variant == find("nackgammon")
    assert info.rules == CubeRules(jacoby=True, crawford=False, max_cube=64)
    assert info.metadata == {
        "place": "GammonSite",
        "match id": "1215168372",
        "player 1": "Fabio Gullotta",
        "date": "2011-07-22",
        "annotator": "someone",
    }
    assert record.comment == "A comment\non two lines"
    written = write_mat(record)
    assert written.startswith('; [Site "GammonSite"]\n; [EventDate "2011.07.22"]\n')
    assert '; [Variation "NackGammon"]\n' in written
    assert "\n; A comment\n; on two lines\n\n 7 point match\n" in written
    again = read(written)
    assert again.info == info
    assert again.comment == record.comment


def test_a_match_without_games() -> None:
    record = read(" 5 point match\n")
    assert (record.length, record.games) == (5, [])
    assert write_mat(record) == "\n 5 point match\n\n"


def test_other_writers_variants_read_the_same() -> None:
    """GammonSite / XG / BGBlitz habits: no leading spaces, unmarked hits, dice low die
    first, ``Wins 2 point``, ``and the match``, ``Cannot Move``, padded columns."""
    text, record = reference("match01_3pt.mat")
    lines = []
    for line in text.splitlines():
        line = line.replace("*", "")
        line = re.sub(r"^ (\d+ point match|Game \d+)$", r"\1", line)
        line = re.sub(r"\b([1-6])([1-6]):", lambda m: f"{m.group(2)}{m.group(1)}:", line)
        line = line.replace("62: \n", "62: Cannot Move")
        line = re.sub(r"\b(53|62): $", r"\1: Cannot Move", line)
        line = line.replace("Wins 8 points", "Wins 8 point and the match")
        lines.append(line.ljust(60) if ")" in line else line)
    variant = read("\n".join(lines))
    for one, two in zip(record.games, variant.games, strict=True):
        assert (one.score_before, one.outcome) == (two.score_before, two.outcome)
        plays = [action for _, action in actions(one) if isinstance(action, Play)]
        assert plays == [action for _, action in actions(two) if isinstance(action, Play)]


def test_a_roll_followed_by_a_resignation_reports_no_play() -> None:
    text = """ 3 point match

 Game 1
 gnubg : 0                      root : 0
  1) 31: 8/5 6/5                 64: ???
      Wins 1 point
"""
    events: list[tuple[str, object]] = []

    class Recorder(MatchVisitor):
        def play(self, player: int, move: str | Play, where: Location) -> None:
            events.append(("play", move))

        def resign(self, player: int, action: ResignEvent, where: Location) -> None:
            events.append(("resign", (player, action)))

    read_mat(text, Recorder())
    assert events == [
        ("play", "8/5 6/5"),
        ("resign", (1, Resign(ResignLevel.SINGLE))),
        ("resign", (0, AcceptResignation())),
    ]
    assert read(text).games[0].outcome is not None


def test_locations_of_events() -> None:
    text = " 3 point match\n\n Game 1\n gnubg : 0                      root : 0\n"
    text += "  1)                             64: 24/18 18/14\n  2) 62:\n"
    seen: list[tuple[str, int | None, int | None]] = []

    class Recorder(MatchVisitor):
        def begin_match(self, info: MatchInfo, where: Location) -> None:
            seen.append(("match", where.line, where.column))

        def begin_game(self, number: int, score: tuple[int, int], where: Location) -> None:
            seen.append(("game", where.line, where.column))

        def roll(self, player: int, dice: tuple[int, int], where: Location) -> None:
            seen.append((f"roll {player}", where.line, where.column))

        def play(self, player: int, move: str | Play, where: Location) -> None:
            seen.append((f"play {player} {move}", where.line, where.column))

        def end_game(self, winner: int | None, points: int | None, where: Location) -> None:
            seen.append(("end", where.line, where.column))

    read_mat(text, Recorder(), path="x.mat")
    assert seen == [
        ("match", 1, 2),
        ("game", 4, 2),
        ("roll 1", 5, 34),
        ("play 1 24/18/14", 5, 38),
        ("roll 0", 6, 6),  # nothing after it at the end of the text: not played yet
        ("end", 7, 1),
    ]
    seen.clear()
    read_mat(text + "  3)  Doubles => 2\n", Recorder())
    assert seen[5] == (f"play 0 {NO_MOVE}", 6, 6)  # nothing after it: no legal move


# -- errors ---------------------------------------------------------------------------


def error_of(text: str) -> MatchFileError:
    with pytest.raises(MatchFileError) as caught:
        read(text, "test.mat")
    return caught.value


def test_an_illegal_move_is_reported_at_its_line_and_column() -> None:
    text, _ = reference("match01_3pt.mat")
    bad = text.replace("  3) 54: 13/8 24/20 ", "  3) 54: 13/8 24/19 ")
    error = error_of(bad)
    assert (error.path, error.line, error.column) == ("test.mat", 9, 10)
    assert "24/19" in str(error)


def test_a_wrong_score_is_reported_at_the_score_line() -> None:
    text, _ = reference("match01_3pt.mat")
    lines = text.splitlines(keepends=True)
    number = lines.index(" gnubg : 1                      root : 0\n")
    lines[number] = " gnubg : 1                      root : 1\n"
    error = error_of("".join(lines))
    assert error.line == number + 1
    assert "starts at 1-1" in str(error)


def test_a_wrong_cube_value_is_reported() -> None:
    text, _ = reference("match01_3pt.mat")
    error = error_of(text.replace("Doubles => 4", "Doubles => 8"))
    assert "expected 'Doubles => 4'" in str(error)
    assert error.line == 29


MALFORMED = {
    "": ("1:1", "match length"),
    '; [Site "x"]\n': ("2:1", "match length"),
    "hello\n": ("1:1", "expected the match length"),
    " 3 point match\n Game 2\n": ("2:2", "expected ' Game 1'"),
    " 3 point match\n Game 1\n": ("3:1", "score line of game 1"),
    " 3 point match\n Game 1\n nobody\n": ("3:2", "score line"),
    " 3 point match\n Game 1\n a : 0  b : 0\n  1) 71: 8/1\n": ("4:6", "two dice of 1-6"),
    " 3 point match\n Game 1\n a : 0  b : 0\n  2) 31: 8/5 6/5\n": ("4:3", "move number 1)"),
    " 3 point match\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 x/5\n": ("4:10", "'x' is not a point"),
    " 3 point match\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/5   Resigns\n": (
        "4:10",
        "'resigns' is not a move",
    ),
    " 3 point match\n Game 1\n a : 0  b : 0\n  1) hello\n": ("4:6", "expected a roll"),
    " 3 point match\n Game 1\n a : 0  b : 0\n 31: 8/5 6/5\n": ("4:2", "move number"),
    " 3 point match\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/5   Doubles 2\n": (
        "4:20",
        "'Doubles => n'",
    ),
    " 3 point match\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/5   Wins 1\n": ("4:20", "'Wins n"),
    '; [Jacoby "maybe"]\n 0 point match\n': ("1:1", '"On" or "Off"'),
    '; [Raccoon "On"]\n 0 point match\n': ("1:1", "needs [Beaver"),
    '; [CubeLimit "100"]\n 0 point match\n': ("1:1", "power of two"),
    '; [Variation "Chess"]\n 0 point match\n': ("1:1", "variation"),
    " 3 point match\n Game 1\n a : 0  b : 0\n\n Game 2\n b : 0  a : 0\n": ("6:2", "players"),
}


@pytest.mark.parametrize("text", sorted(MALFORMED))
def test_malformed_input_says_where_and_what_was_expected(text: str) -> None:
    where, words = MALFORMED[text]
    error = error_of(text)
    assert f"{error.line}:{error.column}" == where, str(error)
    assert words in str(error)


def test_on_error_makes_reading_lenient() -> None:
    text, record = reference("match01_3pt.mat")
    noisy = text.replace("\n Game 2\n", "\nsome junk\n Game 2\n")
    with pytest.raises(MatchFileError):
        read(noisy)
    problems: list[MatchFileError] = []
    builder = RecordBuilder()
    read_mat(noisy, builder, on_error=problems.append)
    same_games(builder.record, record)
    assert [problem.line for problem in problems] == [noisy.splitlines().index("some junk") + 1]


# -- truncation and fuzzing -----------------------------------------------------------


def read_or_error(text: str) -> MatchRecord | None:
    try:
        return read(text)
    except MatchFileError:
        return None


def is_prefix_of(partial: MatchRecord, full: MatchRecord, slack: int = 0) -> bool:
    """Whether ``partial`` is the start of ``full``, but for the last ``slack`` actions
    (those of a line cut in the middle: ``33: 13/1`` may be a legal play too)."""
    if len(partial.games) > len(full.games):
        return False
    for game, whole in zip(partial.games, full.games, strict=False):
        kept = actions(game)[: max(len(game.entries) - slack, 0)]
        if kept != actions(whole)[: len(kept)]:
            return False
    finished = zip(partial.games[:-1], full.games, strict=False)
    return all(game.outcome == whole.outcome for game, whole in finished)


@pytest.mark.parametrize("name", mat_ids())
def test_every_prefix_by_lines_is_a_clean_record_or_an_error(name: str) -> None:
    text, record = reference(name)
    lines = text.splitlines(keepends=True)
    complete = 0
    for end in range(len(lines) + 1):
        partial = read_or_error("".join(lines[:end]))
        if partial is not None:
            assert is_prefix_of(partial, record), end
            complete += 1
    assert complete > len(lines) // 2


@pytest.mark.parametrize("name", mat_ids())
def test_prefixes_by_characters_are_a_clean_record_or_an_error(name: str) -> None:
    text, record = reference(name)
    for end in range(0, len(text) + 1, max(len(text) // 150, 1)):
        partial = read_or_error(text[:end])
        if partial is not None:
            assert is_prefix_of(partial, record, slack=2), end


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300))
def test_random_text_raises_only_match_file_errors(text: str) -> None:
    read_or_error(text)


@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=300))
def test_random_bytes_raise_only_match_file_errors(data: bytes) -> None:
    read_or_error(data.decode("latin-1"))
    read_or_error(data.decode("utf-8", errors="replace"))


NEAR_MISSES = [
    " 3 point match\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/5   64: 24/18 18/14\n",
    "  2)  Doubles => 2                Takes\n",
    "      Wins 1 point\n",
    "  3)  Beavers => 4   Raccoons => 8\n",
    '; [Beaver "On"]\n',
    " 0 point match\n",
    "  4) 55: 7/2* 7/2 6/1 6/1        62: \n",
    "  5)  Drops                       Wins 1 point \n",
    "                                  Wins 2 points and the match\n",
]


def mutations() -> st.SearchStrategy[str]:
    texts = [path.read_text(encoding="utf-8") for path in MAT_FILES[:2]] or ["".join(NEAR_MISSES)]
    line_edits = st.lists(
        st.tuples(
            st.integers(0, 200),
            st.sampled_from(["delete", "duplicate", "swap", "insert"]),
            st.sampled_from(NEAR_MISSES),
        ),
        max_size=3,
    )
    char_edits = st.lists(
        st.tuples(st.integers(0, 10_000), st.characters(codec="utf-8")), max_size=6
    )

    def mutate(
        text: str, lines_to_edit: list[tuple[int, str, str]], chars: list[tuple[int, str]]
    ) -> str:
        lines = text.splitlines(keepends=True)
        for index, edit, snippet in lines_to_edit:
            at = index % (len(lines) + 1)
            if edit == "delete" and at < len(lines):
                del lines[at]
            elif edit == "duplicate" and at < len(lines):
                lines.insert(at, lines[at])
            elif edit == "swap" and at + 1 < len(lines):
                lines[at], lines[at + 1] = lines[at + 1], lines[at]
            else:
                lines.insert(at, snippet)
        mutated = "".join(lines)
        for index, char in chars:
            at = index % (len(mutated) + 1)
            mutated = mutated[:at] + char + mutated[at + 1 :]
        return mutated

    return st.builds(mutate, st.sampled_from(texts), line_edits, char_edits)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutations())
def test_mutated_reference_files_raise_only_match_file_errors(text: str) -> None:
    record = read_or_error(text)
    if record is not None:  # whatever reads also writes, and reads back the same
        same_games(read(write_mat(record)), record)


def test_money_session_with_jacoby() -> None:
    record = random_match(11, 0, CubeRules(jacoby=True), games=4)
    text = write_mat(record)
    assert text.startswith('; [Jacoby "On"]\n\n 0 point match\n')
    same_games(read(text), read(write_mat(read(text))))


def test_file_paths_in_errors() -> None:
    error = error_of("nonsense")
    assert str(error).startswith("test.mat:1:1: ")
