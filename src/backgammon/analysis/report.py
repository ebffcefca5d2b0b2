"""A self-contained HTML report of an analysed match: inline CSS and inline SVG, no
JavaScript and no external resources.

The report has a summary table per player (error rates, PR, rating, marks, luck) and per
game, an SVG plot of player 0's chance to win the game and equity through the match with
the errors marked; for every error (doubtful, bad or very bad), an SVG diagram of the
board (24 points, checkers, bar, borne-off checkers, cube, dice; the play made and the
best play as arrows) with the best alternatives or the cube equities, and its
explanation (:func:`backgammon.analysis.explain.explain_error`: the text and the themes
as a short list); and each game move by move (collapsed; errors coloured and linked to
their diagrams).

>>> from backgammon.rules.position import Position
>>> board_svg(Position.initial(), dice=(3, 1)).startswith("<svg")
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from pathlib import Path

from backgammon.analysis.annotate import (
    CheckerAnalysis,
    CubeAnalysis,
    Decision,
    GameAnalysis,
    Mark,
    MatchAnalysis,
)
from backgammon.analysis.explain.errors import brief_json, explain_error
from backgammon.analysis.summary import PlayerSummary, summarize, summarize_games
from backgammon.rules.position import Position

__all__ = ["board_svg", "html_report", "match_plot_svg", "write_html_report"]

_MARK_COLOURS = {Mark.DOUBTFUL: "#e0a800", Mark.BAD: "#e06000", Mark.VERY_BAD: "#c00000"}

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
  max-width: 980px; color: #222; background: #fff; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
h3 { font-size: 1.05em; margin: 1.4em 0 0.4em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.7em; text-align: right; }
th { background: #f2f2f2; }
td.text, th.text { text-align: left; }
.explanation { max-width: 60em; } .explanation ul { margin: 0.3em 0; padding-left: 1.4em; }
tr.played td { background: #fff2cc; font-weight: bold; }
.meta { color: #555; }
.error { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.mark-doubtful { color: #a07800; } .mark-bad { color: #c05000; }
.mark-very-bad { color: #c00000; font-weight: bold; }
svg { max-width: 100%; height: auto; }
details.moves { margin: 0.4em 0; } details.moves summary { cursor: pointer; }
tr.mark-doubtful td, tr.mark-bad td, tr.mark-very-bad td { background: #fff6e0; }
"""

# Board geometry (SVG user units).
_POINT = 32
_BAR = 32
_LEFT = 44
_TOP = 22
_HEIGHT = 330
_TRAY = 44
_WIDTH = _LEFT + 12 * _POINT + _BAR + _TRAY + 8
_RADIUS = _POINT / 2 - 1.5


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _column_x(column: int) -> float:
    """The left edge of board column 0..11 (left to right)."""
    return _LEFT + column * _POINT + (_BAR if column >= 6 else 0)


def _point_place(point: int) -> tuple[float, bool]:
    """(left x, on the bottom row) of point 1..24 of the side on roll (its home board
    bottom right)."""
    if point <= 12:
        return _column_x(12 - point), True
    return _column_x(point - 13), False


def _spot(point: int, index: int) -> tuple[float, float]:
    """The centre of the ``index``-th checker from the edge (the fifth and beyond share
    the fifth's place) on the side on roll's ``point``: 25 is its bar, 0 its tray."""
    if point >= 25:
        return _LEFT + 6 * _POINT + _BAR / 2, _TOP + _HEIGHT / 2 - _POINT
    if point <= 0:
        return _LEFT + 12 * _POINT + _BAR + 6 + (_TRAY - 8) / 2, _TOP + _HEIGHT - 40
    x, low = _point_place(point)
    offset = _RADIUS + 2 + min(index, 4) * (2 * _RADIUS + 1)
    return x + _POINT / 2, _TOP + _HEIGHT - offset if low else _TOP + offset


