"""Verifiable ("provably fair") dice for online matches, version 1.

The server cannot choose the dice, and after the match either player can check every throw
with nothing but SHA-256 and HMAC. The construction, exactly:

1. Before the match the server draws a secret ``seed`` of 32 random bytes
   (:func:`new_seed`) and publishes its ``commitment``, ``sha256(seed).hexdigest()``
   (:func:`commitment`).
2. Each player may add a nonce: text of 0 to 64 characters from ``A-Z a-z 0-9 _ -``
   (:func:`check_nonce`); a player who gives none has the empty string, and a bot always
   does. A player sends a nonce only after the commitment is published (the server hands
   out the commitment first, docs/fair-dice.md), so the server cannot pick a seed to suit it.
3. Throw number ``index`` counts every throw of two dice in the match from 0: opening throws
   and re-thrown opening ties included. For ``counter`` = 0, 1, 2, ... the server computes::

       digest = HMAC-SHA256(key=seed,
                            message=f"backgammon-dice-v1:{nonce0}:{nonce1}:{index}:{counter}")

   (the message in ASCII, ``nonce0`` player 0's nonce, ``nonce1`` player 1's) and reads the
   digest's bytes in order. A byte of 252 or more is skipped (252 = 6 × 42, so every face
   keeps exactly 42 of the accepted values and is equally likely); an accepted byte ``b`` is
   the die ``b % 6 + 1``. The first accepted byte is the first die, the second accepted byte
   the second die; a throw of three dice (tabula) takes the third accepted byte as its third
   die (so its first two dice are the two-dice throw of the same index). If a digest runs
   out first, the next counter's digest continues (dice
   already accepted are kept). In practice counter 0 always suffices.
4. After the match the server reveals ``seed.hex()``. Anyone can check that it hashes to the
   commitment and that it gives every recorded throw (:func:`verify_throws`).

>>> seed = bytes(range(32))
>>> commitment(seed)
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> [derive_throw(seed, ("", ""), index) for index in range(4)]
[(6, 4), (4, 6), (1, 5), (1, 6)]
>>> dice = FairDice(seed, ("alice", "bob"))
>>> throws = [tuple(dice.roll()) for _ in range(3)]
>>> dice.next_index
3
>>> verify_throws(seed.hex(), dice.commitment, ("alice", "bob"), throws) is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from backgammon.rules.dice import Roll

__all__ = [
    "DICE_VERSION",
    "SEED_BYTES",
    "DiceFailure",
    "FairDice",
    "check_nonce",
    "chouette_nonce",
    "commitment",
    "derive_throw",
    "derive_throw_of",
    "new_seed",
    "verify_record",
    "verify_throws",
]

DICE_VERSION = 1
"""The version of the construction described above; a record states it so a later
construction cannot be confused with this one."""

SEED_BYTES = 32
"""The length of a seed in bytes."""

_DOMAIN = f"backgammon-dice-v{DICE_VERSION}"
_CHOUETTE_DOMAIN = f"backgammon-chouette-nonces-v{DICE_VERSION}"
CHOUETTE_RECORD = "backgammon-chouette-dice-record"
"""The ``format`` of a chouette session's dice record (see :func:`verify_record`)."""
_REJECT_FROM = 252  # 6 * 42: bytes 252..255 would favour faces 1..4, so they are skipped
_NONCE_RULE = "0 to 64 characters from A-Z, a-z, 0-9, '_' and '-'"
_NONCE_PATTERN = re.compile(r"[A-Za-z0-9_-]{0,64}")
_SEED_HEX_PATTERN = re.compile(r"[0-9a-fA-F]{64}")


def new_seed() -> bytes:
    """Draw a fresh secret seed for one match: 32 bytes from the operating system's
    cryptographic generator. Keep it secret until the match is over."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to ``seed``: its SHA-256 digest in lower-case hex.

    Publish it before the first throw; it binds the server to the seed without revealing it.
    """
    return hashlib.sha256(seed).hexdigest()


def check_nonce(nonce: str) -> str:
    """Return ``nonce`` if it is a valid player nonce: 0 to 64 characters from
    ``A-Z a-z 0-9 _ -``.

    Raises:
        ValueError: quoting the bad nonce and the rule.
    """
    if not isinstance(nonce, str) or _NONCE_PATTERN.fullmatch(nonce) is None:
        raise ValueError(f"invalid dice nonce {nonce!r}: expected {_NONCE_RULE}")
    return nonce


def chouette_nonce(nonces: Sequence[str]) -> str:
    """The one nonce a chouette's throws use (as player 0's, player 1's being empty):
    ``sha256("backgammon-chouette-nonces-v1:" + ":".join(nonces))`` in hex, ``nonces``
    being the seats' nonces in seat order (the empty string for a seat that gave none).

    >>> chouette_nonce(["ann", "", "cy"])[:16]
    'b24fbb8c3959973e'

    Raises:
        ValueError: if a nonce is invalid.
    """
    checked = [check_nonce(nonce) for nonce in nonces]
    text = ":".join([_CHOUETTE_DOMAIN, *checked])
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _check_nonces(nonces: tuple[str, str]) -> tuple[str, str]:
    """Both players' nonces, checked; player 0's first."""
    try:
        nonce0, nonce1 = nonces
    except (TypeError, ValueError):
        raise ValueError(
            f"expected two dice nonces (player 0's, player 1's), got {nonces!r}"
        ) from None
    return check_nonce(nonce0), check_nonce(nonce1)


