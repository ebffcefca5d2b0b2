"""Strength against Open Sage: our engine against bgsage's static level, from outside.

    pip install '.[yardstick]'     # bgsage==2.0.20260907, once; a yardstick only
    python benchmarks/bgsage_strength.py --games 10000 [--weights FILE] [--ply 0]
        [--seed 1] [--processes 2] [--swap PLAN]

Open Sage (the PyPI package ``bgsage``, https://github.com/markbgsage/bgsage) is the
strongest open engine; here it is an opponent only (none of its values is kept). Its
static level is what it calls "1ply" (eXtreme Gammon's numbering; our 0-ply): its
game-plan networks with its one-sided bear-off database, cubeless, so that it ranks plays
by cubeless equity as our 0-ply does. The games are cubeless money games with duplicate
dice, seats swapped (:func:`backgammon.engine.strength.duplicate_match`), the same
kind as ``strength.py`` plays against GNU Backgammon. ``--games`` is split into deals
(two games each) run in ``--processes`` processes over disjoint ranges of dice seeds;
the figure printed is our points per game with its standard error over all deals.

``--swap PLAN`` (a game plan's code: ``ra`` race, ``bg``, ``bz``, ``pr``, ``ho``, ``da``,
``oc``) also plays every deal with our engine taking Open Sage's play in that plan's
positions, and prints the change paired deal by deal: where the points are lost.

Before the games, every position of 200 self-play games (``--check-games``) is
checked: the plays that bgsage lists and ours must lead to the same positions, so that a
slip in translating boards cannot pass for a difference in strength.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed_version

from backgammon.engine import Engine
from backgammon.engine.plans import PLANS, plan_of
from backgammon.engine.players import EnginePlayer
from backgammon.engine.strength import deal_points, mean_and_error
from backgammon.rules.dice import Roll, RollLike
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant

BGSAGE_VERSION = "2.0.20260907"


def sage_board(position: Position) -> list[int]:
    """``position`` (the side on roll's view) as bgsage's 26-entry board: entry ``i``
    (1..24) the checkers on the mover's point ``i``, positive for the mover's and
    negative for the opponent's; entry 25 the mover's bar, entry 0 the opponent's bar
    (both as positive counts)."""
    player, opponent = position.player, position.opponent
    board = [0] * 26
    for point in range(1, 25):
        board[point] = player[point] - opponent[25 - point]
    board[25] = player[25]
    board[0] = opponent[25]
    return board


def result_key(board: list[int]) -> tuple[int, ...]:
    """What a play's resulting board decides: the board itself, or ``()`` once the
    mover has borne off its last checker. The two move generators differ there: with
    5-1 and a last checker on the 2-point, ours (as GNU Backgammon's) must play 2/1*/off,
    using both dice, where bgsage also offers 2/off; both end the game with the same
    score (the hit checker was in the winner's home board already)."""
    if board[25] == 0 and all(count <= 0 for count in board[1:25]):
        return ()
    return tuple(board)


def dice_of(roll: RollLike) -> tuple[int, int]:
    """The two dice of ``roll`` (a :class:`Roll`, a pair or text like ``"6-2"``)."""
    coerced = Roll.coerce(roll)
    return coerced.first, coerced.second


class SagePlayer:
    """Plays bgsage's best play at its static level, cubeless (a yardstick)."""

    def __init__(self) -> None:
        from bgsage import BgBotAnalyzer

        self._analyzer = BgBotAnalyzer(eval_level="1ply", cubeful=False)

    def choose(
        self,
        position: Position,
        roll: RollLike,
        variant: Variant | None = None,
        continues: Callable[[Play], bool] | None = None,
    ) -> Play:
        """The legal play that leads where bgsage's best play does."""
        plays = position.legal_plays(roll, variant)
        if not plays:
            return Play.no_move(position)
        first, second = dice_of(roll)
        best = self._analyzer.checker_play(sage_board(position), first, second).moves[0].board
        for play in plays:
            if result_key(sage_board(play.position)) == result_key(best):
                return play
        raise RuntimeError(f"bgsage's play for {position.position_id} {roll} is not legal here")


def check_translation(games: int, seed: int) -> int:
    """Compare, at every position of ``games`` self-play games of the shipped engine,
    the resulting positions of our legal plays with bgsage's; return how many positions
    were checked.

    Raises:
        AssertionError: at the first position where the two sets differ.
    """
    from bgsage import possible_moves

    from backgammon.rules.dice import SeededDice
    from backgammon.rules.game import Game

    player = EnginePlayer(Engine())
    checked = 0
    for game_number in range(games):
        game, dice = Game(), SeededDice(seed + game_number)
        while not game.is_over():
            if game.dice is None:
                game.roll_dice(dice)
                continue
            first, second = dice_of(game.dice)
            plays = game.position.legal_plays(game.dice)
            results = [play.position for play in plays] or [game.position]  # no move: as is
            ours = {result_key(sage_board(result)) for result in results}
            theirs = {
                result_key(b) for b in possible_moves(sage_board(game.position), first, second)
            }
            assert ours == theirs, f"{game.position.position_id} {first}{second}: plays differ"
            checked += 1
            game.push(player.choose(game.position, game.dice, None, game.continuation))
    return checked


class SwappedPlayer:
    """Our engine, but Open Sage's play wherever the position is of game plan ``kind``
    (a :class:`~backgammon.engine.plans.Plan` code): what that kind of position costs
    us, measured against our own games on the same dice."""

    def __init__(self, ours: EnginePlayer, sage: SagePlayer, kind: str) -> None:
        self._ours, self._sage, self._kind = ours, sage, kind

    def choose(
        self,
        position: Position,
        roll: RollLike,
        variant: Variant | None = None,
        continues: Callable[[Play], bool] | None = None,
    ) -> Play:
        """Open Sage's play for the chosen kind, ours otherwise."""
        mover = self._sage if plan_of(position).value == self._kind else self._ours
        return mover.choose(position, roll, variant, continues)


def run(
    weights: str | None, ply: int, deals: int, seed: int, swap: str | None
) -> tuple[list[float], list[float]]:
    """Per deal from dice seed ``seed``: our points against Open Sage, and (with
    ``swap``) those of our engine with Open Sage's plays in positions of plan ``swap``."""
    sage = SagePlayer()
    ours = EnginePlayer(Engine(weights), ply)
    swapped = None if swap is None else SwappedPlayer(ours, sage, swap)
    plain, changed = [], []
    for deal in range(seed, seed + deals):
        plain.append(deal_points(ours, sage, deal))
        if swapped is not None:
            changed.append(deal_points(swapped, sage, deal))
    return plain, changed


def report(plain: list[float], changed: list[float], swap: str | None, label: str) -> None:
    """Print our points per game, and what Open Sage's plays of kind ``swap`` change."""
    ppg, error = mean_and_error(plain)
    print(f"{label}: {ppg:+.4f} ± {error:.4f} points per game")
    if swap is not None:
        differences = [b - a for a, b in zip(plain, changed, strict=True)]
        gain, gain_error = mean_and_error(differences)
        moved = sum(1 for x in differences if x)
        print(
            f"with bgsage's plays in plan '{swap}': {mean_and_error(changed)[0]:+.4f}; "
            f"paired change {gain:+.4f} ± {gain_error:.4f} ({moved} of {len(plain)} deals moved)"
        )


def main() -> None:
    """Check the translation, play, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games (two a deal)")
    parser.add_argument("--weights", default=None, help="weights file (default: the shipped)")
    parser.add_argument("--ply", type=int, default=0, choices=(0, 1, 2), help="our search")
    parser.add_argument("--seed", type=int, default=1, help="dice seed of the first deal")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--check-games", type=int, default=200, help="self-play games checked")
    parser.add_argument(
        "--swap",
        choices=[plan.value for plan in PLANS],
        help="also play with bgsage's plays in this plan's positions (paired, same dice)",
    )
    args = parser.parse_args()
    if args.games < 4:
        parser.error(f"--games must be at least 4 (two deals), got {args.games}")
    if args.processes < 1:
        parser.error(f"--processes must be at least 1, got {args.processes}")
    try:
        version = installed_version("bgsage")
    except PackageNotFoundError:
        wanted = f"bgsage=={BGSAGE_VERSION}"
        parser.error(f"bgsage is not installed: pip install '.[yardstick]' ({wanted})")
    print(f"bgsage {version} (measured against {BGSAGE_VERSION}), static level '1ply', cubeless")
    checked = check_translation(args.check_games, args.seed + 50_000_000)
    print(f"translation: {checked} positions of {args.check_games} games, the same plays")
    deals = args.games // 2
    share = [deals // args.processes + (k < deals % args.processes) for k in range(args.processes)]
    starts = [args.seed + sum(share[:k]) for k in range(args.processes)]
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.processes) as workers:
        futures = [
            workers.submit(run, args.weights, args.ply, n, start, args.swap)
            for n, start in zip(share, starts, strict=True)
        ]
        parts = [future.result() for future in futures]
    plain = [x for part, _ in parts for x in part]
    changed = [x for _, part in parts for x in part]
    seconds = time.perf_counter() - began
    label = (
        f"our {args.ply}-ply against bgsage 1ply over {2 * deals} games "
        f"(dice seeds {args.seed}..{args.seed + deals - 1}; {seconds:.0f} s)"
    )
    report(plain, changed, args.swap, label)


if __name__ == "__main__":
    main()
