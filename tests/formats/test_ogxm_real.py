"""OGXM files written by other programs, and ours as another reader sees them.

``tests/data/ogxm/gammonview`` (see its README) holds files HedgeHog's reference writer
made from a real HedgeHog export, and GammonView's OGXM v1 files of real matches whose
``.mat`` text is in ``tests/data/xg/gammonview``. The codec replays every v2 file it
reads and states the board after each ply as an OGID; those boards are the independent
check that we give each ply to the right player and number its points the right way,
in the files we read and in the files we write.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ogxm
import pytest

from backgammon import MatchFileError, Play, Roll
from backgammon.formats import MatchRecord, read_match, read_match_bytes
from backgammon.formats.ogxm import write_ogxm
from backgammon.rules.game import Game
from tests.formats.test_xg import signature

OGXM_DATA = Path(__file__).parents[1] / "data" / "ogxm" / "gammonview"
MAT_DATA = Path(__file__).parents[1] / "data" / "xg" / "gammonview"
REFERENCE_WRITER = ["match", "resign", "blocks", "cube-on-two", "two-blocks"]
V1_FILES = ["XCu3RJ0UvDg_Tldl", "MYdvw1qGuyaRUH__", "UL-CV6F9jMM-E1Pu", "B4_SrGcsKAQmoTyHlgJCbM"]
MARKERS = {24, 25, 26, 30}


def _checkers(game: Game) -> tuple[list[int], list[int]]:
    """White's and Black's checkers on the board (bar included), as OGID numbers them:
    by Black's own points, White's bar 0 and Black's 25."""
    white = game.position_for(0)
    white_points = [25 - p for p in range(1, 26) for _ in range(white.player[p])]
    black_points = [p for p in range(1, 26) for _ in range(white.opponent[p])]
    return sorted(white_points), sorted(black_points)


def _ogid_checkers(ogid: str) -> tuple[list[int], list[int]]:
    white, black = ogid.split(":")[:2]
    return sorted(int(c, 36) for c in white), sorted(int(c, 36) for c in black)


def _boards_agree(record: MatchRecord, document: dict[str, Any]) -> int:
    """Replay ``record`` and check the board after each checker play against the OGID
    the codec gives after the same ply; the number of boards compared."""
    compared = 0
    for game_record, game_document in zip(record.games, document["games"], strict=True):
        after = [
            ply.get("ogid_after")
            for ply in game_document["plies"]
            if 0 <= ply.get("action_id", 30) <= 20
        ]
        game = Game(record.info.variant, rules=record.info.rules)
        plays = 0
        for entry in game_record.entries:
            game.push(entry.action)
            if isinstance(entry.action, Play):
                if after[plays] is not None:
                    assert _checkers(game) == _ogid_checkers(after[plays]), (
                        game_record.number,
                        plays,
                    )
                    compared += 1
                plays += 1
        assert plays == len(after)
    return compared


@pytest.mark.parametrize("name", REFERENCE_WRITER)
def test_files_of_the_reference_writer_replay_to_the_codecs_own_boards(name: str) -> None:
    data = (OGXM_DATA / f"{name}.ogxm").read_bytes()
    record = read_match(OGXM_DATA / f"{name}.ogxm")
    document = ogxm.binary_to_json(data)
    assert record.info.players == (document["player_white"], document["player_black"])
    assert _boards_agree(record, document) > 5
    for game_record, game_document in zip(record.games, document["games"], strict=True):
        outcome = game_record.outcome
        assert outcome is not None
        assert (outcome.winner, outcome.points) == (
            game_document["winner"],
            game_document["points_won"],
        )


def test_a_resignation_is_made_by_the_plys_own_player() -> None:
    """The reference writer's resigned game: Black (color 0) resigns after White's
    play, and White (winner 0) wins."""
    record = read_match(OGXM_DATA / "resign.ogxm")
    resign = [e for e in record.games[0].entries if type(e.action).__name__ == "Resign"]
    assert [e.player for e in resign] == [1]
    assert record.games[0].outcome is not None and record.games[0].outcome.winner == 0


