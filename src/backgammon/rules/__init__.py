"""The rules of backgammon: positions, dice, legal plays, games and match state."""

from backgammon.rules.dice import (
    ALL_ROLLS,
    ALL_THROWS_OF_THREE,
    DiceSource,
    Roll,
    ScriptedDice,
    SecureDice,
    SeededDice,
)
from backgammon.rules.play import Play, PlayList, Step, legal_plays, parse_play
from backgammon.rules.position import Position
from backgammon.rules.variant import STANDARD, Variant

__all__ = [
    "ALL_ROLLS",
    "ALL_THROWS_OF_THREE",
    "STANDARD",
    "DiceSource",
    "Play",
    "PlayList",
    "Position",
    "Roll",
    "ScriptedDice",
    "SecureDice",
    "SeededDice",
    "Step",
    "Variant",
    "legal_plays",
    "parse_play",
]
