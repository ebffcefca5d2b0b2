"""The chouette session record: written records read back to the same session, and a
malformed or tampered record is refused with the line at fault."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.errors import MatchFileError
from backgammon.formats.chouette import read_chouette, write_chouette
from backgammon.rules.chouette import Chouette
from tests.rules.chouette.sessions import four_player_session, random_session, state

HEADER = """Chouette
Players: Ann, Bob, Cy
Stake: 0.50
Cubes: individual
Consulting: no
Jacoby: yes
"""


def same_session(first: Chouette, second: Chouette) -> bool:
    return (
        first.players == second.players
        and first.rules == second.rules
        and state(first) == state(second)
    )


def test_a_hand_scored_session_reads_back() -> None:
    table, _ = four_player_session()
    text = write_chouette(table)
    assert "Game 2: Ann, Cy, Di, Bob\nAnn: opening 2-6\nCy: play 24/18 13/11\n" in text
    assert "Ann: double Cy\nAnn: double Bob\nCy: drop Cy\nBob: take Bob\n" in text
    assert "Result: Ann -4, Di +1, Bob +2, Cy +1\n" in text
    assert text.endswith("\nScore: Ann -1, Bob -2, Cy +1, Di +2\n")
    again = read_chouette(text)
    assert same_session(again, table)
    assert again.money("Di") == table.money("Di")
    assert write_chouette(again) == text


def test_a_record_by_hand_with_comments_reads() -> None:
    text = HEADER + (
        "; Ann throws 3 against Bob's 1\n"
        "Game 1: Ann, Bob, Cy\n"
        "Ann: opening 3-1\n"
        "Ann: play 8/5 6/5\n"
        "Cy: double Cy\n"
        "Ann: drop Cy\n"
        "\n"
        "Score: Ann -1, Bob +0, Cy +1\n"
    )
    table = read_chouette(text)
    assert table.scores == {"Ann": -1, "Bob": 0, "Cy": 1}
    assert table.rules.jacoby and not table.rules.consulting
    assert str(table.rules.stake) == "0.50"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 400))
def test_random_sessions_round_trip(seed: int, steps: int) -> None:
    table = random_session(seed, steps)
    text = write_chouette(table)
    again = read_chouette(text)
    assert same_session(again, table)
    assert write_chouette(again) == text


def replace_line(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "line", "words"),
    [
        ("Chouette\n", "Chouet\n", 1, "starts with the line 'Chouette'"),
        ("Stake: 0.50", "Stake: lots", 3, "an amount >= 0 such as 0.50"),
        ("Stake: 0.50", "Stake: -1", 3, "an amount >= 0"),
        ("Stake: 0.50", "Stake: Infinity", 3, "an amount >= 0"),
        ("Cubes: individual", "Cubes: many", 4, "'individual' or 'team'"),
        ("Jacoby: yes", "Jacoby: maybe", 6, "'yes' or 'no'"),
        ("Jacoby: yes\n", "Jacoby: yes\nMax cube: 48\n", 7, "power of two of at least 2"),
        ("Jacoby: yes\n", "Jacoby: yes\nMax cube: many\n", 7, "such as 64"),
        ("Players: Ann, Bob, Cy", "Players: Ann, Bob", 2, "at least 3 players"),
        ("Game 1: Ann, Bob, Cy", "Game 1: Bob, Ann, Cy", 7, "the lineup of Game 1"),
        ("Game 1: Ann", "Game 2: Ann", 7, "expected 'Game 1"),
        ("Ann: play 8/5 6/5", "Ann: play 8/4 6/5", 9, "8/4 6/5"),
        ("Ann: play 8/5 6/5", "Bob: play 8/5 6/5", 9, "Bob may not move: Ann is on roll"),
        ("Ann: drop Cy", "Cy: drop Cy", 11, "Ann answers that double"),
        ("Ann: drop Cy", "Ann: fold Cy", 11, "unknown action 'fold'"),
        ("Ann: opening 3-1", "Ann: opening 3-9", 8, "3-9"),
        ("Score: Ann -1, Bob +0, Cy +1", "Score: Ann -2, Bob +0, Cy +2", 12, "the replay gives"),
        ("Score: Ann -1, Bob +0, Cy +1\n", "", 11, "without its 'Score' line"),
        ("Score: Ann -1, Bob +0, Cy +1\n", "Score: Ann -1, Bob +0, Cy +1\nAnn: x\n", 13, "follow"),
    ],
)
def test_malformed_records_are_refused_with_their_line(
    old: str, new: str, line: int, words: str
) -> None:
    good = HEADER + (
        "Game 1: Ann, Bob, Cy\n"
        "Ann: opening 3-1\n"
        "Ann: play 8/5 6/5\n"
        "Cy: double Cy\n"
        "Ann: drop Cy\n"
        "Score: Ann -1, Bob +0, Cy +1\n"
    )
    read_chouette(good)
    with pytest.raises(MatchFileError, match=words) as raised:
        read_chouette(replace_line(good, old, new), path="table.txt")
    assert raised.value.line == line
    assert raised.value.path == "table.txt"


def test_a_tampered_game_result_is_refused() -> None:
    table, _ = four_player_session()
    text = write_chouette(table)
    tampered = replace_line(text, "Result: Ann +8, Bob -8", "Result: Ann +9, Bob -9")
    with pytest.raises(MatchFileError, match="Result: the replay gives 'Ann \\+8, Bob -8"):
        read_chouette(tampered)


SMALL_RECORD = HEADER + (
    "Game 1: Ann, Bob, Cy\nAnn: opening 3-1\nAnn: play 8/5 6/5\nCy: double Cy\n"
    "Ann: drop Cy\nBob: double Bob\nAnn: take Bob\nScore: Ann -1, Bob +0, Cy +1\n"
)


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(max_size=300),
    edits=st.lists(st.tuples(st.integers(0, 400), st.characters()), max_size=6),
)
def test_arbitrary_or_mutated_text_gives_only_match_file_errors(
    text: str, edits: list[tuple[int, str]]
) -> None:
    assert read_chouette(SMALL_RECORD).cube("Bob").value == 2
    mutated = SMALL_RECORD
    for position, char in edits:
        index = position % len(mutated)
        mutated = mutated[:index] + char + mutated[index + 1 :]
    for candidate in (text, HEADER + text, mutated):
        with contextlib.suppress(MatchFileError):
            read_chouette(candidate)
