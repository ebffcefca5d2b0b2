"""A player's archive (:mod:`backgammon.analysis.archive`) as one self-contained HTML
page: inline CSS and inline SVG plots (the error rate match by match with the running
error rate and GNU Backgammon's rating bands, the luck per roll match by match, the
error rate by kind of decision), the tables behind them, what the player's errors have
in common (by plan and by theme, :mod:`backgammon.analysis.archive_lessons`), and the
positions the player missed most often, each drawn (and explained) as the match report
draws an error (:mod:`backgammon.analysis.report`). No scripts, no external resources.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from backgammon.analysis.annotate import CheckerAnalysis
from backgammon.analysis.archive import KINDS, KindLine, MissedPosition, PlayerArchive
from backgammon.analysis.archive_lessons import THEME_LESSONS, Lessons
from backgammon.analysis.report import (
    _CSS,
    _checker_section,
    _cube_section,
    _fmt,
    _Panel,
)
from backgammon.analysis.summary import RATING_BANDS, luck_rating, rating

__all__ = [
    "archive_html",
    "error_rate_plot_svg",
    "kinds_plot_svg",
    "luck_plot_svg",
    "write_archive_html",
]

_KIND_TITLES = {
    "bear-off": "Bear-off",
    "containment": "Containment and priming",
    "race": "Race",
    "contact": "Other contact",
    "cube": "Cube decisions",
}

_LEFT, _RIGHT, _TOP, _BOTTOM = 52, 12, 26, 40
_WON, _LOST, _OPEN = "#2b8a3e", "#c00000", "#777"


def _open_svg(width: int, height: int, css_class: str, label: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="{css_class}" role="img" '
        f'aria-label="{html.escape(label)}">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>',
    ]


def _match_axis(archive: PlayerArchive, width: int, height: int) -> tuple[list[str], list[float]]:
    """The x place of each match and up to eight of their labels (date or number)."""
    count = len(archive.matches)
    plot_w = width - _LEFT - _RIGHT
    xs = [_LEFT + plot_w * (i + 0.5) / max(count, 1) for i in range(count)]
    step = max(1, -(-count // 8))
    parts = []
    for i in range(0, count, step):
        match = archive.matches[i]
        text = html.escape(match.date or f"#{i + 1}")
        parts.append(
            f'<text x="{_fmt(xs[i])}" y="{height - _BOTTOM + 16}" font-size="10" '
            f'text-anchor="middle" fill="#444">{text}</text>'
        )
    return parts, xs


def _levels(panel: _Panel, levels: Sequence[tuple[float, str]], width: int) -> list[str]:
    parts = [
        f'<rect class="panel" x="{_LEFT}" y="{_fmt(panel.top)}" width="{width - _LEFT - _RIGHT}" '
        f'height="{_fmt(panel.height)}" fill="none" stroke="#bbb"/>'
    ]
    for level, text in levels:
        y = panel.y(level)
        parts.append(
            f'<line x1="{_LEFT}" y1="{_fmt(y)}" x2="{width - _RIGHT}" y2="{_fmt(y)}" '
            'stroke="#bbb" stroke-dasharray="3,3"/>'
            f'<text x="{_LEFT - 6}" y="{_fmt(y + 4)}" font-size="11" text-anchor="end" '
            f'fill="#444">{html.escape(text)}</text>'
        )
    return parts


def _tooltip(archive: PlayerArchive, index: int, figure: str) -> str:
    match = archive.matches[index]
    when = f", {match.date}" if match.date else ""
    result = {True: "won", False: "lost", None: "unfinished or money"}[match.won]
    return html.escape(f"{match.label}{when}: vs {match.opponent} ({result}), {figure}")


def _colour(won: bool | None) -> str:
    return {True: _WON, False: _LOST, None: _OPEN}[won]


def error_rate_plot_svg(archive: PlayerArchive, *, width: int = 900, height: int = 300) -> str:
    """The player's error rate (mEMG per decision) match by match, in the archive's
    order (dots: green won, red lost, grey otherwise), the running error rate over the
    matches so far (a line), and GNU Backgammon's rating bands (dashed levels)."""
    rates = [match.summary.error_rate for match in archive.matches]
    high = max([*rates, 10.0]) * 1.1
    panel = _Panel(_TOP, height - _TOP - _BOTTOM, 0.0, high)
    bands = [(1000.0 * bound, name) for bound, name in RATING_BANDS if 1000.0 * bound < high]
    parts = _open_svg(width, height, "error-rate-plot", f"{archive.player}: error rate by match")
    parts += _levels(panel, [(0.0, "0"), *((bound, f"{bound:g}") for bound, _ in bands)], width)
    for bound, name in bands:
        parts.append(
            f'<text x="{width - _RIGHT - 4}" y="{_fmt(panel.y(bound) - 3)}" font-size="10" '
            f'text-anchor="end" fill="#888">{html.escape(name)}</text>'
        )
    axis, xs = _match_axis(archive, width, height)
    parts += axis
    loss = decisions = 0.0
    running = []
    for x, match in zip(xs, archive.matches, strict=True):
        loss += match.summary.equity_loss
        decisions += match.summary.decisions
        running.append(f"{_fmt(x)},{_fmt(panel.y(1000.0 * loss / decisions if decisions else 0))}")
    if running:
        parts.append(
            f'<path class="running" d="M{" L".join(running)}" fill="none" stroke="#1f5fa8" '
            'stroke-width="1.6"/>'
        )
    for index, (x, rate) in enumerate(zip(xs, rates, strict=True)):
        parts.append(
            f'<circle class="match" cx="{_fmt(x)}" cy="{_fmt(panel.y(rate))}" r="4" '
            f'fill="{_colour(archive.matches[index].won)}" stroke="#000" stroke-width="0.5">'
            f"<title>{_tooltip(archive, index, f'{rate:.1f} mEMG')}</title></circle>"
        )
    parts.append(
        f'<text x="{_LEFT}" y="{_TOP - 8}" font-size="12" fill="#222">'
        f"{html.escape(archive.player)}: error rate per match (mEMG per decision; line: "
        "running error rate)</text></svg>"
    )
    return "".join(parts)


