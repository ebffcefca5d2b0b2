"""The doubling cube, resignations, scoring options and match play."""

from __future__ import annotations

from typing import Any

import pytest

from backgammon import (
    AcceptResignation,
    Beaver,
    CubeRules,
    CubeState,
    Double,
    Drop,
    Ending,
    Game,
    IllegalActionError,
    Match,
    MatchContext,
    OpeningRoll,
    Position,
    Raccoon,
    RejectResignation,
    Resign,
    ResignLevel,
    Roll,
    ScriptedDice,
    Take,
    WinKind,
)


def started(
    rules: CubeRules | None = None, context: MatchContext | None = None, **kwargs: Any
) -> Game:
    """A game where player 0 has played its opening 3-1 and player 1 is on roll."""
    game = Game(rules=rules, context=context, **kwargs)
    game.push(OpeningRoll(3, 1))
    game.play("8/5 6/5")
    return game


def state(game: Game) -> tuple[object, ...]:
    return (
        game.position,
        game.turn,
        game.dice,
        game.cube,
        game.pending,
        game.outcome,
        game.history,
        game.turns_played,
    )


def refused(game: Game, action: Any, match: str) -> None:
    """The action raises IllegalActionError naming the reason and changes nothing."""
    before = state(game)
    with pytest.raises(IllegalActionError, match=match):
        game.push(action)
    assert state(game) == before


def test_double_take_passes_the_cube() -> None:
    game = started()
    game.push(Double())
    assert game.pending is not None and game.pending.kind == "double"
    assert game.decider == 0
    game.push(Take())
    assert game.cube == CubeState(2, 0)
    assert game.decider == 1
    game.push(Roll(6, 5))
    game.play("24/13")
    # Player 0 owns the cube and redoubles to 4.
    game.push(Double())
    game.push(Take())
    assert game.cube == CubeState(4, 1)


def test_drop_ends_the_game_for_the_cube_value_before_the_double() -> None:
    game = started(cube=CubeState(2, 1))
    game.push(Double())
    game.push(Drop())
    assert game.outcome is not None
    assert game.outcome.winner == 1
    assert game.outcome.ending is Ending.DROPPED
    assert game.outcome.points == 2


def test_illegal_cube_actions_are_refused_without_change() -> None:
    game = started()
    game.push(Roll(4, 2))
    refused(game, Double(), "double before rolling")
    game.play("8/4 6/4")
    # Player 0 on roll; cube centred. Double, take: player 1 owns it.
    game.push(Double())
    refused(game, Double(), "pending")
    refused(game, Roll(3, 3), "pending")
    refused(game, Beaver(), "beavers are not allowed")
    refused(game, Raccoon(), "no beaver is pending")
    game.push(Take())
    refused(game, Take(), "no double is pending")
    game.push(Roll(5, 2))
    game.play("13/11 13/8")
    # Player 1 owns the cube: it plays, then player 0 may not double.
    game.push(Roll(6, 1))
    game.play("13/7 8/7")
    assert game.turn == 0
    refused(game, Double(), "player 1 owns the cube")


def test_no_double_in_the_crawford_game_but_after_it() -> None:
    crawford = started(context=MatchContext(5, (4, 2), crawford=True))
    refused(crawford, Double(), "Crawford")
    post = started(context=MatchContext(5, (4, 2), post_crawford=True))
    post.push(Double())
    post.push(Take())
    assert post.cube.value == 2


@pytest.mark.parametrize(
    ("length", "score", "post_crawford", "matters"),
    [
        (1, (0, 0), False, False),  # a 1-point match: the cube is dead from the start
        (3, (2, 2), True, False),  # double match point
        (5, (2, 4), True, False),  # player 1, on roll, leads 4-2 after the Crawford game
        (5, (4, 2), True, True),  # player 1 trails 2-4: its double matters
        (3, (0, 0), False, True),
        (0, (0, 0), False, True),  # money: always
    ],
)
def test_a_double_matters_only_where_the_cube_does_not_cover_the_doubler_s_score(
    length: int, score: tuple[int, int], post_crawford: bool, matters: bool
) -> None:
    context = MatchContext(length, score, post_crawford=post_crawford)
    game = started(context=context)  # player 1 on roll
    assert game.can_double()  # the rules allow it either way
    assert game.double_matters() is matters
    assert context.cube_covers(1, 1) is not matters


def test_a_cube_turned_high_enough_is_dead_for_its_owner() -> None:
    context = MatchContext(5, (3, 0))  # player 0 needs 2, player 1 needs 5
    game = started(context=context)
    game.push(Double())
    game.push(Take())  # player 0 owns the cube at 2: it covers their 2 away
    game.push(Roll(6, 5))
    game.play("24/13")
    assert game.turn == 0 and game.can_double() and not game.double_matters()
    assert context.cube_covers(0, 2) and not context.cube_covers(1, 4)
    assert not Game(context=MatchContext(5, (4, 2), crawford=True)).double_matters()


