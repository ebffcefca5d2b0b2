"""TD self-play in other variants: the kernels follow each variant's rules (endings,
scoring, Plakoto's pins), and a trained network plays legal moves through Game."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from backgammon import ChooseDouble, Game, Play, Position, SeededDice, variants
from backgammon.engine import Engine
from backgammon.engine.encoding import NARDY_ENCODING, PLAKOTO_ENCODING
from backgammon.engine.players import EnginePlayer
from backgammon.engine.strength import play_game
from backgammon.errors import EngineError
from backgammon.training import Trainer, TrainingSettings
from backgammon.training.td import variant_outcome, variant_rules

PLAKOTO = variants.find("plakoto")


@pytest.mark.parametrize("name", ["first-hit", "atomic"])
def test_turns_the_trainer_does_not_follow_are_refused(name: str) -> None:
    with pytest.raises(NotImplementedError, match="does not follow yet"):
        Trainer(TrainingSettings(hidden=4, variant=name))


@pytest.mark.parametrize("name", ["plakoto", "plakoto-prison", "long-nardy", "tavla"])
def test_the_kernels_end_games_as_game_does(name: str) -> None:
    """Random games through Game: the kernel sees no ending before the last play, and
    the last play's ending (winner, points, draws) as Game scores it."""
    variant = variants.find(name)
    rules = variant_rules(variant)
    out = np.zeros(5, dtype=np.float32)
    for index in range(12):
        game = Game(variant)
        dice = SeededDice(index)
        rng = random.Random(index)
        while not game.is_over():
            if game.dice is None:
                game.roll_dice(dice)
                continue
            plays = game.legal_plays()
            play = plays[rng.randrange(len(plays))] if plays else Play.no_move(game.position)
            game.push(play)
            if not game.is_over():
                assert not variant_outcome(game.position.to_array().copy(), rules, out)
        outcome = game.outcome
        assert outcome is not None
        # The game keeps the mover's view at the end: the kernel reads the other side.
        board = game.position.flip().to_array().copy()
        assert variant_outcome(board, rules, out)
        if outcome.is_draw:
            assert out[0] == 0.5
            continue
        on_roll_won = out[0] > 0.5
        assert on_roll_won == (outcome.winner != game.turn)
        points = 1 + int(max(out[1], out[3]) > 0.5) + int(max(out[2], out[4]) > 0.5)
        assert points == outcome.points


def test_a_tiny_plakoto_network_trains_resumes_and_plays_legal_moves(tmp_path: Path) -> None:
    settings = TrainingSettings(hidden=8, alpha=0.1, seed=5, variant="plakoto")
    trainer = Trainer(settings)
    assert trainer.networks.contact.encoding == PLAKOTO_ENCODING
    results = trainer.train(6, chunk=3)
    assert (results[:, 2] > 0).all() and set(results[:, 1]) <= {0, 1, 2}
    trainer.save(tmp_path / "run")
    resumed = Trainer.resume(tmp_path / "run")
    assert resumed.games_played == 6 and resumed.rules.tolist() == trainer.rules.tolist()
    resumed.train(2)

    engine = Engine(tmp_path / "run" / "networks.npz", variant=PLAKOTO)
    player = EnginePlayer(engine)
    # Game.push validates every play: a game to the end means only legal plays.
    assert play_game(player, player, seed=3, variant=PLAKOTO) in (-2, -1, 0, 1, 2)
    with pytest.raises(EngineError, match="pinning"):
        Engine(tmp_path / "run" / "networks.npz")


