"""Sentences in the game's own vocabulary: one per theme that separates two plays
(``say_*``, each given the play made and its measure, then the best play and its
measure), and the explanation's whole text (:func:`whole_text`).

Points are in the mover's numbering; "you" is the mover.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from backgammon.analysis.explain.points import point_name

__all__ = [
    "plural",
    "say_builders",
    "say_duplication",
    "say_escape",
    "say_gammons",
    "say_points",
    "say_race",
    "say_shots",
    "whole_text",
]


def plural(count: int, word: str) -> str:
    """``"1 blot"``, ``"2 blots"``, ``"no blot"``."""
    if count == 0:
        return f"no {word}"
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _blot_words(blot: Any) -> str:
    kinds = []
    if blot.direct:
        kinds.append(f"{blot.direct} direct")
    if blot.indirect:
        kinds.append(f"{blot.indirect} indirect")
    return f"{blot.point}: {', '.join(kinds)}"


def _shots_clause(play: str, shots: Any) -> str:
    if not shots.blots:
        return f"{play} leaves no blot"
    hit = [blot for blot in shots.blots if blot.shots]
    if not hit:
        points = ", ".join(str(blot.point) for blot in shots.blots)
        return f"{play} leaves {plural(len(shots.blots), 'blot')} no roll hits (on {points})"
    if len(shots.blots) == 1:
        blot = hit[0]
        kinds = []
        if blot.direct:
            kinds.append(plural(blot.direct, "direct shot"))
        if blot.indirect:
            kinds.append(plural(blot.indirect, "indirect shot"))
        return f"{play} leaves {' and '.join(kinds)} at your blot on {blot.point}"
    hit.sort(key=lambda blot: -blot.shots)
    words = "; ".join(_blot_words(blot) for blot in hit)
    return (
        f"{play} leaves {len(shots.blots)} blots hit by {shots.hitting_rolls} of 36 rolls ({words})"
    )


def say_shots(played: str, mine: Any, best: str, other: Any) -> str:
    """The blots each play leaves and the rolls that hit them."""
    return f"{_shots_clause(played, mine)}; {_shots_clause(best, other)}."


def _points_clause(play: str, points: Any) -> str:
    parts = []
    if points.made:
        parts.append("makes " + " and ".join(point_name(p) for p in points.made))
    if points.broken:
        parts.append("gives up " + " and ".join(point_name(p) for p in points.broken))
    if not parts:
        parts.append("makes no new point")
    held = f"{plural(points.home_points, 'home point')}"
    if points.prime >= 3:
        held += f", a {points.prime}-point prime"
    return f"{play} {' and '.join(parts)} ({held})"


def say_points(played: str, mine: Any, best: str, other: Any) -> str:
    """The points each play makes and breaks, and what the mover then holds."""
    return f"{_points_clause(played, mine)}; {_points_clause(best, other)}."


def _builders_clause(play: str, builders: Any) -> str:
    if not builders.targets:
        return f"{play} leaves no builder for an open point"
    first = next((target for target in builders.targets if target.rolls), None)
    slots = [point_name(t.point) for t in builders.targets if t.slotted]
    spare = f"{plural(builders.builders, 'spare builder')} within 6 pips"
    alone = f"leaves a lone checker on {' and '.join(slots)}, with {spare}"
    lead = alone if slots else f"has {spare}"
    making = (
        ""
        if first is None
        else f" ({first.rolls} rolls of 36 would make {point_name(first.point)})"
    )
    return f"{play} {lead}{making}"


def say_builders(played: str, mine: Any, best: str, other: Any) -> str:
    """The builders each play keeps for the open points that matter."""
    return f"{_builders_clause(played, mine)}; {_builders_clause(best, other)}."


def _escape_words(side: Any) -> str:
    if not side.back_checkers:
        return "nothing left to escape"
    return f"{side.rolls} rolls"


def say_escape(played: str, mine: Any, best: str, other: Any) -> str:
    """The escape numbers of the back checkers, the opponent's first."""
    parts = []
    if mine.opponent.rolls != other.opponent.rolls:
        parts.append(
            f"the opponent's back checkers escape with {mine.opponent.rolls} rolls after "
            f"{played}, {other.opponent.rolls} after {best}"
        )
    if mine.player.rolls != other.player.rolls:
        parts.append(
            f"your back checkers would escape with {_escape_words(mine.player)} after "
            f"{played}, {_escape_words(other.player)} after {best}"
        )
    return _capital("; ".join(parts)) + "."


