"""Tests for backgammon.server.matches.fair_dice: verifiable dice, version 1."""

from __future__ import annotations

import hashlib
import hmac
import itertools
from collections import Counter

import pytest

from backgammon.rules.dice import DiceSource, Roll
from backgammon.server.matches import fair_dice
from backgammon.server.matches.fair_dice import (
    DICE_VERSION,
    DiceFailure,
    FairDice,
    check_nonce,
    commitment,
    derive_throw,
    new_seed,
    verify_throws,
)

SEED = bytes(range(32))
OTHER_SEED = bytes(range(1, 33))
NO_NONCES = ("", "")


def reference_digest(seed: bytes, nonces: tuple[str, str], index: int, counter: int) -> bytes:
    """The construction's HMAC block, written out from the specification."""
    message = f"backgammon-dice-v1:{nonces[0]}:{nonces[1]}:{index}:{counter}"
    return hmac.new(seed, message.encode("ascii"), hashlib.sha256).digest()


def reference_throw(seed: bytes, nonces: tuple[str, str], index: int) -> tuple[int, int]:
    """A straightforward re-implementation of the specification, for comparison."""
    accepted = [
        byte
        for counter in range(4)
        for byte in reference_digest(seed, nonces, index, counter)
        if byte < 252
    ]
    return accepted[0] % 6 + 1, accepted[1] % 6 + 1


# -- known answers -------------------------------------------------------------------------


def test_version_is_one() -> None:
    assert DICE_VERSION == 1


def test_commitment_of_the_example_seed() -> None:
    assert commitment(SEED) == ("630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd")
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


@pytest.mark.parametrize(
    ("nonces", "expected"),
    [
        (NO_NONCES, [(6, 4), (4, 6), (1, 5), (1, 6), (4, 5), (2, 6), (6, 2), (4, 4)]),
        (("alice", "bob"), [(4, 1), (4, 3), (1, 2), (2, 5)]),
    ],
)
def test_known_answers(nonces: tuple[str, str], expected: list[tuple[int, int]]) -> None:
    # Pinned values: the construction is a published format and must never drift.
    assert [derive_throw(SEED, nonces, index) for index in range(len(expected))] == expected


@pytest.mark.parametrize("nonces", [NO_NONCES, ("alice", "bob"), ("x" * 64, "A-b_9")])
def test_matches_a_reimplementation_of_the_specification(nonces: tuple[str, str]) -> None:
    for index in range(300):
        assert derive_throw(SEED, nonces, index) == reference_throw(SEED, nonces, index)


def test_same_inputs_give_the_same_dice() -> None:
    for index in (0, 1, 17, 10**9):
        assert derive_throw(SEED, ("a", "b"), index) == derive_throw(SEED, ("a", "b"), index)
    seed = new_seed()
    assert FairDice(seed).roll() == FairDice(seed).roll()


def _sequence(seed: bytes, nonces: tuple[str, str], count: int = 50) -> list[tuple[int, int]]:
    return [derive_throw(seed, nonces, index) for index in range(count)]


def test_changing_a_nonce_or_the_seed_changes_the_sequence() -> None:
    base = _sequence(SEED, ("alice", "bob"))
    assert _sequence(SEED, ("alice", "bob")) == base
    assert _sequence(SEED, ("alicf", "bob")) != base
    assert _sequence(SEED, ("alice", "boc")) != base
    assert _sequence(SEED, ("bob", "alice")) != base  # the order of the players matters
    assert _sequence(SEED, NO_NONCES) != base
    assert _sequence(OTHER_SEED, ("alice", "bob")) != base


# -- distribution --------------------------------------------------------------------------