def luck_plot_svg(archive: PlayerArchive, *, width: int = 900, height: int = 240) -> str:
    """The player's luck per roll match by match, as bars about zero (green lucky, red
    unlucky), in the archive's order."""
    rates = [match.summary.luck_rate for match in archive.matches]
    bound = max([*(abs(rate) for rate in rates), 0.05]) * 1.1
    panel = _Panel(_TOP, height - _TOP - _BOTTOM, -bound, bound)
    parts = _open_svg(width, height, "luck-plot", f"{archive.player}: luck per roll by match")
    parts += _levels(
        panel, [(-bound, f"{-bound:+.2f}"), (0.0, "0"), (bound, f"{bound:+.2f}")], width
    )
    axis, xs = _match_axis(archive, width, height)
    parts += axis
    bar = max(2.0, min(24.0, 0.6 * (width - _LEFT - _RIGHT) / max(len(xs), 1)))
    zero = panel.y(0.0)
    for index, (x, rate) in enumerate(zip(xs, rates, strict=True)):
        y = panel.y(rate)
        parts.append(
            f'<rect class="match" x="{_fmt(x - bar / 2)}" y="{_fmt(min(y, zero))}" '
            f'width="{_fmt(bar)}" height="{_fmt(max(abs(zero - y), 0.5))}" '
            f'fill="{_WON if rate >= 0 else _LOST}">'
            f"<title>{_tooltip(archive, index, f'luck {rate:+.4f} per roll')}</title></rect>"
        )
    parts.append(
        f'<text x="{_LEFT}" y="{_TOP - 8}" font-size="12" fill="#222">'
        f"{html.escape(archive.player)}: luck per roll per match (normalised equity)</text></svg>"
    )
    return "".join(parts)