def test_a_set_up_start_is_a_clear_error() -> None:
    with pytest.raises(MatchFileError, match="game 2 starts from a set-up position"):
        read_match(OGXM_DATA / "set-up.ogxm")


def _dice_in_order(record: MatchRecord, swap: bool) -> list[tuple[object, ...]]:
    """The signature with each roll's dice high first and, with ``swap``, the players
    the other way round (OGXM's White is the first name alphabetically, a ``.mat``'s
    player 1 is whoever the server listed first)."""
    games = []
    for before, after, actions in signature(record):
        assert isinstance(actions, tuple)
        kept = []
        for player, action in actions:
            if isinstance(action, Roll):
                action = Roll(max(action.first, action.second), min(action.first, action.second))
            elif type(action).__name__ == "OpeningRoll":
                continue  # its dice are kept per player, so their order follows the names
            kept.append((1 - player if swap else player, action))
        games.append((before[::-1] if swap else before, after[::-1] if swap else after, kept))
    return games


@pytest.mark.parametrize("stem", V1_FILES)
def test_gammonviews_v1_files_hold_the_matches_their_mat_holds(stem: str) -> None:
    from_ogxm = read_match(OGXM_DATA / f"{stem}.gvab")
    from_mat = read_match(MAT_DATA / f"{stem}.mat")
    swap = from_ogxm.info.players != from_mat.info.players
    assert from_ogxm.info.players == (
        from_mat.info.players[::-1] if swap else from_mat.info.players
    )
    assert _dice_in_order(from_ogxm, swap) == _dice_in_order(from_mat, False)


@pytest.mark.parametrize("stem", V1_FILES[:3])
def test_the_codec_replays_our_files_to_our_boards(stem: str) -> None:
    record = read_match(MAT_DATA / f"{stem}.mat")
    document = ogxm.binary_to_json(write_ogxm(record))
    assert document["replay_complete"] is True
    assert document["player_white"] == record.info.players[0]
    assert _boards_agree(record, document) > 50


def _plies(document: dict[str, Any]) -> list[list[tuple[object, ...]]]:
    """Each game's plies as (action, color, where each checker lands), markers left out;
    a checker borne off lands on 0 however its step is written (the reference writer
    gives a bear-off its die, GammonView the distance)."""
    games = []
    for game in document["games"]:
        plies = []
        for ply in game["plies"]:
            if ply.get("action_id", 30) in MARKERS:
                continue
            color = ply.get("color")
            lands = sorted(
                (m["from"], max((m["from"] if color == 0 else 25 - m["from"]) - m["pips"], 0))
                for m in ply.get("moves", [])
            )
            plies.append((ply["action_id"], color, tuple(lands)))
        games.append(plies)
    return games


def test_our_file_of_a_match_has_the_plies_gammonviews_file_of_it_has() -> None:
    stem = "XCu3RJ0UvDg_Tldl"
    ours = ogxm.binary_to_json(write_ogxm(read_match(MAT_DATA / f"{stem}.mat")))
    theirs = ogxm.binary_to_json((OGXM_DATA / f"{stem}.gvab").read_bytes())
    assert (ours["player_white"], ours["player_black"]) == (
        theirs["player_white"],
        theirs["player_black"],
    )
    assert _plies(ours) == _plies(theirs)
    assert [g["winner"] for g in ours["games"]] == [g["winner"] for g in theirs["games"]]


def test_a_file_with_the_colours_swapped_is_a_clear_error() -> None:
    """As this program wrote them before 2026-11-27: every ply's colour and point
    numbering the other way round."""
    document = ogxm.binary_to_json(write_ogxm(read_match(MAT_DATA / "XCu3RJ0UvDg_Tldl.mat")))
    for game in document["games"]:
        for ply in game["plies"]:
            ply.pop("ogid_before", None)
            ply.pop("ogid_after", None)
            ply["color"] = 1 - ply["color"]
            for move in ply.get("moves", []):
                move["from"] = 25 - move["from"]
    swapped = bytes(ogxm.json_to_binary(document))
    with pytest.raises(MatchFileError, match="game 1: the file gives the game to Black, but White"):
        read_match_bytes(swapped, path="old.ogxm")