def _arrows(
    position: Position, steps: Sequence[tuple[int, int]], colour: str, dashed: bool
) -> list[str]:
    """Arrows for a play's steps (``(from, to)`` in the mover's numbering), each from
    the checker that moves to where it lands, the stacks updated step by step."""
    counts = [position.player[point] for point in range(26)]
    parts = []
    dash = ' stroke-dasharray="5,3"' if dashed else ""
    for source, destination in steps:
        start = _spot(source, max(counts[source] - 1, 0))
        counts[source] -= 1
        if destination > 0:
            counts[destination] += 1
        end = _spot(destination, max(counts[destination] - 1, 0) if destination > 0 else 0)
        dx, dy = end[0] - start[0], end[1] - start[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        tip = (end[0] - ux * 4, end[1] - uy * 4)
        back = (tip[0] - ux * 10, tip[1] - uy * 10)
        wing = (-uy * 5, ux * 5)
        parts.append(
            f'<line x1="{_fmt(start[0])}" y1="{_fmt(start[1])}" x2="{_fmt(back[0])}" '
            f'y2="{_fmt(back[1])}" stroke="{colour}" stroke-width="3" '
            f'stroke-linecap="round" opacity="0.9"{dash}/>'
            f'<path d="M{_fmt(tip[0])},{_fmt(tip[1])} L{_fmt(back[0] + wing[0])},'
            f"{_fmt(back[1] + wing[1])} L{_fmt(back[0] - wing[0])},{_fmt(back[1] - wing[1])} "
            f'Z" fill="{colour}" opacity="0.9"/>'
        )
    return parts


_PLAYED_ARROW = "#e65100"
_BEST_ARROW = "#1565c0"


def board_svg(
    position: Position,
    *,
    dice: tuple[int, int] | None = None,
    cube: int = 1,
    cube_owner: str = "centred",
    labels: tuple[str, str] = ("on roll", "opponent"),
    played: Sequence[tuple[int, int]] = (),
    best: Sequence[tuple[int, int]] = (),
) -> str:
    """An SVG picture of ``position`` seen from the side on roll (its home board bottom
    right, its checkers light, the opponent's dark).

    Args:
        position: the position.
        dice: the roll to show, if any.
        cube: the cube value (a centred cube at 1 shows 64, as on a real board).
        cube_owner: ``"centred"``, ``"player"`` (the side on roll) or ``"opponent"``.
        labels: names for the side on roll and the opponent.
        played: the steps (``(from, to)``, the side on roll's numbering: 25 the bar, 0
            off) of the play made, drawn as solid orange arrows.
        best: the steps of the best play, drawn as dashed blue arrows.
    """
    bottom = _TOP + _HEIGHT
    height = bottom + (52 if played or best else 36)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {height}" '
        f'width="{_WIDTH}" height="{height}" role="img" '
        f'aria-label="backgammon position {html.escape(position.position_id)}">',
        f'<rect x="0" y="0" width="{_WIDTH}" height="{height}" fill="#f7f3ea"/>',
        f'<rect x="{_LEFT}" y="{_TOP}" width="{12 * _POINT + _BAR}" height="{_HEIGHT}" '
        'fill="#2e6b3a" stroke="#3b2a1a" stroke-width="3"/>',
        f'<rect x="{_LEFT + 6 * _POINT}" y="{_TOP}" width="{_BAR}" height="{_HEIGHT}" '
        'fill="#5a3e24"/>',
    ]
    depth = _HEIGHT * 0.4
    for point in range(1, 25):
        x, low = _point_place(point)
        colour = "#d9c08c" if point % 2 else "#9c3b2f"
        if low:
            base, tip = bottom, bottom - depth
            label_y = bottom + 14
        else:
            base, tip = _TOP, _TOP + depth
            label_y = _TOP - 7
        parts.append(
            f'<polygon points="{_fmt(x)},{_fmt(base)} {_fmt(x + _POINT)},{_fmt(base)} '
            f'{_fmt(x + _POINT / 2)},{_fmt(tip)}" fill="{colour}"/>'
        )
        parts.append(
            f'<text x="{_fmt(x + _POINT / 2)}" y="{_fmt(label_y)}" font-size="10" '
            f'text-anchor="middle" fill="#555">{point}</text>'
        )
    player, opponent = position.player, position.opponent
    for point in range(1, 25):
        x, low = _point_place(point)
        if player[point]:
            parts.extend(_stack(x + _POINT / 2, low, player[point], light=True))
        theirs = opponent[25 - point]
        if theirs:
            parts.extend(_stack(x + _POINT / 2, low, theirs, light=False))
    centre = _LEFT + 6 * _POINT + _BAR / 2
    middle = _TOP + _HEIGHT / 2
    if player[25]:
        parts.extend(_bar_stack(centre, middle - _POINT, player[25], light=True))
    if opponent[25]:
        parts.extend(_bar_stack(centre, middle + _POINT, opponent[25], light=False))
    parts.extend(_tray(position))
    parts.extend(_cube(cube, cube_owner))
    if dice is not None:
        parts.extend(_dice(dice))
    parts.extend(_arrows(position, best, _BEST_ARROW, dashed=True))
    parts.extend(_arrows(position, played, _PLAYED_ARROW, dashed=False))
    parts.append(
        f'<text x="{_LEFT}" y="{bottom + 31}" font-size="11" fill="#333">'
        f"light: {html.escape(labels[0])} (home bottom right); "
        f"dark: {html.escape(labels[1])}; {html.escape(position.position_id)}</text>"
    )
    if played or best:
        y = bottom + 45
        for k, (colour, dash, text) in enumerate(
            ((_PLAYED_ARROW, "", "played"), (_BEST_ARROW, ' stroke-dasharray="5,3"', "best"))
        ):
            x = _LEFT + 90 * k
            parts.append(
                f'<line x1="{x}" y1="{y - 4}" x2="{x + 22}" y2="{y - 4}" stroke="{colour}" '
                f'stroke-width="3"{dash}/><text x="{x + 28}" y="{y}" font-size="11" '
                f'fill="#333">{text}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


def _checker(x: float, y: float, light: bool) -> str:
    fill, stroke = ("#f4f1e8", "#333") if light else ("#2a2a2a", "#000")
    return (
        f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(_RADIUS)}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="1.2"/>'
    )