def test_holland_rule_holds_the_trailer_back_for_two_rolls_each() -> None:
    rules = CubeRules(holland=True)
    context = MatchContext(5, (4, 2), post_crawford=True)
    game = Game(rules=rules, context=context)
    game.push(OpeningRoll(3, 1))  # player 0 (the leader) starts
    game.play("8/5 6/5")
    # Player 1 trails 2-4: one roll each is not enough.
    refused(game, Double(), "Holland")
    game.push(Roll(6, 5))
    game.play("24/13")
    game.push(Roll(4, 2))
    game.play("8/4 6/4")
    refused(game, Double(), "Holland")
    game.push(Roll(6, 1))
    game.play("13/7 8/7")
    game.push(Roll(2, 1))
    game.play("13/11 6/5")
    # Each side has played two rolls now.
    game.push(Double())
    # Without the Holland rule the trailer may double at once.
    free = started(context=context)
    free.push(Double())


def test_beaver_and_raccoon() -> None:
    rules = CubeRules(beavers=True, raccoons=True)
    game = started(rules=rules)
    game.push(Double())  # player 1 doubles
    game.push(Beaver())  # player 0 beavers: cube 4, kept by player 0
    assert game.cube == CubeState(4, 0)
    assert game.pending is not None and game.pending.kind == "beaver"
    refused(game, Take(), "no double is pending")
    game.push(Raccoon())  # player 1 raccoons: cube 8, still player 0's
    assert game.cube == CubeState(8, 0)
    assert game.pending is None
    game.push(Roll(6, 5))
    assert game.turn == 1


def test_beaver_then_roll_on_without_raccoon() -> None:
    game = started(rules=CubeRules(beavers=True))
    game.push(Double())
    game.push(Beaver())
    refused(game, Raccoon(), "raccoons are not allowed")
    game.push(Roll(2, 2))
    assert game.pending is None and game.cube == CubeState(4, 0)


def test_beavers_are_for_money_only() -> None:
    game = started(rules=CubeRules(beavers=True), context=MatchContext(7, (0, 0)))
    game.push(Double())
    refused(game, Beaver(), "money")


def test_max_cube() -> None:
    game = started(rules=CubeRules(max_cube=2), cube=CubeState(2, 1))
    refused(game, Double(), "may not exceed 2")


def test_automatic_doubles_with_a_limit() -> None:
    game = Game(rules=CubeRules(automatic_doubles=2))
    for tie in (2, 5, 6):
        game.push(OpeningRoll(tie, tie))
    assert game.cube == CubeState(4, None)  # two doubles, then the limit
    game.push(OpeningRoll(6, 4))
    assert game.turn == 0 and game.cube == CubeState(4, None)
    game.pop()
    game.pop()
    assert game.cube == CubeState(4, None)
    game.pop()
    assert game.cube == CubeState(2, None)
    # Automatic doubles are for money only.
    match_game = Game(rules=CubeRules(automatic_doubles=2), context=MatchContext(5))
    match_game.push(OpeningRoll(3, 3))
    assert match_game.cube == CubeState(1, None)


def _one_roll_from_gammon(**kwargs: Any) -> Game:
    # Player 0 has one checker on its 1-point; player 1 has borne off nothing.
    player = [14, 1] + [0] * 24
    opponent = [0] * 26
    opponent[13] = 15  # all on its 13-point: not in player 0's home board
    return Game(position=Position(player, opponent), turn=0, dice=(2, 1), **kwargs)


def test_jacoby_rule_counts_gammons_single_while_the_cube_is_centred() -> None:
    plain = _one_roll_from_gammon()
    plain.play("1/off")
    assert plain.outcome is not None
    assert plain.outcome.kind is WinKind.GAMMON and plain.outcome.points == 2

    jacoby = _one_roll_from_gammon(rules=CubeRules(jacoby=True))
    jacoby.play("1/off")
    assert jacoby.outcome is not None
    assert jacoby.outcome.kind is WinKind.GAMMON
    assert jacoby.outcome.jacoby and jacoby.outcome.points == 1

    turned = _one_roll_from_gammon(rules=CubeRules(jacoby=True), cube=CubeState(2, 1))
    turned.play("1/off")
    assert turned.outcome is not None and turned.outcome.points == 4

    in_match = _one_roll_from_gammon(rules=CubeRules(jacoby=True), context=MatchContext(7))
    in_match.play("1/off")
    assert in_match.outcome is not None and in_match.outcome.points == 2


