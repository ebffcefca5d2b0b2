"""Tests for backgammon.analysis: checker and cube errors, luck, statistics, JSON, the
HTML report and the ``analyze`` command.

The constructed games start from bear-off positions, where the engine uses the exact
bearoff databases (cubeless chances, and exact cubeful money equities for the cube),
so the expected losses are known exactly: e.g. a last roll that bears off both
checkers 29 times in 36 is worth ``2 * 29/36 - 1`` without doubling and +1 doubled
and passed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path

import numpy as np
import pytest

from backgammon.analysis import (
    AnalysisSettings,
    Analyzer,
    CubeAnalysis,
    GameAnalysis,
    Mark,
    MatchAnalysis,
    Thresholds,
    analysis_to_json,
    analyze_match,
    html_report,
    rating,
    summarize,
    summarize_games,
)
from backgammon.formats import (
    GameRecord,
    MatchInfo,
    RecordEntry,
    read_match,
    read_match_text,
    write_match_text,
)
from backgammon.rules.cube import CubeRules, CubeState, Double, Drop, MatchContext, Take
from backgammon.rules.dice import Roll
from backgammon.rules.game import Action, Game
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from tests.reference import FORMATS

MONEY = MatchInfo(0, ("Alice", "Bob"))

Step = Action | str


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def _position(mine: dict[int, int], theirs: dict[int, int], **bars: int) -> Position:
    """A position from {point: checkers} of the side on roll and of the opponent (each
    in its own numbering); the rest of the 15 checkers are borne off."""
    return Position.from_points(
        [mine.get(point, 0) for point in range(1, 25)],
        [theirs.get(point, 0) for point in range(1, 25)],
        **bars,
    )


def _start(
    position: Position, rules: CubeRules | None = None, cube: CubeState | None = None
) -> Game:
    return Game(position=position, turn=0, rules=rules, cube=cube or CubeState())


def _record(start: Game, steps: Sequence[Step], number: int = 1) -> GameRecord:
    """Push ``steps`` (actions, or play notation) onto ``start``; the game record."""
    entries = []
    for step in steps:
        player = start.decider if isinstance(step, Take | Drop) else start.turn
        assert player is not None
        if isinstance(step, str):
            action: Action = start.play(step)
        else:
            start.push(step)
            action = step
        entries.append(RecordEntry(player, action))
    return GameRecord(number, (0, 0), entries, outcome=start.outcome)


def _analyse(
    analyzer: Analyzer,
    position: Position,
    steps: Sequence[Step],
    rules: CubeRules | None = None,
    cube: CubeState | None = None,
) -> GameAnalysis:
    record = _record(_start(position, rules, cube), steps)
    info = MatchInfo(0, ("Alice", "Bob"), rules or CubeRules())
    return analyzer.analyze_game(record, info, start=_start(position, rules, cube))


def _match(game: GameAnalysis, settings: AnalysisSettings | None = None) -> MatchAnalysis:
    return MatchAnalysis(("Alice", "Bob"), 0, settings or AnalysisSettings(), (game,))


NO_CUBE = CubeRules(cube=False)


# -- checker plays ----------------------------------------------------------------------------


def test_a_forced_move_and_no_move_are_recorded_but_not_counted(analyzer: Analyzer) -> None:
    # One checker on the 6-point: 2-1 can only reach the 3-point.
    game = _analyse(analyzer, _position({6: 1}, {6: 2}), [Roll(2, 1), "6/3", Roll(2, 1)], NO_CUBE)
    forced = game.checker_decisions[0]
    assert forced.forced and not forced.counted
    assert forced.legal_plays == 1 and forced.mark is None and forced.equity_loss == 0.0
    first, _ = summarize(_match(game))
    assert first.checker_decisions == 0 and first.forced_moves == 1
    assert first.error_rate == 0.0
    # On the bar against a closed board: no move.
    blocked = _position(
        {1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 2}, {p: 2 for p in range(1, 7)} | {8: 3}, player_bar=1
    )
    start = _start(blocked, NO_CUBE)
    record = _record(start, [Roll(6, 5)])
    record.entries.append(RecordEntry(0, Play.no_move(blocked)))
    dance = analyzer.analyze_game(
        record, MatchInfo(0, rules=NO_CUBE), start=_start(blocked, NO_CUBE)
    ).checker_decisions[0]
    assert dance.legal_plays == 0 and dance.forced and not dance.counted
    assert dance.play == str(Play.no_move(blocked)) and dance.mark is None


def test_a_bear_off_blunder_is_marked_very_bad(analyzer: Analyzer) -> None:
    # 6-1 with checkers on the 6- and 1-points bears both off; 6/5/off leaves one,
    # and the opponent (6- and 5-points) then wins only with 6 rolls in 36.
    game = _analyse(
        analyzer,
        _position({6: 1, 1: 1}, {6: 1, 5: 1}),
        [Roll(6, 1), "6/5/off", Roll(2, 1), "6/4 5/4", Roll(3, 1), "1/off"],
        NO_CUBE,
    )
    blunder = game.checker_decisions[0]
    assert blunder.best.play == "6/off 1/off"
    assert blunder.play == "6/off"  # the canonical notation of 6/5/off
    assert blunder.equity_loss == pytest.approx(1 / 3, abs=1e-5)
    assert blunder.mark is Mark.VERY_BAD
    assert blunder.played in blunder.options and blunder.best.equity == pytest.approx(1.0)
    # The opponent's 2-1 loses anyway: every play is as good (the last checker comes off
    # next turn), so nothing is marked.
    reply = game.checker_decisions[1]
    assert reply.counted and reply.equity_loss == pytest.approx(0.0, abs=1e-9)


def test_thresholds_are_configurable() -> None:
    thresholds = Thresholds(0.01, 0.02, 0.5)
    assert thresholds.mark(0.015) is Mark.DOUBTFUL
    assert thresholds.mark(0.3) is Mark.BAD
    assert thresholds.mark(0.5) is Mark.VERY_BAD
    assert Thresholds().mark(0.039) is None and Thresholds().mark(0.04) is Mark.DOUBTFUL
    with pytest.raises(ValueError):
        Thresholds(0.1, 0.05, 0.2)


# -- cube -------------------------------------------------------------------------------------


def test_a_missed_double_on_the_last_roll(analyzer: Analyzer) -> None:
    # 4- and 1-points against a certain win next turn: 29 rolls in 36 bear both off.
    # No double: 2p - 1; double, pass: +1 (double, take would be 2(2p - 1) > 1).
    p = 29 / 36
    game = _analyse(analyzer, _position({4: 1, 1: 1}, {1: 1}), [Roll(6, 5), "4/off 1/off"])
    cube = game.cube_decisions[0]
    assert cube.action == "no double" and cube.player == 0 and cube.exact
    assert cube.cube_action == "double, pass" and cube.best_action == "double"
    assert cube.no_double == pytest.approx(2 * p - 1, abs=1e-5)
    assert cube.error == "missed double"
    assert cube.equity_loss == pytest.approx(1 - (2 * p - 1), abs=1e-5)
    assert cube.mark is Mark.VERY_BAD and cube.counted
    assert cube.entry == 1  # stored with the play that follows the roll


def test_a_wrong_pass(analyzer: Analyzer) -> None:
    # 4- and 2-points: 23 rolls in 36. Double, take is right (2(2p - 1) < 1), so the
    # pass gives away 1 - 2(2p - 1); the double itself is right.
    p = 23 / 36
    game = _analyse(analyzer, _position({4: 1, 2: 1}, {1: 1}), [Double(), Drop()])
    double, answer = game.cube_decisions
    assert double.action == "double" and double.player == 0
    assert double.error is None and double.equity_loss == 0.0
    assert answer.action == "pass" and answer.player == 1
    assert answer.cube_action == "double, take" and answer.best_action == "take"
    assert answer.error == "wrong pass"
    assert answer.equity_loss == pytest.approx(1 - 2 * (2 * p - 1), abs=1e-5)
    assert answer.mark is Mark.VERY_BAD
    _, second = summarize(_match(game))
    assert second.cube_errors["wrong pass"] == 1 and second.passes == 1


def test_a_wrong_double_and_a_right_take(analyzer: Analyzer) -> None:
    # 6- and 5-points: 6 rolls in 36. Doubling gives 2(2p - 1) instead of 2p - 1.
    p = 6 / 36
    game = _analyse(
        analyzer, _position({6: 1, 5: 1}, {1: 1}), [Double(), Take(), Roll(6, 5), "6/off 5/off"]
    )
    double, take = game.cube_decisions
    assert double.error == "wrong double" and double.best_action == "no double"
    assert double.equity_loss == pytest.approx((2 * p - 1) - 2 * (2 * p - 1), abs=1e-5)
    assert take.action == "take" and take.error is None and take.equity_loss == 0.0


def test_checker_plays_are_valued_cubefully(analyzer: Analyzer) -> None:
    # A money bear-off with the cube centred: every play leaves Bob on roll in a
    # two-sided bear-off, and a play is worth minus Bob's exact cubeful equity there
    # (Bob doubles when it is right). Without the cube in play, the cubeless equity.
    from backgammon.engine.bearoff import BearoffDatabase

    database = BearoffDatabase.open()
    start = _position({6: 1, 5: 1, 3: 1}, {4: 1, 1: 1})
    steps: list[Step] = [Roll(2, 1), "6/4 5/4"]
    cubeful = _analyse(analyzer, start, steps).checker_decisions[0]
    cubeless = Analyzer(settings=AnalysisSettings(cubeful=False))
    plain = _analyse(cubeless, start, steps).checker_decisions[0]
    plays = {str(play): play.position for play in start.legal_plays(Roll(2, 1))}
    assert len(cubeful.options) >= 3
    differences = []
    for option in cubeful.options:
        theirs = database.cube_equities(plays[option.play].flip())
        assert option.equity == pytest.approx(-theirs.centred, abs=1e-6)
        win = option.probabilities[0]
        differences.append(option.equity - (2 * win - 1))
    for option in plain.options:
        assert option.equity == pytest.approx(2 * option.probabilities[0] - 1, abs=1e-6)
    # Bob's cube takes something from every play here (he cashes when he is a favourite).
    assert max(differences) < 0 and min(differences) < -0.05
    # In the Crawford game nobody may double: cubeful and cubeless values agree.
    context = MatchContext(3, (2, 0), crawford=True)
    record = _record(Game(position=start, turn=0, context=context), steps)
    info = MatchInfo(3, ("Alice", "Bob"))
    decisions = [
        judge.analyze_game(
            record, info, start=Game(position=start, turn=0, context=context)
        ).checker_decisions[0]
        for judge in (analyzer, cubeless)
    ]
    for a, b in zip(decisions[0].options, decisions[1].options, strict=True):
        assert a.play == b.play and a.equity == pytest.approx(b.equity, abs=1e-9)


# -- luck -------------------------------------------------------------------------------------


def test_luck_of_a_joker_is_positive_and_of_an_anti_joker_negative(analyzer: Analyzer) -> None:
    # 6- and 5-points against a certain win next turn: 6-5 and doubles from 3-3 win
    # (6 rolls in 36): the equity before rolling is 2/6 - 1.
    start = _position({6: 1, 5: 1}, {1: 1})
    joker = _analyse(analyzer, start, [Roll(6, 6), "6/off 5/off"], NO_CUBE)
    anti = _analyse(analyzer, start, [Roll(2, 1), "6/4 5/4", Roll(3, 2), "1/off"], NO_CUBE)
    before = 2 * 6 / 36 - 1
    assert joker.checker_decisions[0].luck == pytest.approx(1 - before, abs=1e-5)
    assert anti.checker_decisions[0].luck == pytest.approx(-1 - before, abs=1e-5)
    assert joker.checker_decisions[0].luck > 0 > anti.checker_decisions[0].luck
    assert joker.checker_decisions[0].win == pytest.approx(6 / 36, abs=1e-5)
    # The opponent's last roll cannot miss: no luck either way.
    assert anti.checker_decisions[1].luck == pytest.approx(0.0, abs=1e-6)
    first, second = summarize(_match(anti))
    assert first.luck == pytest.approx(-1 - before, abs=1e-5) and first.rolls == 1
    # Luck-adjusted result: Bob won 1 point; Alice's bad luck (in points) is added back.
    assert second.result == 1 and first.result == -1
    assert first.luck_adjusted_result == pytest.approx(-1 - first.luck + second.luck)


# -- statistics -------------------------------------------------------------------------------


def test_error_rates_by_hand_on_a_small_game(analyzer: Analyzer) -> None:
    game = _analyse(
        analyzer,
        _position({6: 1, 1: 1}, {6: 1, 5: 1}),
        [Roll(6, 1), "6/5/off", Roll(2, 1), "6/4 5/4", Roll(3, 1), "1/off"],
        NO_CUBE,
    )
    first, second = summarize(_match(game))
    # Alice: two plays, the 3-1 forced; one unforced play losing 1/3.
    assert first.checker_decisions == 1 and first.forced_moves == 1
    assert first.cube_decisions == 0
    assert first.equity_loss == pytest.approx(1 / 3, abs=1e-5)
    assert first.error_rate == pytest.approx(1000 / 3, abs=0.01)
    assert first.checker_error_rate == pytest.approx(1000 / 3, abs=0.01)
    assert first.pr == pytest.approx(500 / 3, abs=0.01)
    assert first.rating == "Awful!" and first.marks["very bad"] == 1
    # Bob: one unforced play, no loss.
    assert second.checker_decisions == 1 and second.error_rate == pytest.approx(0.0, abs=1e-6)
    assert second.rating == "Supernatural"
    assert first.points_won == 1 and second.points_won == 0


def test_rating_bands() -> None:
    assert [rating(x) for x in (0.001, 0.004, 0.007, 0.011, 0.017, 0.025, 0.034, 0.035)] == [
        "Supernatural",
        "World Class",
        "Expert",
        "Advanced",
        "Intermediate",
        "Casual",
        "Beginner",
        "Awful!",
    ]


@pytest.fixture(scope="module")
def reference_analysis() -> tuple[MatchAnalysis, str]:
    record = read_match(FORMATS / "match01_3pt.sgf")
    analysis = analyze_match(record)
    return analysis, write_match_text(record, "sgf")


def test_the_json_has_the_required_fields(reference_analysis: tuple[MatchAnalysis, str]) -> None:
    analysis, _ = reference_analysis
    data = json.loads(json.dumps(analysis_to_json(analysis)))
    assert [player["name"] for player in data["players"]] == ["gnubg", "root"]
    for player in data["players"]:
        for key in ("name", "error_rate", "pr", "luck", "rating", "checker_error_rate"):
            assert key in player
    kinds = {decision["kind"] for decision in data["decisions"]}
    assert kinds == {"checker", "cube"}
    for decision in data["decisions"]:
        for key in ("game", "move_number", "player", "kind", "equity_loss", "mark"):
            assert key in decision
        assert decision["equity_loss"] >= 0.0
        assert decision["mark"] in (None, "doubtful", "bad", "very bad")
        if decision["kind"] == "checker":
            assert decision["best_plays"] and "play" in decision["best_plays"][0]
        else:
            assert decision["best_action"] in ("double", "no double", "take", "pass")
    # The summary's error rates follow from the decisions (the documented definition).
    for player in (0, 1):
        counted = [d for d in data["decisions"] if d["player"] == player and d["counted"]]
        loss = sum(d["equity_loss"] for d in counted)
        assert data["players"][player]["decisions"] == len(counted)
        assert data["players"][player]["error_rate"] == pytest.approx(
            1000 * loss / len(counted), abs=1e-3
        )
        assert data["players"][player]["pr"] == pytest.approx(500 * loss / len(counted), abs=1e-3)


def test_game_statistics_add_up_to_the_match(
    reference_analysis: tuple[MatchAnalysis, str],
) -> None:
    analysis, _ = reference_analysis
    data = analysis_to_json(analysis)
    assert len(data["games"]) == len(analysis.games) > 1
    for player in (0, 1):
        whole = data["players"][player]
        games = [game["players"][player] for game in data["games"]]
        for key in ("decisions", "checker_decisions", "cube_decisions", "forced_moves", "rolls"):
            assert sum(game[key] for game in games) == whole[key]
        for key in ("equity_loss", "luck"):
            assert sum(game[key] for game in games) == pytest.approx(whole[key], abs=1e-5)
    # A game's error rate is its own losses over its own decisions.
    first = summarize_games(analysis)[0][0]
    mine = [d for d in analysis.games[0].decisions if d.player == 0 and d.counted]
    assert first.decisions == len(mine)
    assert first.error_rate == pytest.approx(1000 * sum(d.equity_loss for d in mine) / len(mine))


def test_annotations_survive_an_sgf_round_trip(
    reference_analysis: tuple[MatchAnalysis, str],
) -> None:
    analysis, text = reference_analysis
    again = read_match_text(text, "sgf")
    entries = [entry for game in again.games for entry in game.entries]
    plays = [entry for entry in entries if isinstance(entry.action, Play)]
    assert all("LU" in entry.annotations for entry in plays)
    assert all(" E ver 3 " in entry.annotations["A"][1] for entry in plays)
    assert any("DA" in entry.annotations for entry in entries)
    marked = sum(1 for decision in analysis.decisions if decision.mark is not None)
    written = sum(
        1 for entry in entries for key in ("BM", "DO", "BC", "DC") if key in entry.annotations
    )
    assert written == marked


def test_the_html_report(reference_analysis: tuple[MatchAnalysis, str]) -> None:
    analysis, _ = reference_analysis
    page = html_report(analysis)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<svg" in page and "<script" not in page
    errors = [d for d in analysis.decisions if d.mark is not None]
    assert any(d.mark is Mark.DOUBTFUL for d in errors)
    assert page.count("<polygon") == 24 * len(errors)  # one board per error, doubtful too
    assert "gnubg" in page and "root" in page
    # The plot: one line for the chance to win and one for the equity, every error
    # marked on each.
    plot = page[page.index('class="match-plot"') :]
    plot = plot[: plot.index("</svg>")]
    assert plot.count("<path ") == 2
    assert plot.count("<title>") == 2 * len(errors)
    assert "chance to win" in plot and "equity before each roll (cubeful" in plot
    # Move by move: a collapsed list per game, a row per play and per cube action (not
    # the unmarked "no double"s), each error linked to its diagram.
    assert page.count('<details class="moves">') == len(analysis.games)
    listed = page[page.index("<h2>Move by move</h2>") :]
    rows = sum(
        1
        for d in analysis.decisions
        if d.kind == "checker" or d.mark is not None or d.action != "no double"
    )
    assert listed.count("<tr class=") == rows
    for d in errors:
        anchor = f"g{d.game}-e{d.entry}-{d.kind}"
        assert page.count(f'id="{anchor}"') == 1 and f'href="#{anchor}"' in listed


def test_the_board_draws_the_play_made_and_the_best_as_arrows() -> None:
    import re

    from backgammon.analysis import board_svg

    position = Position.initial()
    plain = board_svg(position, dice=(6, 4))
    assert "<line" not in plain
    picture = board_svg(position, dice=(6, 4), played=((24, 18), (18, 14)), best=((24, 14),))
    played = re.findall(r'<line x1="([\d.]+)" y1="([\d.]+)"[^>]*stroke="#e65100"', picture)
    best = re.findall(r'<line x1="([\d.]+)" y1="([\d.]+)"[^>]*stroke="#1565c0"', picture)
    assert len(played) == 2 + 1 and len(best) == 1 + 1  # the steps, and the legend's sample
    # The first arrow leaves the top checker of the two on the 24-point, the second the
    # checker that just landed on the 18-point.
    x, y = played[0]
    assert f'<circle cx="{x}" cy="{y}"' in picture
    assert played[1] != played[0]
    assert "played" in picture and "best" in picture


def test_the_plot_scales_the_equity_axis_to_the_largest_equity() -> None:
    from backgammon.analysis.report import _equity_bound

    assert _equity_bound([]) == 1.0
    assert _equity_bound([0.3, -0.99]) == 1.0
    assert _equity_bound([1.2, -0.4]) == 1.5
    assert _equity_bound([0.2, -2.0]) == 2.0


# -- the command line -------------------------------------------------------------------------


def _analyze_cli(*options: str) -> None:
    """Run ``python -m backgammon analyze`` on the 3-point reference match."""
    done = subprocess.run(
        [sys.executable, "-m", "backgammon", "analyze", str(FORMATS / "match01_3pt.mat"), *options],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_cli_analyze_writes_the_json(tmp_path: Path) -> None:
    out = tmp_path / "analysis.json"
    html = tmp_path / "report.html"
    _analyze_cli("--ply", "0", "--json", str(out), "--html", str(html))
    data = json.loads(out.read_text(encoding="utf-8"))
    assert len(data["players"]) == 2 and data["decisions"]
    assert "<svg" in html.read_text(encoding="utf-8")
    assert data["match"]["equity"].startswith("checker plays and luck: cubeful")
    cubeless = tmp_path / "cubeless.json"
    _analyze_cli("--json", str(cubeless), "--cubeless")
    plain = json.loads(cubeless.read_text(encoding="utf-8"))
    assert plain["match"]["equity"].startswith("checker plays and luck: cubeless")
    assert len(plain["decisions"]) == len(data["decisions"])
    # A match with the cube in play: the two valuations judge some play differently.
    assert any(
        a["equity_loss"] != b["equity_loss"]
        for a, b in zip(data["decisions"], plain["decisions"], strict=True)
        if a["kind"] == "checker"
    )


def test_cli_analyze_lists_the_largest_errors() -> None:
    from typer.testing import CliRunner

    from backgammon.apps.cli import app

    path = FORMATS / "match03_5pt.mat"
    analysis = analyze_match(read_match(path), store=False)
    marked = sorted(
        (d for d in analysis.decisions if d.mark is not None), key=lambda d: -d.equity_loss
    )
    assert len(marked) > 3
    result = CliRunner().invoke(app, ["analyze", str(path), "--errors", "3"], terminal_width=160)
    assert result.exit_code == 0, result.output
    listed = result.output[result.output.index(f"Largest errors (3 of {len(marked)})") :]
    places = [listed.index(f"{d.equity_loss:.3f}") for d in marked[:3]]
    assert places == sorted(places)
    assert f"{marked[3].equity_loss:.3f}" not in listed
    quiet = CliRunner().invoke(app, ["analyze", str(path), "--errors", "0"])
    assert quiet.exit_code == 0 and "Largest errors" not in quiet.output


def test_cli_analyze_reports_a_bad_file(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from backgammon.apps.cli import app

    bad = tmp_path / "bad.mat"
    bad.write_text(" 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/6\n")
    result = CliRunner().invoke(app, ["analyze", str(bad)])
    assert result.exit_code == 2
    assert "error" in result.output


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def _pixels_near(image: bytes, colour: str, tolerance: int = 12) -> int:
    """How many pixels of a PNG screenshot are within ``tolerance`` (per channel) of
    ``colour`` ("#rrggbb")."""
    from PIL import Image

    pixels = np.asarray(Image.open(BytesIO(image)).convert("RGB"), dtype=np.int16)
    target = np.array([int(colour[k : k + 2], 16) for k in (1, 3, 5)], dtype=np.int16)
    return int(np.all(np.abs(pixels - target) <= tolerance, axis=-1).sum())


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")
def test_the_html_report_in_chromium(
    reference_analysis: tuple[MatchAnalysis, str], tmp_path: Path
) -> None:
    """The report opens in a real (headless) Chromium with nothing in the console, and
    screenshots show a board (felt, both players' checkers) and the plot (both lines and
    the error markers)."""
    from playwright.sync_api import sync_playwright

    analysis, _ = reference_analysis
    path = tmp_path / "report.html"
    path.write_text(html_report(analysis), encoding="utf-8")
    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1000, "height": 1400})
        page.on("console", lambda message: problems.append(f"{message.type}: {message.text}"))
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
        page.goto(path.as_uri(), wait_until="load")
        boards = page.locator("div.error svg")
        board_count = boards.count()
        plot = page.locator("svg.match-plot")
        assert plot.is_visible() and boards.first.is_visible()
        box = plot.bounding_box()
        assert box is not None and box["width"] > 600 and box["height"] > 250
        board_shot = boards.first.screenshot()
        plot_shot = plot.screenshot()
        page_shot = page.screenshot(full_page=True)
        browser.close()
    assert problems == []
    assert board_count == sum(1 for d in analysis.decisions if d.mark is not None)
    assert page_shot[:8] == b"\x89PNG\r\n\x1a\n"
    # The board: mostly green felt, with light and dark checkers on it.
    from PIL import Image

    width, height = Image.open(BytesIO(board_shot)).size
    assert _pixels_near(board_shot, "#2e6b3a") > 0.2 * width * height
    assert _pixels_near(board_shot, "#f4f1e8", 2) > 3000  # about 550 a checker
    assert _pixels_near(board_shot, "#2a2a2a", 2) > 3000
    # The plot: the win line (blue), the equity line (green), and each error marked
    # twice in its mark's colour (about 36 pixels a marker, 36 more in the legend).
    assert _pixels_near(plot_shot, "#1f5fa8", 40) > 300
    assert _pixels_near(plot_shot, "#2b8a3e", 40) > 300
    for mark, colour in (
        (Mark.DOUBTFUL, "#e0a800"),
        (Mark.BAD, "#e06000"),
        (Mark.VERY_BAD, "#c00000"),
    ):
        count = sum(1 for d in analysis.decisions if d.mark is mark)
        pixels = _pixels_near(plot_shot, colour, 8)
        assert 36 + 50 * count <= pixels + 10 <= 36 + 80 * count + 20, (mark, count, pixels)


@pytest.mark.parametrize("pruned", [True, False])
def test_worker_processes_analyse_as_the_engine_given(pruned: bool) -> None:
    """Games analysed in worker processes get the same results as in this one: the
    workers search with the engine's own settings (here its pruning, on and off)."""
    from backgammon.engine import Engine

    record = read_match(FORMATS / "match01_3pt.sgf")
    assert len(record.games) > 1
    engine = Engine()
    if not pruned:
        engine.pruning = None
    settings = AnalysisSettings(ply=1)
    here = analyze_match(record, engine, settings=settings, store=False)
    workers = analyze_match(record, engine, settings=settings, processes=2, store=False)
    assert analysis_to_json(workers) == analysis_to_json(here)