def test_distribution_is_uniform() -> None:
    # 60,000 throws from a fixed seed: deterministic, so the bounds cannot flake. The bounds
    # are the chi-square critical values at p = 0.001 (35 and 5 degrees of freedom).
    count = 60_000
    dice = FairDice(SEED, ("chi", "square"))
    pairs = Counter(tuple(dice.roll()) for _ in range(count))
    assert set(pairs) == set(itertools.product(range(1, 7), repeat=2))
    expected = count / 36
    chi_square = sum((observed - expected) ** 2 / expected for observed in pairs.values())
    assert chi_square < 66.62

    for position in (0, 1):
        faces = Counter[int]()
        for pair, observed in pairs.items():
            faces[pair[position]] += observed
        expected_face = count / 6
        chi_faces = sum((n - expected_face) ** 2 / expected_face for n in faces.values())
        assert chi_faces < 20.52


# -- rejection sampling --------------------------------------------------------------------


def test_rejected_bytes_are_skipped() -> None:
    # Search for a throw whose digest has a byte >= 252 before its second accepted byte.
    for index in itertools.count():
        digest = reference_digest(SEED, NO_NONCES, index, 0)
        accepted_positions = [i for i, byte in enumerate(digest) if byte < 252]
        second = accepted_positions[1]
        if any(byte >= 252 for byte in digest[:second]):
            break
    accepted = [byte for byte in digest if byte < 252]
    expected = (accepted[0] % 6 + 1, accepted[1] % 6 + 1)
    assert derive_throw(SEED, NO_NONCES, index) == expected


def test_a_short_digest_continues_with_the_next_counter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No real digest is known with fewer than two accepted bytes (the chance is about
    # 2**-180), so the counter path is tested with forged digests.
    calls: list[int] = []

    def forged(seed: bytes, nonce0: str, nonce1: str, index: int, counter: int) -> bytes:
        calls.append(counter)
        if counter == 0:
            return bytes([255] * 31 + [3])  # one accepted byte: the first die is 3 % 6 + 1
        if counter == 1:
            return bytes([252] * 32)  # nothing accepted
        return bytes([253, 10, 0])  # the second die is 10 % 6 + 1

    monkeypatch.setattr(fair_dice, "_digest", forged)
    assert derive_throw(SEED, NO_NONCES, 0) == (4, 5)
    assert calls == [0, 1, 2]


# -- FairDice ------------------------------------------------------------------------------


def test_fair_dice_is_a_dice_source() -> None:
    dice = FairDice(SEED)
    assert isinstance(dice, DiceSource)
    assert isinstance(dice.roll(), Roll)


def test_fair_dice_advances_and_resumes() -> None:
    dice = FairDice(SEED, ("alice", "bob"))
    assert dice.next_index == 0
    rolls = [dice.roll() for _ in range(10)]
    assert dice.next_index == 10
    assert [tuple(roll) for roll in rolls] == _sequence(SEED, ("alice", "bob"), 10)

    resumed = FairDice(SEED, ("alice", "bob"), next_index=6)
    assert [resumed.roll() for _ in range(4)] == rolls[6:]
    assert resumed.next_index == 10


def test_fair_dice_properties_and_repr_keep_the_seed_secret() -> None:
    dice = FairDice(SEED, ("alice", "bob"))
    assert dice.commitment == commitment(SEED)
    assert dice.nonces == ("alice", "bob")
    assert SEED.hex() not in repr(dice)
    assert repr(SEED) not in repr(dice)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seed": b"short"},
        {"seed": "00" * 32},
        {"seed": SEED, "nonces": ("ok", "not ok")},
        {"seed": SEED, "nonces": ("only one",)},
        {"seed": SEED, "next_index": -1},
    ],
)
def test_fair_dice_rejects_bad_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        FairDice(**kwargs)  # type: ignore[arg-type]


def test_new_seeds_are_32_fresh_bytes() -> None:
    first, second = new_seed(), new_seed()
    assert len(first) == len(second) == 32
    assert first != second


# -- nonces --------------------------------------------------------------------------------


@pytest.mark.parametrize("nonce", ["", "a", "Alice_01-x", "z" * 64, "-_-"])
def test_valid_nonces_are_returned(nonce: str) -> None:
    assert check_nonce(nonce) == nonce


