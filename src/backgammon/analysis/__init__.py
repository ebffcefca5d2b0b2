"""Match analysis: checker-play and cube errors, luck, per-player statistics, JSON and
an HTML report.

>>> from backgammon.analysis import analyze_match, summarize, analysis_to_json
>>> from backgammon.formats import read_match
>>> analysis = analyze_match(read_match("match.sgf"))  # doctest: +SKIP
>>> summarize(analysis)[0].error_rate  # doctest: +SKIP

:mod:`~backgammon.analysis.annotate` replays and judges every decision,
:mod:`~backgammon.analysis.summary` computes the statistics and the JSON form, and
:mod:`~backgammon.analysis.report` writes the HTML report.
:mod:`~backgammon.analysis.archive` summarises one player over many matches
(``backgammon archive``), :mod:`~backgammon.analysis.archive_report` draws that as a
page.
"""

from backgammon.analysis.annotate import (
    AnalysisSettings,
    Analyzer,
    CheckerAnalysis,
    CubeAnalysis,
    Decision,
    GameAnalysis,
    Mark,
    MatchAnalysis,
    PlayOption,
    ProgressCallback,
    Thresholds,
    analyze_match,
    store_annotations,
)
from backgammon.analysis.report import board_svg, html_report, match_plot_svg, write_html_report
from backgammon.analysis.summary import (
    PlayerSummary,
    analysis_to_json,
    decision_to_json,
    luck_rating,
    rating,
    summarize,
    summarize_games,
)

__all__ = [
    "AnalysisSettings",
    "Analyzer",
    "CheckerAnalysis",
    "CubeAnalysis",
    "Decision",
    "GameAnalysis",
    "Mark",
    "MatchAnalysis",
    "PlayOption",
    "PlayerSummary",
    "ProgressCallback",
    "Thresholds",
    "analysis_to_json",
    "analyze_match",
    "board_svg",
    "decision_to_json",
    "html_report",
    "luck_rating",
    "match_plot_svg",
    "rating",
    "store_annotations",
    "summarize",
    "summarize_games",
    "write_html_report",
]
