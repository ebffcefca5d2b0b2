"""The HTML report explains every marked error (issue 56): the text of
:func:`~backgammon.analysis.explain.explain_decision` (or
:func:`~backgammon.analysis.explain.explain_cube`) and each theme's sentence, escaped."""

from __future__ import annotations

import html

from backgammon.analysis import AnalysisSettings, CheckerAnalysis, analyze_match, html_report
from backgammon.analysis.explain import THEME_IDS, explain_cube, explain_decision
from backgammon.analysis.explain.cube import CUBE_THEME_IDS
from backgammon.analysis.explain.errors import THEME_NAMES
from backgammon.formats import read_match

MATCH = "tests/data/reference/formats/match03_5pt.mat"


def test_the_report_shows_each_errors_explanation() -> None:
    analysis = analyze_match(read_match(MATCH), settings=AnalysisSettings(ply=0))
    page = html_report(analysis)
    errors = [decision for decision in analysis.decisions if decision.mark is not None]
    assert {type(error).__name__ for error in errors} == {"CheckerAnalysis", "CubeAnalysis"}
    assert page.count('<div class="explanation">') == len(errors)
    items = 0
    for error in errors:
        data = (
            explain_decision(error) if isinstance(error, CheckerAnalysis) else explain_cube(error)
        ).as_json()
        text = str(data["text"])
        says = [(theme["id"], theme["says"]) for theme in data["themes"]]  # type: ignore[attr-defined]
        assert f"<p>{html.escape(text)}</p>" in page
        items += len(says)
        for theme, sentence in says:
            name = THEME_NAMES[theme]
            assert (
                f'<li data-theme="{theme}"><strong>{name}:</strong> {html.escape(sentence)}</li>'
                in page
            )
    # Only the marked errors are explained.
    assert page.count("<li data-theme=") == items


def test_every_theme_has_a_name() -> None:
    assert set(THEME_NAMES) == set(THEME_IDS) | set(CUBE_THEME_IDS)
