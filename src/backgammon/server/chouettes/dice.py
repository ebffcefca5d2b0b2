"""A chouette table's verifiable dice (docs/fair-dice.md, "Chouettes").

The construction is the matches' (:mod:`backgammon.server.matches.fair_dice`): the table's
secret seed is drawn when the table opens and its commitment published then, before
anyone can throw; each person seated may give a nonce while the table is open; the
session's throws, every opening and every roll of every game counted from 0, are
the seed's throws with :func:`~backgammon.server.matches.fair_dice.chouette_nonce` of the
seats' nonces as player 0's nonce and the empty string as player 1's. The seed is
revealed once the table is closed, and the record (:func:`dice_record`) then checks
with ``backgammon verify-dice``.

Pure functions over a table's stored seed, its seats and its session (no I/O).
"""

from __future__ import annotations

from typing import Any

from backgammon.rules.chouette import BoardAction, Chouette
from backgammon.rules.dice import DiceSource, Roll, SecureDice
from backgammon.rules.game import OpeningRoll
from backgammon.server.matches.fair_dice import (
    CHOUETTE_RECORD,
    DICE_VERSION,
    FairDice,
    chouette_nonce,
    commitment,
)

__all__ = ["dice_record", "dice_source", "dice_view", "seat_nonces", "throws_of"]


def seat_nonces(seats: list[dict[str, Any]]) -> list[str]:
    """The seats' dice nonces in seat order (the empty string for none given)."""
    return [str(seat.get("nonce", "")) for seat in seats]


def throws_of(chouette: Chouette) -> list[tuple[int, int]]:
    """Every throw of the session so far, in order: openings (the box's die first,
    ties included) and rolls."""
    throws: list[tuple[int, int]] = []
    for action in chouette.history:
        if isinstance(action, BoardAction):
            move = action.action
            if isinstance(move, OpeningRoll):
                throws.append((move.die0, move.die1))
            elif isinstance(move, Roll):
                throws.append((move.first, move.second))
    return throws


def dice_source(
    seed_hex: str | None, seats: list[dict[str, Any]], chouette: Chouette
) -> DiceSource:
    """Where the session's next throw comes from: the table's seed at the next throw's
    index, or (a table opened before the seeds, ``seed_hex`` None) the system's
    randomness."""
    if seed_hex is None:
        return SecureDice()
    nonces = (chouette_nonce(seat_nonces(seats)), "")
    return FairDice(bytes.fromhex(seed_hex), nonces, len(throws_of(chouette)))


def dice_view(seed_hex: str | None, seats: list[dict[str, Any]], closed: bool) -> Any:
    """What a table's view shows of its dice: the commitment (from the table's
    opening), the seats' nonces and, once ``closed``, the seed; None for a table
    opened before the seeds."""
    if seed_hex is None:
        return None
    return {
        "commitment": commitment(bytes.fromhex(seed_hex)),
        "nonces": [
            {"name": str(seat["name"]), "nonce": nonce}
            for seat, nonce in zip(seats, seat_nonces(seats), strict=True)
        ],
        "seed": seed_hex if closed else None,
    }


def dice_record(
    seed_hex: str | None, seats: list[dict[str, Any]], chouette: Chouette | None, closed: bool
) -> dict[str, Any]:
    """The session's dice record for ``backgammon verify-dice``: the commitment, the
    seats' nonces, the seed once ``closed`` and every throw with its index and the
    seat that threw.

    Raises:
        ValueError: for a table opened before the seeds (its throws have no proof).
    """
    view = dice_view(seed_hex, seats, closed)
    if view is None:
        raise ValueError("this table was opened before its dice had a seed")
    throws = [] if chouette is None else throws_of(chouette)
    throwers = [] if chouette is None else _throwers(chouette)
    return {
        "format": CHOUETTE_RECORD,
        "version": DICE_VERSION,
        "commitment": view["commitment"],
        "seats": view["nonces"],
        "nonce": chouette_nonce(seat_nonces(seats)),
        "seed": view["seed"],
        "throws": [
            {"index": index, "player": player, "dice": list(dice)}
            for index, (player, dice) in enumerate(zip(throwers, throws, strict=True))
        ],
    }


def _throwers(chouette: Chouette) -> list[str]:
    """Who made each throw of the session, in order."""
    return [
        action.player
        for action in chouette.history
        if isinstance(action, BoardAction) and isinstance(action.action, OpeningRoll | Roll)
    ]