def test_cube_decisions_at_one_ply_come_from_the_cubeful_search() -> None:
    """At ply > 0 a cube decision is the cubeful search's (the cube carried through
    the lookahead); with ``cubeful_search=False``, the cubeless search made cubeful at
    the root. The two differ somewhere in a whole match."""
    from backgammon.engine import Engine
    from backgammon.engine.cube import CubeOwner
    from backgammon.engine.cubeful import CubeContext, cube_decision_at
    from backgammon.engine.met import kazaross_xg2

    record = read_match(FORMATS / "match01_3pt.sgf")
    engine = Engine()
    searched = analyze_match(record, engine, settings=AnalysisSettings(ply=1), store=False)
    rooted = analyze_match(
        record, engine, settings=AnalysisSettings(ply=1, cubeful_search=False), store=False
    )
    checked = differ = 0
    for game, other in zip(searched.games, rooted.games, strict=True):
        score = record.games[game.number - 1].score_before
        for decision, before in zip(game.cube_decisions, other.cube_decisions, strict=True):
            doubler = decision.doubler
            owner = CubeOwner.seen_by(decision.cube_owner, doubler)
            away = (record.length - score[doubler], record.length - score[1 - doubler])
            context = CubeContext(
                cube=decision.cube,
                owner=owner,
                away=away,
                met=kazaross_xg2(),
                crawford=game.crawford,
            )
            position = searched.position(decision)
            expected = cube_decision_at(
                engine.evaluate_boards, position.to_array(), 1, context, engine.pruning
            )
            assert decision.no_double == pytest.approx(expected.no_double, abs=1e-9)
            assert decision.double_take == pytest.approx(expected.double_take, abs=1e-9)
            assert decision.cube_action == expected.action.value
            checked += 1
            differ += abs(decision.no_double - before.no_double) > 1e-6
    assert checked > 10 and differ > 0, (checked, differ)