def kinds_plot_svg(archive: PlayerArchive, *, width: int = 900) -> str:
    """Horizontal bars: the player's error rate by kind of decision, then their cube
    error rate at each match score (label: rate, errors of decisions)."""
    lines = [line for line in archive.kinds if line.decisions] + list(archive.cube_scores)
    row, label_w = 22, 220
    height = _TOP + row * max(len(lines), 1) + 12
    high = max([line.error_rate for line in lines] + [10.0]) * 1.25
    plot_w = width - label_w - _RIGHT - 120
    parts = _open_svg(width, height, "kinds-plot", f"{archive.player}: error rate by kind")
    for index, line in enumerate(lines):
        y = _TOP + index * row
        name = f"cube at {line.group}" if line.group else _KIND_TITLES[line.kind]
        length = plot_w * line.error_rate / high
        parts.append(
            f'<text x="{label_w - 8}" y="{y + 15}" font-size="11" text-anchor="end" '
            f'fill="#222">{html.escape(name)}</text>'
            f'<rect class="kind" x="{label_w}" y="{y + 4}" width="{_fmt(max(length, 0.5))}" '
            f'height="{row - 8}" fill="{"#8e44ad" if line.kind == "cube" else "#1f5fa8"}"/>'
            f'<text x="{_fmt(label_w + length + 6)}" y="{y + 15}" font-size="11" fill="#222">'
            f"{line.error_rate:.1f} ({line.errors} errors of {line.decisions})</text>"
        )
    parts.append(
        f'<text x="{_LEFT}" y="{_TOP - 8}" font-size="12" fill="#222">'
        f"{html.escape(archive.player)}: error rate by kind of decision (mEMG per decision)"
        "</text></svg>"
    )
    return "".join(parts)


def _totals_table(archive: PlayerArchive) -> str:
    won, lost = archive.record
    mean = archive.error_rate / 1000.0
    rows = [
        ("Matches (won-lost)", f"{len(archive.matches)} ({won}-{lost})"),
        ("Decisions counted", str(archive.decisions)),
        ("Error rate (mEMG per decision)", f"{archive.error_rate:.1f}"),
        ("PR", f"{500.0 * mean:.2f}"),
        ("Rating", rating(mean)),
        ("Checker play error rate", f"{archive.checker_error_rate:.1f}"),
        ("Cube error rate", f"{archive.cube_error_rate:.1f}"),
        ("Luck per roll", f"{archive.luck_rate:+.4f}"),
        ("Luck rating (GNU Backgammon's words)", luck_rating(archive.luck_rate)),
    ]
    body = "".join(
        f'<tr><td class="text">{label}</td><td>{html.escape(value)}</td></tr>'
        for label, value in rows
    )
    return f'<table class="totals"><tbody>{body}</tbody></table>'