def say_duplication(played: str, mine: Any, best: str, other: Any) -> str:
    """The opponent's good rolls after each play and how many do two jobs."""
    return (
        f"The opponent's good rolls (to hit, escape or make a point): {mine.good_rolls} "
        f"after {played} ({mine.overlap} doing two jobs), {other.good_rolls} after {best} "
        f"({other.overlap} doing two jobs)."
    )


def _race_words(race: Any) -> str:
    if race.lead == 0:
        return f"the race is even ({race.player} pips each)"
    side = "lead" if race.lead > 0 else "trail"
    return f"you {side} the race by {abs(race.lead)} pips ({race.player} to {race.opponent})"


def say_race(played: str, mine: Any, best: str, other: Any) -> str:
    """The race after each play."""
    return f"After {played} {_race_words(mine)}; after {best} {_race_words(other)}."


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def say_gammons(played: str, mine: Any, best: str, other: Any) -> str:
    """The gammons each play wins and loses."""
    return (
        f"{played} wins a gammon {_percent(mine.win_gammon)} and loses one "
        f"{_percent(mine.lose_gammon)} of the time; {best} {_percent(other.win_gammon)} "
        f"and {_percent(other.lose_gammon)}."
    )


def _capital(sentence: str) -> str:
    """The sentence with a capital first letter, unless it starts with a play's
    notation ("bar/23 6/5 wins ...": notation is written as it is)."""
    first = sentence.split(" ", 1)[0]
    if "/" in first or first[:1].isdigit():
        return sentence
    return sentence[:1].upper() + sentence[1:]


def _plans_sentence(played: str, best: str, plans: Any) -> str:
    before, after, after_best = plans.before, plans.after, plans.after_best
    if after[0] != after_best[0]:
        return f"{played} plays {_game(after[0])}, {best} {_game(after_best[0])}."
    if after[1] != after_best[1]:
        return (
            f"Both play {_game(after[0])}; the opponent is left {_game(after[1])} after "
            f"{played}, {_game(after_best[1])} after {best}."
        )
    if after[0] == before[0]:
        return f"Both plays keep your {_game(before[0])[2:].lstrip()}."
    return f"Both plays turn your {_game(before[0])[2:].lstrip()} into {_game(after[0])}."


def _game(plan: str) -> str:
    """``"a holding game"``, ``"an attacking game"``, ``"a back game"``."""
    return {
        "racing": "a racing game",
        "holding": "a holding game",
        "priming": "a priming game",
        "attacking": "an attacking game",
        "back-game": "a back game",
    }[plan]


def whole_text(
    played: str,
    best: str,
    plans: Any,
    themes: Sequence[Any],
    cost: str = "",
    played_better: bool = False,
) -> str:
    """The explanation's text: which play was better (and by how much, ``cost``), the
    plans, then the heaviest themes' sentences: up to two in the better play's favour,
    then the heaviest against it. ``played_better``: the play compared with is the
    worse one (a person asked about two plays of their own choosing)."""
    if played == best:
        return f"{played} is the best play. {_plans_sentence(played, best, plans)}"
    better, worse = (played, best) if played_better else (best, played)
    head = f"{better} is better than {worse}{cost}. {_plans_sentence(played, best, plans)}"
    ranked = sorted(themes, key=lambda theme: -theme.weight)
    side = "played" if played_better else "best"
    pro = [theme.says for theme in ranked if theme.favours == side][:2]
    con = [theme.says for theme in ranked if theme.favours not in (side, "neither")][:1]
    if not pro and not con:
        neutral = [_capital(theme.says) for theme in ranked][:2]
        if neutral:
            return f"{head} {' '.join(neutral)}"
        return (
            f"{head} No theme measured here tells them apart; the difference is in the evaluation."
        )
    body = " ".join(_capital(sentence) for sentence in pro)
    if con:
        other = f"{best}" if played_better else "the play made"
        against = "Against that: " if pro else f"The measures favour {other}: "
        body = f"{body} {against}{_lower(con[0])}".strip()
    return f"{head} {body}"


def _lower(sentence: str) -> str:
    """The sentence with a lower-case first letter, unless it starts with a play."""
    return (
        sentence
        if not sentence[:1].isupper() or sentence[:3] == "Bar"
        else (sentence[:1].lower() + sentence[1:])
    )