_BEAVER_MATCH = """; [Beaver "On"]
; [Raccoon "On"]

 0 point match

 Game 1
 alice : 0                      bob : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Beavers => 4               {answer}
  3)                             64: 24/18 18/14
  4) 21: 13/11 6/5                21: 25/23 6/5
"""


@pytest.mark.parametrize("raccoon", [True, False])
def test_beavers_and_raccoons_are_judged(raccoon: bool) -> None:
    """Money with beavers and raccoons: the doubled side's best answer among take,
    pass and beaver (a beaver doubles the take's stakes), and the doubler's raccoon
    (doubling them again) or its absence, each with its cost."""
    from backgammon.formats import read_match_text

    text = _BEAVER_MATCH.format(answer=" Raccoons => 8" if raccoon else "")
    analysis = analyze_match(read_match_text(text, "mat"), store=False)
    cubes = [d for d in analysis.decisions if isinstance(d, CubeAnalysis)]
    double, beaver, after = cubes[0], cubes[1], cubes[2]
    assert (double.action, beaver.action) == ("double", "beaver")
    dt, dp = beaver.double_take, beaver.double_pass
    answers = {"take": dt, "pass": dp, "beaver": 2 * dt}
    best = min(answers, key=lambda name: answers[name])
    assert beaver.best_action == best
    assert beaver.equity_loss == pytest.approx(answers["beaver"] - answers[best])
    assert after.action == ("raccoon" if raccoon else "no raccoon")
    assert after.player == 1 and after.doubler == 1
    choices = {"raccoon": 4 * dt, "no raccoon": 2 * dt}
    right = max(choices, key=lambda name: choices[name])
    assert after.best_action == right
    assert after.equity_loss == pytest.approx(choices[right] - choices[after.action])
    assert (after.error is not None) == (after.equity_loss > 0)