def _matches_table(archive: PlayerArchive) -> str:
    rows = []
    for number, match in enumerate(archive.matches, 1):
        figures = match.summary
        result = {True: "won", False: "lost", None: "-"}[match.won]
        length = f"{match.length}-point" if match.length else "money"
        rows.append(
            f'<tr><td>{number}</td><td class="text">{html.escape(match.label)}</td>'
            f'<td class="text">{html.escape(match.date or "-")}</td>'
            f'<td class="text">{html.escape(match.opponent)}</td><td class="text">{length}</td>'
            f'<td class="text">{result}</td><td>{figures.decisions}</td>'
            f"<td>{figures.error_rate:.1f}</td><td>{figures.pr:.2f}</td>"
            f"<td>{figures.luck_rate:+.4f}</td></tr>"
        )
    return (
        '<table class="matches"><thead><tr><th>#</th><th class="text">Match</th>'
        '<th class="text">Date</th><th class="text">Opponent</th><th class="text">Length</th>'
        '<th class="text">Result</th><th>Decisions</th><th>Error rate</th><th>PR</th>'
        f"<th>Luck per roll</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _kinds_table(lines: Sequence[KindLine]) -> str:
    body = "".join(
        f'<tr><td class="text">{html.escape(line.group or _KIND_TITLES[line.kind])}</td>'
        f"<td>{line.decisions}</td><td>{line.errors}</td><td>{line.equity_loss:.3f}</td>"
        f"<td>{line.error_rate:.1f}</td></tr>"
        for line in lines
    )
    return (
        '<table class="kinds"><thead><tr><th class="text"></th><th>Decisions</th>'
        "<th>Errors</th><th>Equity lost</th><th>Error rate</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def _lessons_section(lessons: Lessons) -> str:
    """The sentence, the checker plays by plan and the errors by theme."""
    plans = "".join(
        f'<tr><td class="text">{line.plan}</td><td>{line.decisions}</td><td>{line.errors}</td>'
        f"<td>{line.equity_loss:.3f}</td><td>{line.per_100:.2f}</td></tr>"
        for line in lessons.plans
        if line.decisions
    )
    themes = "".join(
        f'<tr><td class="text">{html.escape(THEME_LESSONS[line.theme])}</td>'
        f"<td>{line.errors}</td><td>{line.led}</td><td>{line.equity_loss:.3f}</td></tr>"
        for line in lessons.themes
    )
    return (
        f'<p class="lessons">{html.escape(lessons.text)}</p>'
        '<table class="plans"><thead><tr><th class="text">Your plan</th><th>Checker plays'
        "</th><th>Errors</th><th>Equity lost</th><th>Per 100 decisions</th></tr></thead>"
        f"<tbody>{plans}</tbody></table>"
        '<table class="themes"><thead><tr><th class="text">Theme</th><th>Errors it explains'
        "</th><th>Errors it leads</th><th>Equity lost (led)</th></tr></thead>"
        f"<tbody>{themes}</tbody></table>"
        f"<p>Errors no theme explains: {lessons.unexplained}.</p>"
    )


def _missed_section(
    archive: PlayerArchive, kind: str, positions: Sequence[MissedPosition], shown: int
) -> str:
    analyses = {match.label: match.analysis for match in archive.matches}
    parts = [f"<h3>{_KIND_TITLES[kind]}</h3>"]
    if not positions:
        return parts[0] + "<p>No error.</p>"
    for number, item in enumerate(positions[:shown], 1):
        analysis = analyses[item.match]
        worst = item.worst
        score = f", at {item.group}" if item.group else ""
        parts.append(
            f'<p class="missed">Met {item.faced} {"time" if item.faced == 1 else "times"}'
            f"{score}, missed {item.missed} ({item.equity_loss:.3f} lost in all); the worst, "
            f"in {html.escape(item.match)}:</p>"
        )
        section = (
            _checker_section(worst, analysis)
            if isinstance(worst, CheckerAnalysis)
            else _cube_section(worst, analysis)
        )
        anchor = f"g{worst.game}-e{worst.entry}-{worst.kind}"
        parts.append(section.replace(f'id="{anchor}"', f'id="missed-{kind}-{number}"', 1))
    return "".join(parts)


def archive_html(archive: PlayerArchive, *, shown: int = 3, title: str | None = None) -> str:
    """The archive as one HTML document (inline CSS and SVG, no scripts): totals, the
    three plots, the tables of matches and kinds, and per kind the ``shown`` positions
    missed most often, drawn with the play made and the best play."""
    heading = title or f"{archive.player}: {len(archive.matches)} matches"
    plies = sorted({match.analysis.settings.ply for match in archive.matches})
    missed = "".join(
        _missed_section(archive, kind, archive.missed.get(kind, ()), shown) for kind in KINDS
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(heading)}: archive</title><style>{_CSS}</style></head><body>"
        f"<h1>{html.escape(heading)}</h1>"
        f'<p class="meta">Analysed at {"/".join(str(p) for p in plies)}-ply. Matches in date '
        "order where the files give dates, undated ones after. Error rates count unforced "
        "checker plays and close or actual cube decisions (GNU Backgammon's mEMG).</p>"
        f"<h2>Summary</h2>{_totals_table(archive)}"
        f"<h2>Error rate over time</h2>{error_rate_plot_svg(archive)}"
        f"<h2>Luck</h2>{luck_plot_svg(archive)}"
        f"<h2>By kind of decision</h2>{kinds_plot_svg(archive)}"
        f"{_kinds_table(archive.kinds)}"
        "<h3>Cube decisions by match score</h3>"
        f"{_kinds_table(archive.cube_scores)}"
        f"<h2>What your errors have in common</h2>{_lessons_section(archive.lessons)}"
        f"<h2>Matches</h2>{_matches_table(archive)}"
        f"<h2>Positions missed most often</h2>{missed}"
        "</body></html>\n"
    )


def write_archive_html(archive: PlayerArchive, path: str | Path, *, shown: int = 3) -> None:
    """Write :func:`archive_html` to ``path`` (UTF-8).

    Raises:
        OSError: if the file cannot be written.
    """
    Path(path).write_text(archive_html(archive, shown=shown), encoding="utf-8")
