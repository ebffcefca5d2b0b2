"""A player's archive groups their errors by plan and by theme (issue 56): the lessons
in the archive's JSON and HTML, recounted here from the matches' analyses and the
errors' own explanations."""

from __future__ import annotations

import html
from functools import cache

import pytest

from backgammon.analysis import AnalysisSettings, CheckerAnalysis, analyze_match
from backgammon.analysis.archive import PlayerArchive, archive_to_json, player_archive
from backgammon.analysis.archive_lessons import MIN_DECISIONS, PLAN_GAMES, THEME_LESSONS
from backgammon.analysis.archive_report import archive_html
from backgammon.analysis.explain import PLAN_NAMES, THEME_IDS, explain_decision, plans_of
from backgammon.formats import read_match

FILES = ("match01_3pt.mat", "match02_3pt.mat", "match03_5pt.mat")


@cache
def _archive() -> PlayerArchive:
    settings = AnalysisSettings(ply=0)
    analysed = []
    for name in FILES:
        record = read_match(f"tests/data/reference/formats/{name}")
        analysed.append((name, record, analyze_match(record, settings=settings)))
    return player_archive("root", analysed)


def _plays(archive: PlayerArchive) -> list[tuple[CheckerAnalysis, str]]:
    """Root's counted checker plays with the plan it played them in."""
    return [
        (decision, plans_of(match.analysis.position(decision))[0])
        for match in archive.matches
        for decision in match.analysis.decisions
        if isinstance(decision, CheckerAnalysis)
        and decision.player == match.side
        and decision.counted
    ]


def test_the_json_groups_the_players_plays_by_plan() -> None:
    archive = _archive()
    lessons = archive_to_json(archive)["lessons"]
    plays = _plays(archive)
    assert [line["plan"] for line in lessons["by_plan"]] == list(PLAN_NAMES)
    for line in lessons["by_plan"]:
        mine = [decision for decision, plan in plays if plan == line["plan"]]
        assert line["decisions"] == len(mine)
        assert line["errors"] == sum(decision.mark is not None for decision in mine)
        loss = sum(decision.equity_loss for decision in mine)
        assert line["equity_loss"] == pytest.approx(loss, abs=1e-5)
        assert line["per_100"] == pytest.approx(100 * loss / len(mine) if mine else 0, abs=1e-3)
    assert sum(line["decisions"] for line in lessons["by_plan"]) == len(plays) > 0


def test_the_json_groups_the_players_errors_by_theme() -> None:
    archive = _archive()
    lessons = archive_to_json(archive)["lessons"]
    errors = [decision for decision, _ in _plays(archive) if decision.mark is not None]
    assert len(errors) >= 5
    led = dict.fromkeys(THEME_IDS, 0)
    explains = dict.fromkeys(THEME_IDS, 0)
    unexplained = 0
    for error in errors:
        favoured = [t for t in explain_decision(error).themes if t.favours == "best"]
        for theme in favoured:
            explains[theme.id] += 1
        if favoured:
            led[max(favoured, key=lambda theme: theme.weight).id] += 1
        else:
            unexplained += 1
    by_theme = {line["theme"]: line for line in lessons["by_theme"]}
    assert list(by_theme) == list(THEME_IDS)
    assert {theme: line["led"] for theme, line in by_theme.items()} == led
    assert {theme: line["errors"] for theme, line in by_theme.items()} == explains
    assert lessons["unexplained"] == unexplained
    assert sum(led.values()) + unexplained == len(errors)
    # The sentence names the plan lost most in and the costliest theme.
    plans = [line for line in lessons["by_plan"] if line["decisions"] >= MIN_DECISIONS]
    worst = max(plans, key=lambda line: line["per_100"])
    costly = max(lessons["by_theme"], key=lambda line: line["equity_loss"])
    assert lessons["text"].startswith(
        f"You lose most in {PLAN_GAMES[worst['plan']]}: {worst['per_100']:.1f} equity per 100 "
        f"decisions ({worst['decisions']} decisions); your costliest theme is "
        f"{THEME_LESSONS[costly['theme']]} ({costly['equity_loss']:.3f} lost in "
    )


def test_the_html_page_shows_the_lessons() -> None:
    archive = _archive()
    page = archive_html(archive)
    assert "<h2>What your errors have in common</h2>" in page
    assert f'<p class="lessons">{html.escape(archive.lessons.text)}</p>' in page
    for line in archive.lessons.plans:
        if line.decisions:
            assert f'<td class="text">{line.plan}</td><td>{line.decisions}</td>' in page
    for theme in archive.lessons.themes:
        assert (
            f"<td>{theme.errors}</td><td>{theme.led}</td><td>{theme.equity_loss:.3f}</td>" in page
        )
    # The positions missed most often are explained as the match report explains errors.
    assert '<div class="explanation">' in page
