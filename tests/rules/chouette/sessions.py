"""Helpers for the chouette tests: playing a game out on the board, and a snapshot of
everything a chouette shows (to check that a refused action changed nothing and that
``pop`` restores exactly)."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from backgammon.rules.chouette import (
    Chouette,
    ChouetteAction,
    ChouetteRules,
    CubeDouble,
    CubeDrop,
    CubeTake,
)
from backgammon.rules.dice import Roll, ScriptedDice, SeededDice


def throw(table: Chouette, player: str, dice: str) -> None:
    """``player`` throws the given dice (``"3-1"``)."""
    table.roll_dice(player, ScriptedDice([dice]))


def play_out(table: Chouette, seed: int) -> None:
    """Finish the current game with board actions only (no more cube actions): seeded
    dice, and a seeded random choice among the legal plays."""
    dice, choice = SeededDice(seed), random.Random(seed)
    games = len(table.results)
    while len(table.results) == games:
        roller = table.roller()
        if roller is not None:
            table.roll_dice(roller, dice)
        else:
            plays = table.legal_actions()
            table.push(plays[choice.randrange(len(plays))])


def state(table: Chouette) -> tuple[Any, ...]:
    """Everything a chouette shows, as one comparable value."""
    return (
        table.lineup,
        table.holder,
        table.on_roll,
        table.cubes,
        table.members_in,
        table.pending,
        table.settled,
        table.scores,
        table.results,
        table.history,
        table.position,
        table.dice,
        table.roller(),
    )


def random_step(table: Chouette, choice: random.Random) -> ChouetteAction:
    """Push one random legal action and return it: a throw of random dice where one is
    due (mostly, rather than a double), a take rather than a drop three times in four,
    otherwise any legal action."""
    actions = table.legal_actions()
    roller = table.roller()
    takes = [action for action in actions if isinstance(action, CubeTake)]
    if roller is not None and (not actions or choice.random() < 0.85):
        table.roll_dice(roller, ScriptedDice([Roll(choice.randint(1, 6), choice.randint(1, 6))]))
        return table.history[-1]
    picked = choice.choice(takes if takes and choice.random() < 0.75 else actions)
    table.push(picked)
    return picked


def random_session(seed: int, steps: int) -> Chouette:
    """A chouette of 3 to 5 players under random options after ``steps`` random legal
    actions."""
    choice = random.Random(seed)
    players = ["Ann", "Bob", "Cy", "Di", "Ed"][: choice.randint(3, 5)]
    rules = ChouetteRules(
        team_cube=choice.random() < 0.3,
        consulting=choice.random() < 0.5,
        jacoby=choice.random() < 0.5,
        stake=Decimal(choice.choice(["1", "0.25", "5"])),
        max_cube=choice.choice([None, 2, 4, 64]),
    )
    table = Chouette(players, rules)
    for _ in range(steps):
        random_step(table, choice)
    return table


def four_player_session() -> tuple[Chouette, list[dict[str, int]]]:
    """Three games of Ann, Bob, Cy and Di at 0.50 a point, with each game's scores."""
    table = Chouette(["Ann", "Bob", "Cy", "Di"], ChouetteRules(stake=Decimal("0.50")))
    scores = []
    # Game 1: Ann in the box, Bob captain.
    throw(table, "Ann", "3-1")
    table.play("Ann", "8/5 6/5")
    table.push(CubeDouble("Bob", "Bob"))
    table.push(CubeDouble("Cy", "Cy"))
    table.push(CubeTake("Ann", "Bob"))
    table.push(CubeDrop("Ann", "Cy"))
    throw(table, "Bob", "6-4")
    table.play("Bob", "24/18 13/9")
    table.push(CubeDouble("Ann", "Bob"))  # the box redoubles Bob's cube: 4, Bob's
    table.push(CubeTake("Bob", "Bob"))
    table.push(CubeDouble("Ann", "Di"))
    table.push(CubeDrop("Di", "Di"))
    play_out(table, seed=1)
    scores.append(table.scores)
    # Game 2: Ann stays in the box, Cy captain.
    throw(table, "Ann", "2-6")  # the team (Cy) starts with 6-2
    table.play("Cy", "24/18 13/11")
    table.push(CubeDouble("Ann", "Cy"))
    table.push(CubeDouble("Ann", "Bob"))
    table.push(CubeDrop("Cy", "Cy"))  # the captain drops: Di plays the checkers
    table.push(CubeTake("Bob", "Bob"))
    play_out(table, seed=2)
    scores.append(table.scores)
    # Game 3: Ann in the box, Di captain.
    throw(table, "Di", "6-1")
    table.play("Ann", "13/7 8/7")
    table.push(CubeDouble("Di", "Di"))
    table.push(CubeDouble("Bob", "Bob"))
    table.push(CubeDrop("Ann", "Di"))  # the captain wins their cube: Bob plays on
    table.push(CubeTake("Ann", "Bob"))
    play_out(table, seed=3)
    scores.append(table.scores)
    return table, scores