@pytest.mark.parametrize(
    "nonce", ["z" * 65, "a:b", "a b", "é", "tab\t", "line\n", "a/b", "🎲", "a.b"]
)
def test_invalid_nonces_are_refused_by_name(nonce: str) -> None:
    with pytest.raises(ValueError) as excinfo:
        check_nonce(nonce)
    assert repr(nonce) in str(excinfo.value)
    assert "64 characters" in str(excinfo.value)
    with pytest.raises(ValueError, match="nonce"):
        derive_throw(SEED, ("", nonce), 0)


@pytest.mark.parametrize("nonce", [None, 12, b"abc"])
def test_nonces_must_be_text(nonce: object) -> None:
    with pytest.raises(ValueError, match="nonce"):
        check_nonce(nonce)  # type: ignore[arg-type]


def test_derive_throw_rejects_a_negative_index() -> None:
    with pytest.raises(ValueError, match="-1"):
        derive_throw(SEED, NO_NONCES, -1)


# -- verification --------------------------------------------------------------------------


def _record(count: int = 40) -> list[tuple[int, int]]:
    return _sequence(SEED, ("alice", "bob"), count)


def test_a_true_record_verifies() -> None:
    record = _record()
    assert verify_throws(SEED.hex(), commitment(SEED), ("alice", "bob"), record) is None
    upper = verify_throws(SEED.hex().upper(), commitment(SEED).upper(), ("alice", "bob"), record)
    assert upper is None
    assert verify_throws(SEED.hex(), commitment(SEED), ("alice", "bob"), []) is None
    as_lists = [list(throw) for throw in record]
    assert verify_throws(SEED.hex(), commitment(SEED), ("alice", "bob"), as_lists) is None  # type: ignore[arg-type]


def test_a_tampered_throw_is_found_at_its_index() -> None:
    record = _record()
    true_throw = record[23]
    forged = (true_throw[0] % 6 + 1, true_throw[1])
    record[23] = forged
    record[30] = (6, 6) if record[30] != (6, 6) else (1, 1)  # only the first is reported
    failure = verify_throws(SEED.hex(), commitment(SEED), ("alice", "bob"), record)
    assert failure == DiceFailure(23, true_throw, forged, failure.reason if failure else "")
    assert failure is not None
    assert "23" in failure.reason
    assert str(failure) == failure.reason


def test_swapped_dice_are_a_different_throw() -> None:
    record = _record()
    index = next(i for i, (a, b) in enumerate(record) if a != b)
    record[index] = (record[index][1], record[index][0])
    failure = verify_throws(SEED.hex(), commitment(SEED), ("alice", "bob"), record)
    assert failure is not None
    assert failure.index == index


def test_wrong_nonces_fail_verification() -> None:
    failure = verify_throws(SEED.hex(), commitment(SEED), ("alice", "eve"), _record())
    assert failure is not None
    assert failure.index >= 0


def test_a_wrong_seed_fails_against_the_commitment() -> None:
    record = _record()
    failure = verify_throws(OTHER_SEED.hex(), commitment(SEED), ("alice", "bob"), record)
    assert failure is not None
    assert failure.index == -1
    assert commitment(OTHER_SEED) in failure.reason
    assert commitment(SEED) in failure.reason
    # A server that reveals another seed with its matching commitment still cannot make the
    # recorded throws verify.
    failure = verify_throws(OTHER_SEED.hex(), commitment(OTHER_SEED), ("alice", "bob"), record)
    assert failure is not None
    assert failure.index >= 0


@pytest.mark.parametrize(
    "seed_hex", ["", "zz" * 32, SEED.hex()[:-2], SEED.hex() + "00", " " + SEED.hex()[1:]]
)
def test_a_malformed_seed_is_an_error(seed_hex: str) -> None:
    with pytest.raises(ValueError, match="hex digits"):
        verify_throws(seed_hex, commitment(SEED), NO_NONCES, [])


def test_failure_text_without_a_reason() -> None:
    assert "throw 3" in str(DiceFailure(3, (1, 2), (2, 1)))