@pytest.mark.parametrize(
    ("level", "cube", "points"),
    [
        (ResignLevel.SINGLE, 1, 1),
        (ResignLevel.GAMMON, 2, 4),
        (ResignLevel.BACKGAMMON, 4, 12),
    ],
)
def test_resignations_at_each_level(level: ResignLevel, cube: int, points: int) -> None:
    game = started(cube=CubeState(cube, 0))
    game.push(Resign(level))
    assert game.decider == 0
    refused(game, Roll(3, 1), "pending")
    game.push(RejectResignation())
    assert game.pending is None and game.outcome is None
    game.push(Resign(level))
    game.push(AcceptResignation())
    assert game.outcome is not None
    assert game.outcome.winner == 0
    assert game.outcome.ending is Ending.RESIGNED
    assert game.outcome.kind == WinKind(int(level))
    assert game.outcome.points == points
    refused(game, Double(), "over")


def test_a_backgammon_resignation_scores_what_the_variant_allows() -> None:
    from backgammon.variants import find

    tavla = find("tavla")  # gammons but no backgammons
    assert tavla.gammons and not tavla.backgammons
    game = Game(tavla)
    game.push(OpeningRoll(3, 1))
    game.push(Resign(ResignLevel.BACKGAMMON))
    game.push(AcceptResignation())
    assert game.outcome is not None
    assert game.outcome.kind is WinKind.GAMMON and game.outcome.points == 2


def test_either_player_may_resign_before_the_opening_roll() -> None:
    """Before the opening roll nobody is on roll: the resignation names its player
    (eXtreme Gammon and servers record such games); after it, only the player on
    roll resigns, and a named other player is refused."""
    game = Game(context=MatchContext(3))
    refused(game, Resign(), "say which player resigns")
    game.push(Resign(ResignLevel.SINGLE, player=1))
    assert game.decider == 0
    refused(game, OpeningRoll(3, 1), "resign is pending")
    game.push(RejectResignation())
    game.push(Resign(ResignLevel.GAMMON, player=0))
    game.push(AcceptResignation())
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.points) == (1, 2)
    assert game.outcome.ending is Ending.RESIGNED
    on_roll = started()
    refused(on_roll, Resign(player=0), "only the player on roll resigns: player 1")
    on_roll.push(Resign(player=1))
    assert on_roll.decider == 0
    with pytest.raises(ValueError, match="0 or 1"):
        Resign(player=2)


def test_resignation_responses_need_a_resignation() -> None:
    game = started()
    refused(game, AcceptResignation(), "no resignation is pending")
    refused(game, RejectResignation(), "no resignation is pending")


def test_pop_restores_every_cube_state() -> None:
    game = started(rules=CubeRules(beavers=True, raccoons=True))
    states = [state(game)]
    for action in (Double(), Beaver(), Raccoon(), Roll(6, 6)):
        game.push(action)
        states.append(state(game))
    while len(states) > 1:
        states.pop()
        game.pop()
        assert state(game) == states[-1]


def _finish_with(game: Game, winner: int, points: int) -> None:
    """End a match game quickly: the loser resigns at the level that gives points."""
    cube = game.cube.value
    level = ResignLevel(points // cube)
    assert level * cube == points
    if game.turn is None:
        game.push(OpeningRoll(3, 1) if winner == 1 else OpeningRoll(1, 3))
        game.push(Resign(level))
    else:
        assert game.turn == 1 - winner
        game.push(Resign(level))
    game.push(AcceptResignation())


def test_match_crawford_and_post_crawford_games() -> None:
    match = Match(5)
    game = match.new_game()
    _finish_with(game, 0, 2)  # 2-0
    game = match.new_game()
    assert not game.context.crawford
    _finish_with(game, 0, 2)  # 4-0: player 0 reaches match point minus one
    game = match.new_game()
    assert game.context.crawford and not game.context.post_crawford
    _finish_with(game, 1, 1)  # 4-1
    game = match.new_game()
    assert game.context.post_crawford and not game.context.crawford
    assert game.context.score == (4, 1)
    _finish_with(game, 1, 3)  # 4-4
    game = match.new_game()
    assert game.context.post_crawford
    _finish_with(game, 1, 2)  # 4-6: scores are not capped
    assert match.score == (4, 6)
    assert match.winner == 1 and match.is_over()
    with pytest.raises(IllegalActionError):
        match.new_game()


def test_match_without_crawford_rule() -> None:
    match = Match(3, rules=CubeRules(crawford=False))
    _finish_with(match.new_game(), 0, 2)
    assert not match.new_game().context.crawford


def test_match_state_round_trips_through_the_match_id() -> None:
    match = Match(9)
    game = match.new_game()
    game.roll_dice(ScriptedDice([(5, 2)]))
    state_ = match.state()
    assert state_.match_length == 9
    assert state_.dice == (5, 2)
    assert type(state_).from_match_id(state_.match_id) == state_