def _count(x: float, y: float, count: int, light: bool) -> str:
    colour = "#000" if light else "#fff"
    return (
        f'<text x="{_fmt(x)}" y="{_fmt(y + 4)}" font-size="12" font-weight="bold" '
        f'text-anchor="middle" fill="{colour}">{count}</text>'
    )


def _stack(x: float, low: bool, count: int, light: bool) -> list[str]:
    step = 2 * _RADIUS + 1
    shown = min(count, 5)
    parts = []
    for k in range(shown):
        y = _TOP + _HEIGHT - _RADIUS - 2 - k * step if low else _TOP + _RADIUS + 2 + k * step
        parts.append(_checker(x, y, light))
    if count > 5:
        parts.append(_count(x, y, count, light))
    return parts


def _bar_stack(x: float, y: float, count: int, light: bool) -> list[str]:
    parts = [_checker(x, y, light)]
    if count > 1:
        parts.append(_count(x, y, count, light))
    return parts


def _tray(position: Position) -> list[str]:
    x = _LEFT + 12 * _POINT + _BAR + 6
    parts = [
        f'<rect x="{x}" y="{_TOP}" width="{_TRAY - 8}" height="{_HEIGHT}" fill="#e8dcc4" '
        'stroke="#3b2a1a" stroke-width="2"/>'
    ]
    width = _TRAY - 14
    for count, low, light in (
        (position.player_off, True, True),
        (position.opponent_off, False, False),
    ):
        fill = "#f4f1e8" if light else "#2a2a2a"
        for k in range(count):
            y = _TOP + _HEIGHT - 6 - (k + 1) * 7 if low else _TOP + 4 + k * 7
            parts.append(
                f'<rect x="{x + 3}" y="{y}" width="{width}" height="5" fill="{fill}" '
                'stroke="#333" stroke-width="0.6"/>'
            )
        if count:
            y = _TOP + _HEIGHT - 14 - count * 7 if low else _TOP + 16 + count * 7
            parts.append(
                f'<text x="{_fmt(x + (_TRAY - 8) / 2)}" y="{_fmt(y)}" font-size="11" '
                f'text-anchor="middle" fill="#333">off {count}</text>'
            )
    return parts


