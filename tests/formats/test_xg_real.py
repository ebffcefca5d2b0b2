"""Match files saved by eXtreme Gammon itself, and the Jellyfish ``.mat`` text of the
same matches written by the server they were played on (real, anonymised matches from
GammonView's sample corpus; ``tests/data/xg/README.md`` says where they come from).

Each XG file must replay through the rules to the very match its ``.mat`` twin holds,
end on the score XG recorded, and carry XG's analysis with every candidate a legal play.
The twins are files another program wrote: their quirks (an empty numbered line after
a drop, a match's last game scored at the points it needed) must read, and a real
illegal play must be a located error in both formats.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from backgammon import MatchFileError, Play, Roll, XgFileError
from backgammon.formats import MatchRecord, XgCheckerAnalysis, read_match
from backgammon.formats.xg import GAME_FILE
from backgammon.formats.xg_analysis import XG_KEY
from backgammon.formats.xg_archive import open_container
from backgammon.formats.xg_records import GameFooter, MatchFooter, MoveRecord, decode_records
from tests.formats.test_xg import signature, xg_analyses

REAL = Path(__file__).parents[1] / "data" / "xg" / "gammonview"
READABLE = ["B4_SrGcsKAQmoTyHlgJCbM", "XCu3RJ0UvDg_Tldl", "baR-U643iUDpvzTC", "MYdvw1qGuyaRUH__"]
CUBE_ACTIONS = ("no double", "double, take", "double, pass", "too good")
ILLEGAL_PLAY = "5nqfGw9bWG3deTaU"  # 14/10 13/12 off a 3-1, in game 1


def _dice_in_order(record: MatchRecord) -> list[tuple[object, ...]]:
    """The signature with each roll's dice high first (``.mat`` keeps the order rolled,
    XG the order played)."""
    games = []
    for before, after, actions in signature(record):
        assert isinstance(actions, tuple)
        ordered = tuple(
            (player, Roll(max(a.first, a.second), min(a.first, a.second)))
            if isinstance(a, Roll)
            else (player, a)
            for player, a in actions
        )
        games.append((before, after, ordered))
    return games


def _xg_records(stem: str) -> list[object]:
    container = open_container((REAL / f"{stem}.xg").read_bytes())
    return list(decode_records(container.files[GAME_FILE]))


@pytest.mark.parametrize("stem", READABLE)
def test_a_real_xg_file_replays_to_the_match_its_server_wrote(stem: str) -> None:
    from_xg = read_match(REAL / f"{stem}.xg")
    from_mat = read_match(REAL / f"{stem}.mat")
    assert from_xg.info.players == from_mat.info.players
    assert from_xg.info.length == from_mat.info.length
    assert _dice_in_order(from_xg) == _dice_in_order(from_mat)
    moves = sum(isinstance(r, MoveRecord) for r in _xg_records(stem))
    plays = sum(isinstance(e.action, Play) for game in from_xg.games for e in game.entries)
    assert plays == moves > 50


@pytest.mark.parametrize("stem", READABLE)
def test_a_real_xg_file_ends_on_the_score_xg_recorded(stem: str) -> None:
    record = read_match(REAL / f"{stem}.xg")
    records = _xg_records(stem)
    last_game = [r for r in records if isinstance(r, GameFooter)][-1]
    length = record.info.length or 1 << 30
    assert last_game.score == tuple(min(points, length) for points in record.score)
    footers = [r for r in records if isinstance(r, MatchFooter)]
    assert [f.score for f in footers] == ([last_game.score] if record.info.length else [])


@pytest.mark.parametrize("stem", READABLE)
def test_xgs_own_analysis_names_legal_plays(stem: str) -> None:
    record = read_match(REAL / f"{stem}.xg")
    checked = cubes = 0
    for game, entry, analysis in xg_analyses(record):
        if isinstance(analysis, XgCheckerAnalysis):
            legal = {play.position for play in game.legal_plays()} or {game.position}
            assert all(option.play.position in legal for option in analysis.options)
            best = analysis.best  # XG lists its deepest evaluations first, best first
            assert best is not None
            same_level = [o.equity for o in analysis.options if o.level == best.level]
            assert best.equity == max(same_level)
            if analysis.played is not None:
                assert analysis.options[analysis.played].play.position == entry.action.position
            checked += 1
        else:
            assert analysis.best_action in CUBE_ACTIONS
            cubes += 1
    assert checked > 20 and cubes > 10


def test_a_real_file_keeps_xgs_rollouts_and_roller_levels() -> None:
    record = read_match(REAL / "B4_SrGcsKAQmoTyHlgJCbM.xg")
    levels = set()
    rollouts = 0
    for game in record.games:
        for entry in game.entries:
            analysis = entry.annotations.get(XG_KEY)
            if isinstance(analysis, XgCheckerAnalysis):
                levels.update(option.level for option in analysis.options)
                rollouts += sum(option.rollout is not None for option in analysis.options)
    assert {"XG Roller", "XG Roller+", "XG Roller++", "rollout", "opening book"} <= levels
    assert rollouts > 0


def test_a_real_illegal_play_is_a_located_error_in_both_formats() -> None:
    with pytest.raises(XgFileError, match=r"game 1, move 19: 14/10 13/12 with 3-1") as caught:
        read_match(REAL / f"{ILLEGAL_PLAY}.xg")
    assert caught.value.record == 38
    with pytest.raises(MatchFileError, match=r"mat:25:10: game 1: '14/10 13/12' is not a legal"):
        read_match(REAL / f"{ILLEGAL_PLAY}.mat")


@pytest.mark.parametrize(
    ("stem", "where"),
    [
        ("hQ8sVn2LbTdF4wRm", r"mat:71:11: .*'6/8' does not move toward home"),
        ("rK7pXm4TqLb9NzWd", r"mat:232:47: game 12: '13/3 7/4' is not a legal play of 3-3"),
    ],
)
def test_the_servers_other_broken_matches_are_located_errors(stem: str, where: str) -> None:
    """Two more illegal plays the server let through."""
    with pytest.raises(MatchFileError, match=where):
        read_match(REAL / f"{stem}.mat")


def test_every_other_mat_file_of_the_server_reads() -> None:
    broken = {ILLEGAL_PLAY, "hQ8sVn2LbTdF4wRm", "rK7pXm4TqLb9NzWd"}
    read = [read_match(p) for p in sorted(REAL.glob("*.mat")) if p.stem not in broken]
    assert len(read) == 10
    assert all(record.games and record.games[-1].outcome is not None for record in read)


def test_the_servers_game_resigned_before_its_opening_roll_reads() -> None:
    """Its last game is an empty numbered line and 'Wins 1 points and the match' in
    Fox's column: Harbor8 resigned before anyone rolled (refused before, as 'expected
    a roll': the rules had no one on roll to resign)."""
    record = read_match(REAL / "uwvEbd63UvdX7SDin5o_Iw.mat")
    last = record.games[-1]
    assert [entry.action.player for entry in last.entries[:1]] == [1]
    assert last.outcome is not None and last.outcome.winner == 0 and last.outcome.points == 1
    assert last.score_after == (7, 6)