def _check_seed(seed: bytes) -> bytes:
    if not isinstance(seed, bytes | bytearray) or len(seed) != SEED_BYTES:
        raise ValueError(f"a dice seed is {SEED_BYTES} bytes, got {seed!r}")
    return bytes(seed)


def _check_index(index: int) -> int:
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise ValueError(f"a throw index is an int >= 0, got {index!r}")
    return index


def _digest(seed: bytes, nonce0: str, nonce1: str, index: int, counter: int) -> bytes:
    """One HMAC-SHA256 block of the construction."""
    message = f"{_DOMAIN}:{nonce0}:{nonce1}:{index}:{counter}".encode("ascii")
    return hmac.new(seed, message, hashlib.sha256).digest()


def _throw(seed: bytes, nonce0: str, nonce1: str, index: int) -> tuple[int, int]:
    """:func:`derive_throw` on arguments already checked."""
    first, second = _dice(seed, nonce0, nonce1, index, 2)
    return first, second


def _dice(seed: bytes, nonce0: str, nonce1: str, index: int, count: int) -> tuple[int, ...]:
    """The first ``count`` dice (2 or 3) of throw ``index``, on arguments already checked."""
    dice: list[int] = []
    counter = 0
    while True:
        for byte in _digest(seed, nonce0, nonce1, index, counter):
            if byte < _REJECT_FROM:
                dice.append(byte % 6 + 1)
                if len(dice) == count:
                    return tuple(dice)
        counter += 1


def derive_throw(seed: bytes, nonces: tuple[str, str], index: int) -> tuple[int, int]:
    """The two dice of throw number ``index`` (from 0) for ``seed`` and the players'
    ``nonces`` (player 0's, player 1's), by the construction in the module docstring.

    Raises:
        ValueError: if the seed is not 32 bytes, a nonce is invalid or ``index`` is negative.
    """
    nonce0, nonce1 = _check_nonces(nonces)
    return _throw(_check_seed(seed), nonce0, nonce1, _check_index(index))


def derive_throw_of(
    seed: bytes, nonces: tuple[str, str], index: int, dice: int = 2
) -> tuple[int, ...]:
    """The ``dice`` dice (2, or 3 for tabula) of throw number ``index``: for two dice
    :func:`derive_throw`; for three its two dice and the third accepted byte's die.

    Raises:
        ValueError: as :func:`derive_throw`, or if ``dice`` is not 2 or 3.
    """
    if dice not in (2, 3):
        raise ValueError(f"a throw has 2 or 3 dice, got {dice!r}")
    nonce0, nonce1 = _check_nonces(nonces)
    return _dice(_check_seed(seed), nonce0, nonce1, _check_index(index), dice)


class FairDice:
    """A :class:`~backgammon.rules.dice.DiceSource` whose throws anyone can verify after the
    match, once the seed is revealed.

    Build it from the match's secret seed and the players' nonces; ``next_index`` resumes a
    match after a restart (pass the number of throws already made).

    >>> dice = FairDice(bytes(range(32)))
    >>> dice.roll(), dice.next_index
    (Roll(first=6, second=4), 1)
    >>> FairDice(bytes(range(32)), next_index=1).roll()
    Roll(first=4, second=6)

    Raises:
        ValueError: if the seed is not 32 bytes, a nonce is invalid or ``next_index`` is
            negative.
    """

    __slots__ = ("_next_index", "_nonces", "_seed")

    def __init__(
        self, seed: bytes, nonces: tuple[str, str] = ("", ""), next_index: int = 0
    ) -> None:
        self._seed = _check_seed(seed)
        self._nonces = _check_nonces(nonces)
        self._next_index = _check_index(next_index)

    @property
    def next_index(self) -> int:
        """The index of the next throw: how many throws have been made so far."""
        return self._next_index

    @property
    def nonces(self) -> tuple[str, str]:
        """The players' nonces: player 0's, player 1's."""
        return self._nonces

    @property
    def commitment(self) -> str:
        """The public commitment to the seed (see :func:`commitment`)."""
        return commitment(self._seed)

    def roll(self) -> Roll:
        """Throw two dice: throw number :attr:`next_index`, which then advances."""
        first, second = _throw(self._seed, *self._nonces, self._next_index)
        self._next_index += 1
        return Roll(first, second)

    def __repr__(self) -> str:
        # Never show the seed: it is secret until the match ends.
        return (
            f"FairDice(commitment={self.commitment!r}, nonces={self._nonces!r}, "
            f"next_index={self._next_index})"
        )