def _cube(value: int, owner: str) -> list[str]:
    size = 28
    x = (_LEFT - size) / 2
    y: float
    if owner == "player":
        y = _TOP + _HEIGHT - size - 6
    elif owner == "opponent":
        y = _TOP + 6
    else:
        y = _TOP + (_HEIGHT - size) / 2
    shown = 64 if value == 1 and owner == "centred" else value
    return [
        f'<rect x="{_fmt(x)}" y="{_fmt(y)}" width="{size}" height="{size}" rx="4" '
        'fill="#fff" stroke="#222" stroke-width="1.5"/>',
        f'<text x="{_fmt(x + size / 2)}" y="{_fmt(y + size / 2 + 5)}" font-size="14" '
        f'font-weight="bold" text-anchor="middle" fill="#222">{shown}</text>',
    ]


_PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
}


def _dice(dice: tuple[int, int]) -> list[str]:
    size = 26
    parts = []
    left = _column_x(6) + 3 * _POINT - size - 4
    y = _TOP + (_HEIGHT - size) / 2
    for k, die in enumerate(dice):
        x = left + k * (size + 8)
        parts.append(
            f'<rect x="{_fmt(x)}" y="{_fmt(y)}" width="{size}" height="{size}" rx="4" '
            'fill="#fdfdfd" stroke="#222" stroke-width="1.2"/>'
        )
        for px, py in _PIPS.get(die, ()):
            parts.append(
                f'<circle cx="{_fmt(x + px * size)}" cy="{_fmt(y + py * size)}" r="2.6" '
                'fill="#222"/>'
            )
    return parts


# -- the plot -------------------------------------------------------------------------------


class _Panel:
    """One plotting area of :func:`match_plot_svg`: where it lies on the page and the
    range of values it shows."""

    def __init__(self, top: float, height: float, low: float, high: float) -> None:
        self.top, self.height, self.low, self.high = top, height, low, high

    def y(self, value: float) -> float:
        """The page height of ``value`` (clipped to the panel)."""
        value = min(max(value, self.low), self.high)
        return self.top + self.height * (self.high - value) / (self.high - self.low)


def _equity_bound(values: Sequence[float]) -> float:
    """The equity axis' half-range: at least 1, else the largest value rounded up to 0.5."""
    largest = max((abs(value) for value in values), default=0.0)
    return max(1.0, math.ceil(largest * 2.0 - 1e-9) / 2.0)