@pytest.mark.parametrize(
    ("name", "encoding"), [("plakoto", PLAKOTO_ENCODING), ("long-nardy", NARDY_ENCODING)]
)
def test_the_kernel_and_the_engine_read_a_family_encoding_alike(name: str, encoding: str) -> None:
    """The trainer's forward pass gives the engine's win probability (Plakoto: on
    boards with pins, which the encoding reads)."""
    from backgammon.training import td

    variant = variants.find(name)
    trainer = Trainer(TrainingSettings(hidden=8, seed=9, variant=name))
    assert trainer.networks.contact.encoding == encoding
    trainer.train(3)
    engine = Engine(trainer.networks, variant=variant)
    views = td.parameter_views(trainer.networks)
    positions: list[Position] = []
    game = Game(variant)
    dice = SeededDice(11)
    rng = random.Random(11)
    while not game.is_over() and len(positions) < 80:
        if game.dice is None:
            game.roll_dice(dice)
            continue
        plays = game.legal_plays()
        game.push(plays[rng.randrange(len(plays))] if plays else Play.no_move(game.position))
        if not game.is_over():
            positions.append(game.position)
    boards = [position.to_array().copy() for position in positions]
    if variant.pinning:
        assert any(np.any(board & 0x80) for board in boards)
    rules = variant_rules(variant, encoding)
    ours = engine.evaluate_boards(np.array(boards))
    assert engine.evaluate(positions[-1]).win == pytest.approx(ours[-1, 0])
    out = np.zeros(5, dtype=np.float32)
    for board, row in zip(boards, ours, strict=True):
        td._evaluate_child(
            board,
            rules,
            15,
            *views,
            np.zeros(208, dtype=np.float32),
            np.zeros(242, dtype=np.float32),
            np.zeros(8, dtype=np.float32),
            np.zeros(52, dtype=np.uint8),
            out,
        )
        assert out[0] == pytest.approx(row[0], abs=1e-5)


def test_long_nardy_units_read_blocks_and_the_head() -> None:
    from backgammon.engine.encoding import CONTACT_SIDE_INPUTS, encode_contact_family_into

    start = Position.initial(variants.find("long-nardy")).to_array().copy()
    out = np.zeros(242, dtype=np.float32)
    encode_contact_family_into(start, 2, 15, out)
    bar = 24 * 4
    # Each head (our 24, the opponent's 12) lies on the other side's way: a run of 1.
    for at in (bar, CONTACT_SIDE_INPUTS + bar):
        assert out[at : at + 4] == pytest.approx([1 / 6, 1 / 6, 1.0, 1.0])


@pytest.mark.parametrize("name", ["acey-deucey", "acey-deucey-european", "russian"])
def test_the_kernel_continues_turns_as_game_does(name: str) -> None:
    """After every play of random games, the kernel's idea of what follows (the turn
    passes, the mover rolls again, plays the complement, names a double) is Game's."""
    from backgammon.training import td

    variant = variants.find(name)
    rules = variant_rules(variant)
    seen = set()
    for index in range(6):
        game = Game(variant)
        dice = SeededDice(index)
        rng = random.Random(index)
        while not game.is_over():
            if game.pending is not None:
                game.push(ChooseDouble(rng.randint(1, 6)))
                continue
            if game.dice is None:
                game.roll_dice(dice)
                continue
            roll, turn = game.dice, game.turn
            bonus, complement = game._bonus, game._complement
            plays = game.legal_plays()
            play = plays[rng.randrange(len(plays))] if plays else Play.no_move(game.position)
            kind = td._continuation(
                rules,
                play.position.to_array().copy(),
                roll.first,
                roll.second,
                play.dice_used,
                bonus,
                complement,
            )
            game.push(play)
            if game.is_over():
                break
            if game.pending is not None:
                expected = td._CHOOSE_DOUBLE
            elif game.turn != turn:
                expected = td._PASS
            elif game.dice is not None:
                expected = td._PLAY_COMPLEMENT
            else:
                expected = td._ROLL_AGAIN
            assert kind == expected
            seen.add(kind)
    assert td._PASS in seen and td._ROLL_AGAIN in seen


@pytest.mark.parametrize("name", ["acey-deucey", "russian"])
def test_tiny_runs_of_turns_that_go_on(name: str) -> None:
    trainer = Trainer(TrainingSettings(hidden=4, alpha=0.1, seed=2, variant=name))
    results = trainer.train(2)
    assert set(results[:, 0]) <= {0, 1} and set(results[:, 1]) <= {1, 2, 3}
    assert (results[:, 2] > 0).all()