@dataclass(frozen=True, slots=True)
class DiceFailure:
    """Why a match's dice do not verify (see :func:`verify_throws`).

    ``index`` is the first throw that differs, with ``expected`` (what the seed gives) and
    ``recorded`` (what the record says). When the seed itself is wrong, ``index`` is -1 and
    ``expected`` and ``recorded`` are ``(0, 0)``. ``reason`` always says what failed in words.
    """

    index: int
    expected: tuple[int, ...]
    recorded: tuple[int, ...]
    reason: str = ""

    def __str__(self) -> str:
        if self.reason:
            return self.reason
        return (
            f"throw {self.index}: the seed gives {self.expected}, the record says {self.recorded}"
        )


def verify_throws(
    seed_hex: str,
    commitment_hex: str,
    nonces: tuple[str, str],
    throws: Sequence[tuple[int, ...]],
) -> DiceFailure | None:
    """Check a finished match's dice: that the revealed seed matches the commitment
    published at the start, and that it gives every recorded throw, in order from index 0.

    Returns ``None`` when everything verifies, else the first :class:`DiceFailure`.

    Raises:
        ValueError: if ``seed_hex`` is not 64 hex digits or a nonce is invalid.
    """
    if not isinstance(seed_hex, str) or _SEED_HEX_PATTERN.fullmatch(seed_hex) is None:
        raise ValueError(f"invalid dice seed {seed_hex!r}: expected {2 * SEED_BYTES} hex digits")
    seed = bytes.fromhex(seed_hex)
    nonce0, nonce1 = _check_nonces(nonces)
    actual = commitment(seed)
    if not hmac.compare_digest(actual, str(commitment_hex).strip().lower()):
        return DiceFailure(
            index=-1,
            expected=(0, 0),
            recorded=(0, 0),
            reason=(
                f"the seed hashes to {actual}, not to the published commitment {commitment_hex!r}"
            ),
        )
    for index, throw in enumerate(throws):
        recorded = tuple(throw)  # a record may hold lists
        expected = _dice(seed, nonce0, nonce1, index, 3 if len(recorded) == 3 else 2)
        if recorded != expected:
            return DiceFailure(
                index=index,
                expected=expected,
                recorded=recorded,
                reason=f"throw {index}: the seed gives {expected}, the record says {recorded}",
            )
    return None


def _record_nonces(record: Mapping[str, Any]) -> tuple[str, str]:
    """The two nonces a record's throws use: a match's ``nonces``; a chouette's
    :func:`chouette_nonce` of its seats' nonces and the empty string."""
    if record.get("format") == CHOUETTE_RECORD:
        seats = record.get("seats")
        if not isinstance(seats, list | tuple):
            raise ValueError(f"seats: a list of names and nonces expected, got {seats!r}")
        try:
            return chouette_nonce([seat["nonce"] for seat in seats]), ""
        except (KeyError, TypeError):
            raise ValueError(f"seats: each a name and a nonce, got {seats!r}") from None
    nonces = record.get("nonces")
    if not isinstance(nonces, list | tuple) or len(nonces) != 2:
        raise ValueError(f"nonces: two strings expected, got {nonces!r}")
    return nonces[0], nonces[1]


def verify_record(record: Mapping[str, Any]) -> DiceFailure | None:
    """Check a dice record as the server exports it: a match's
    (``GET /api/matches/ID/record.dice``: ``format``, ``version``, ``commitment``,
    ``nonces``, ``seed`` and ``throws``, each throw with its ``index`` and ``dice``)
    or a chouette session's (``GET /api/chouettes/ID/record.dice``: the same with
    ``seats``, each seat's ``name`` and ``nonce``, instead of ``nonces``).

    Returns ``None`` when every throw verifies, else the first failure (a throw whose
    index is out of order fails at that position).

    Raises:
        ValueError: if the record is not a dice record of this version, or the seed
            has not been revealed (the match is not over, the table not closed).
    """
    formats = ("backgammon-dice-record", CHOUETTE_RECORD)
    if not isinstance(record, Mapping) or record.get("format") not in formats:
        raise ValueError(f"not a backgammon dice record (format one of {formats})")
    if record.get("version") != DICE_VERSION:
        raise ValueError(
            f"dice record version {record.get('version')!r}; this checks version {DICE_VERSION}"
        )
    seed = record.get("seed")
    if seed is None:
        raise ValueError("the seed is not revealed yet: the match is not over")
    nonces = _record_nonces(record)
    throws: list[tuple[int, ...]] = []
    for position, throw in enumerate(record.get("throws", [])):
        try:
            index, dice = throw["index"], throw["dice"]
            if len(dice) not in (2, 3):
                raise ValueError
            pair = tuple(int(die) for die in dice)
        except (KeyError, TypeError, IndexError, ValueError):
            raise ValueError(
                f"throw {position}: expected index and two or three dice, got {throw!r}"
            ) from None
        if index != position:
            return DiceFailure(
                position, (0, 0), pair, f"throw {position} is recorded with index {index!r}"
            )
        throws.append(pair)
    return verify_throws(str(seed), str(record.get("commitment")), nonces, throws)