def match_plot_svg(analysis: MatchAnalysis, *, width: int = 900, height: int = 420) -> str:
    """An SVG plot of the match as player 0 saw it before each roll, in two panels on one
    time axis: the chance to win the current game (above) and the equity (below: cubeful
    or cubeless as the analysis valued plays, normalised to the cube, at the score). Game
    boundaries are drawn across both, and every marked error on both (colour by mark:
    doubtful, bad, very bad; circles for player 0, squares for player 1; the headline
    as a tooltip).

    >>> from backgammon.analysis.annotate import AnalysisSettings, MatchAnalysis
    >>> empty = MatchAnalysis(("a", "b"), 0, AnalysisSettings(), ())
    >>> match_plot_svg(empty).count('class="panel"')
    2
    """
    left, right, top, bottom, gap = 52, 12, 22, 36, 34
    plot_w = width - left - right
    panel_h = (height - top - bottom - gap) / 2
    wins: list[tuple[int, float]] = []
    equities: list[tuple[int, float]] = []
    markers: list[tuple[int, Decision]] = []
    starts: list[tuple[int, int]] = []
    index = 0
    for game in analysis.games:
        starts.append((index, game.number))
        for decision in game.decisions:
            if isinstance(decision, CheckerAnalysis):
                sign = 1.0 if decision.player == 0 else -1.0
                wins.append((index, decision.win if sign > 0 else 1.0 - decision.win))
                equities.append((index, sign * decision.equity_before))
                if decision.mark is not None:
                    markers.append((index, decision))
                index += 1
            elif decision.mark is not None:
                markers.append((index, decision))
    count = max(index - 1, 1)
    bound = _equity_bound([value for _, value in equities])
    win_panel = _Panel(top, panel_h, 0.0, 1.0)
    equity_panel = _Panel(top + panel_h + gap, panel_h, -bound, bound)

    def sx(i: float) -> float:
        return left + plot_w * i / count

    name = html.escape(analysis.players[0])
    second = html.escape(analysis.players[1])
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="match-plot" role="img" '
        f'aria-label="{name}: chance to win and equity through the match">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>',
    ]
    ticks = [
        (win_panel, [(level, f"{int(level * 100)}%") for level in (0.0, 0.25, 0.5, 0.75, 1.0)]),
        (
            equity_panel,
            [
                (half / 2.0, f"{half / 2.0:+.1f}" if half else "0")
                for half in range(-round(2 * bound), round(2 * bound) + 1)
            ],
        ),
    ]
    for panel, levels in ticks:
        parts.append(
            f'<rect class="panel" x="{left}" y="{_fmt(panel.top)}" width="{plot_w}" '
            f'height="{_fmt(panel.height)}" fill="none" stroke="#bbb"/>'
        )
        for level, text in levels:
            y = panel.y(float(level))
            parts.append(
                f'<line x1="{left}" y1="{_fmt(y)}" x2="{left + plot_w}" y2="{_fmt(y)}" '
                'stroke="#bbb" stroke-dasharray="3,3"/>'
                f'<text x="{left - 6}" y="{_fmt(y + 4)}" font-size="11" text-anchor="end" '
                f'fill="#444">{text}</text>'
            )
        for start, _ in starts:
            boundary = _fmt(sx(start))
            parts.append(
                f'<line x1="{boundary}" y1="{_fmt(panel.top)}" x2="{boundary}" '
                f'y2="{_fmt(panel.top + panel.height)}" stroke="#888" stroke-width="0.8"/>'
            )
    for start, number in starts:
        parts.append(
            f'<text x="{_fmt(sx(start) + 3)}" y="{_fmt(equity_panel.top + panel_h + 14)}" '
            f'font-size="10" fill="#444">game {number}</text>'
        )
    game_starts = {start for start, _ in starts}
    for panel, series, colour in (
        (win_panel, wins, "#1f5fa8"),
        (equity_panel, equities, "#2b8a3e"),
    ):
        if series:
            path = " ".join(
                f"{'M' if k == 0 or i in game_starts else 'L'}{_fmt(sx(i))},{_fmt(panel.y(value))}"
                for k, (i, value) in enumerate(series)
            )
            parts.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="1.6"/>')
    for panel, series, neutral in ((win_panel, wins, 0.5), (equity_panel, equities, 0.0)):
        values = dict(series)
        for i, decision in markers:
            assert decision.mark is not None
            colour = _MARK_COLOURS[decision.mark]
            x, y = sx(i), panel.y(values.get(i, neutral))
            title = html.escape(_headline(decision, analysis.players))
            if decision.player == 0:
                shape = f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="4.5" '
                close = "</circle>"
            else:
                shape = f'<rect x="{_fmt(x - 4)}" y="{_fmt(y - 4)}" width="8" height="8" '
                close = "</rect>"
            parts.append(
                f'{shape}fill="{colour}" stroke="#000" stroke-width="0.6">'
                f"<title>{title}</title>{close}"
            )
    basis = "cubeful" if analysis.settings.cubeful else "cubeless"
    parts.append(
        f'<text x="{left}" y="{top - 7}" font-size="12" fill="#222">'
        f"{name}: chance to win the game before each roll</text>"
        f'<text x="{left}" y="{_fmt(equity_panel.top - 7)}" font-size="12" fill="#222">'
        f"{name}: equity before each roll ({basis}, per unit of cube, at the score)</text>"
    )
    legend_x = left + plot_w
    for k, (mark, colour) in enumerate(reversed(list(_MARK_COLOURS.items()))):
        x = legend_x - 90 * (k + 1)
        parts.append(
            f'<circle cx="{x}" cy="{top - 11}" r="4.5" fill="{colour}" stroke="#000" '
            f'stroke-width="0.6"/><text x="{x + 8}" y="{top - 7}" font-size="11" '
            f'fill="#222">{mark.value}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w}" y="{height - 4}" font-size="11" text-anchor="end" '
        f'fill="#444">errors: circles {name}, squares {second}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


# -- the report -----------------------------------------------------------------------------


def _headline(decision: Decision, players: Sequence[str]) -> str:
    who = players[decision.player]
    mark = "" if decision.mark is None else f" ({decision.mark.value})"
    if isinstance(decision, CheckerAnalysis):
        return (
            f"Game {decision.game}, move {decision.move_number}: {who} "
            f"{decision.roll[0]}-{decision.roll[1]} played {decision.play}, "
            f"losing {decision.equity_loss:.3f}{mark}"
        )
    what = decision.error or decision.action
    return (
        f"Game {decision.game}, move {decision.move_number}: {who} {what}, "
        f"losing {decision.equity_loss:.3f}{mark}"
    )


def _owner_word(owner: int | None, player: int) -> str:
    if owner is None:
        return "centred"
    return "player" if owner == player else "opponent"


def _summary_table(summaries: Sequence[PlayerSummary]) -> str:
    rows: list[tuple[str, str, str]] = []

    def add(label: str, a: str, b: str) -> None:
        rows.append((label, a, b))

    first, second = summaries
    add("Rating", first.rating, second.rating)
    add("Error rate (mEMG per decision)", f"{first.error_rate:.1f}", f"{second.error_rate:.1f}")
    add("PR", f"{first.pr:.2f}", f"{second.pr:.2f}")
    add(
        "Checker play: unforced decisions",
        str(first.checker_decisions),
        str(second.checker_decisions),
    )
    add("Checker play: forced moves", str(first.forced_moves), str(second.forced_moves))
    add(
        "Checker play: equity lost in all",
        f"{first.checker_loss:.3f}",
        f"{second.checker_loss:.3f}",
    )
    add(
        "Checker play: equity lost per decision",
        f"{first.checker_loss_mean:.4f}",
        f"{second.checker_loss_mean:.4f}",
    )
    add(
        "Checker play: error rate",
        f"{first.checker_error_rate:.1f}",
        f"{second.checker_error_rate:.1f}",
    )
    add("Cube: close or actual decisions", str(first.cube_decisions), str(second.cube_decisions))
    add("Cube: equity lost", f"{first.cube_loss:.3f}", f"{second.cube_loss:.3f}")
    add("Cube: error rate", f"{first.cube_error_rate:.1f}", f"{second.cube_error_rate:.1f}")
    for name in first.cube_errors:
        add(f"Cube: {name}", str(first.cube_errors[name]), str(second.cube_errors[name]))
    for name in first.marks:
        add(f"Marked {name}", str(first.marks[name]), str(second.marks[name]))
    add("Luck (total)", f"{first.luck:+.3f}", f"{second.luck:+.3f}")
    add("Luck per roll", f"{first.luck_rate:+.4f}", f"{second.luck_rate:+.4f}")
    add("Luck rating", first.luck_rating, second.luck_rating)
    add("Points won", str(first.points_won), str(second.points_won))
    add(
        "Luck-adjusted result (points)",
        f"{first.luck_adjusted_result:+.2f}",
        f"{second.luck_adjusted_result:+.2f}",
    )
    body = "".join(
        f'<tr><td class="text">{html.escape(label)}</td><td>{html.escape(a)}</td>'
        f"<td>{html.escape(b)}</td></tr>"
        for label, a, b in rows
    )
    return (
        '<table class="summary"><thead><tr><th class="text"></th>'
        f"<th>{html.escape(first.name)}</th><th>{html.escape(second.name)}</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def _mark_class(mark: Mark | None) -> str:
    return "" if mark is None else f"mark-{mark.value.replace(' ', '-')}"


def _checker_section(decision: CheckerAnalysis, analysis: MatchAnalysis) -> str:
    position = analysis.position(decision)
    players = analysis.players
    board = board_svg(
        position,
        dice=decision.roll,
        cube=decision.cube,
        cube_owner=_owner_word(decision.cube_owner, decision.player),
        labels=(players[decision.player], players[1 - decision.player]),
        played=decision.played.steps,
        best=decision.best.steps,
    )
    best = decision.best.equity
    rows = []
    for rank, option in enumerate(decision.options, 1):
        played = ' class="played"' if option == decision.played else ""
        rows.append(
            f'<tr{played}><td>{rank}</td><td class="text">{html.escape(option.play)}'
            f"</td><td>{option.equity:+.3f}</td><td>{option.equity - best:+.3f}</td>"
            f"<td>{100 * option.probabilities[0]:.1f}%</td></tr>"
        )
    table = (
        '<table><thead><tr><th>#</th><th class="text">Play</th><th>Equity</th>'
        "<th>Difference</th><th>Win</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )
    return _section(decision, analysis, board, table)


def _explanation_html(decision: Decision, checkers: int) -> str:
    """An error's explanation (:func:`explain_error`): its text, then each theme's
    sentence in a short list; nothing where there is none."""
    explanation = explain_error(decision, checkers)
    if explanation is None:
        return ""
    brief = brief_json(explanation)
    themes: list[dict[str, str]] = brief["themes"]  # type: ignore[assignment]
    items = "".join(
        f'<li data-theme="{html.escape(theme["id"])}"><strong>'
        f"{html.escape(theme['name'])}:</strong> "
        f"{html.escape(theme['says'])}</li>"
        for theme in themes
    )
    return (
        f'<div class="explanation"><p>{html.escape(explanation.text)}</p>'
        + (f"<ul>{items}</ul>" if items else "")
        + "</div>"
    )


def _cube_section(decision: CubeAnalysis, analysis: MatchAnalysis) -> str:
    position = analysis.position(decision)
    players = analysis.players
    board = board_svg(
        position,
        cube=decision.cube,
        cube_owner=_owner_word(decision.cube_owner, decision.doubler),
        labels=(players[decision.doubler], players[1 - decision.doubler]),
    )
    rows = [
        ("No double", decision.no_double),
        ("Double, take", decision.double_take),
        ("Double, pass", decision.double_pass),
    ]
    best = max(
        decision.no_double,
        min(decision.double_take, decision.double_pass) if decision.should_double else -9.0,
    )
    body = "".join(
        f'<tr><td class="text">{label}</td><td>{value:+.3f}</td><td>{value - best:+.3f}</td></tr>'
        for label, value in rows
    )
    win = decision.probabilities[0]
    table = (
        f"<p>{html.escape(players[decision.player])}: {html.escape(decision.action)}; "
        f"right: {html.escape(decision.cube_action)} "
        f"({'exact bearoff database' if decision.exact else 'Janowski model'}); "
        f"{html.escape(players[decision.doubler])} wins {100 * win:.1f}% cubeless.</p>"
        '<table><thead><tr><th class="text">Action</th><th>Equity</th><th>Difference</th>'
        f"</tr></thead><tbody>{body}</tbody></table>"
    )
    return _section(decision, analysis, board, table)


def _anchor(decision: Decision) -> str:
    """The id of a decision's section in the report (unique per game, entry and kind)."""
    return f"g{decision.game}-e{decision.entry}-{decision.kind}"


def _move_list(game: GameAnalysis, analysis: MatchAnalysis) -> str:
    """One game move by move, in a collapsed ``<details>``: every checker play and
    every cube action except an unmarked "no double"; errors in their mark's colour,
    linked to their section."""
    players = analysis.players
    rows = []
    for decision in game.decisions:
        if isinstance(decision, CheckerAnalysis):
            roll = f"{decision.roll[0]}-{decision.roll[1]}"
            what = decision.play
        elif decision.action == "no double" and decision.mark is None:
            continue
        else:
            roll = ""
            what = decision.error or decision.action
        text = html.escape(what)
        if decision.mark is not None:
            text = f'<a href="#{_anchor(decision)}">{text}</a>'
        loss = f"{decision.equity_loss:.3f}" if decision.equity_loss > 0 else ""
        mark = decision.mark.value if decision.mark is not None else ""
        rows.append(
            f'<tr class="{_mark_class(decision.mark)}"><td>{decision.move_number}</td>'
            f'<td class="text">{html.escape(players[decision.player])}</td><td>{roll}</td>'
            f'<td class="text">{text}</td><td>{loss}</td><td class="text">{mark}</td></tr>'
        )
    winner = (
        f"{html.escape(players[game.winner])} wins {game.points} "
        f"point{'s' if game.points != 1 else ''}"
        if game.winner is not None
        else "not finished"
    )
    return (
        f'<details class="moves"><summary>Game {game.number} '
        f"({game.score_before[0]}-{game.score_before[1]}): {winner}</summary>"
        '<table><thead><tr><th>Move</th><th class="text">Player</th><th>Roll</th>'
        '<th class="text">Play or cube action</th><th>Loss</th><th class="text">Mark</th>'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></details>"
    )


def _section(decision: Decision, analysis: MatchAnalysis, board: str, table: str) -> str:
    headline = html.escape(_headline(decision, analysis.players))
    return (
        f'<h3 id="{_anchor(decision)}" class="{_mark_class(decision.mark)}">{headline}</h3>'
        f'<div class="error"><div>{board}</div><div>{table}'
        f"{_explanation_html(decision, analysis.checkers)}</div></div>"
    )


def _error_counts(errors: Sequence[Decision]) -> str:
    """How many errors of each mark, as "2 very bad, 1 bad, 4 doubtful" (or "none")."""
    counts = [
        f"{sum(1 for error in errors if error.mark is mark)} {mark.value}"
        for mark in (Mark.VERY_BAD, Mark.BAD, Mark.DOUBTFUL)
        if any(error.mark is mark for error in errors)
    ]
    return ", ".join(counts) or "none"


def html_report(analysis: MatchAnalysis, *, title: str | None = None) -> str:
    """The whole report as one HTML document (inline CSS and SVG, no scripts)."""
    players = analysis.players
    heading = title or f"{players[0]} vs {players[1]}"
    kind = f"{analysis.length}-point match" if analysis.length else "money session"
    games = f"{len(analysis.games)} game{'' if len(analysis.games) == 1 else 's'}"
    summaries = summarize(analysis)
    errors = [decision for decision in analysis.decisions if decision.mark is not None]
    sections = []
    for decision in errors:
        if isinstance(decision, CheckerAnalysis):
            sections.append(_checker_section(decision, analysis))
        else:
            sections.append(_cube_section(decision, analysis))
    settings = analysis.settings
    games = "".join(
        f"<tr><td>{game.number}</td><td>{game.score_before[0]}-{game.score_before[1]}</td>"
        f'<td class="text">{html.escape(players[game.winner]) if game.winner is not None else "-"}'
        f"</td><td>{game.points}</td>"
        + "".join(f"<td>{summary.error_rate:.1f}</td>" for summary in pair)
        + "".join(f"<td>{summary.luck:+.3f}</td>" for summary in pair)
        + "</tr>"
        for game, pair in zip(analysis.games, summarize_games(analysis), strict=True)
    )
    names = [html.escape(name) for name in players]
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(heading)}: analysis</title><style>{_CSS}</style></head><body>"
        f"<h1>{html.escape(heading)}</h1>"
        f'<p class="meta">{kind}, {games}, analysed at {settings.ply}-ply '
        f"(checker play: {'cubeful' if settings.cubeful else 'cubeless'} equity at the "
        "score; cube: Janowski's model"
        f"{', Kazaross-XG2' if analysis.length and settings.met is None else ''}). "
        f"Marks: doubtful from {settings.thresholds.doubtful:.3f}, bad from "
        f"{settings.thresholds.bad:.3f}, very bad from {settings.thresholds.very_bad:.3f}."
        "</p>"
        "<h2>Summary</h2>"
        f"{_summary_table(summaries)}"
        '<table class="games"><thead><tr><th>Game</th><th>Score before</th>'
        '<th class="text">Winner</th><th>Points</th>'
        f"<th>Error rate {names[0]}</th><th>Error rate {names[1]}</th>"
        f"<th>Luck {names[0]}</th><th>Luck {names[1]}</th>"
        f"</tr></thead><tbody>{games}</tbody></table>"
        "<h2>Through the match</h2>"
        f"{match_plot_svg(analysis)}"
        f"<h2>Errors ({_error_counts(errors)})</h2>"
        + ("".join(sections) if sections else "<p>None.</p>")
        + "<h2>Move by move</h2>"
        + "".join(_move_list(game, analysis) for game in analysis.games)
        + "</body></html>\n"
    )


def write_html_report(
    analysis: MatchAnalysis, path: str | Path, *, title: str | None = None
) -> None:
    """Write :func:`html_report` to ``path`` (UTF-8).

    Raises:
        OSError: if the file cannot be written.
    """
    Path(path).write_text(html_report(analysis, title=title), encoding="utf-8")
