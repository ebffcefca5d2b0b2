"""Networks of game plans (issue 55): the plan classifier's kernel, weights files with
plan networks, the evaluator's choice of network, and fitting one plan's network."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from backgammon import Position
from backgammon.engine.evaluator import Engine, PositionClass, classify
from backgammon.engine.network import PLAN_NETWORK_NAMES, Network, Networks
from backgammon.engine.plans import PLANS, Plan, plan_indexes, plan_of
from backgammon.errors import EngineError
from backgammon.training.corpus import Corpus
from backgammon.training.supervised import fit_networks

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


@cache
def queued() -> tuple[tuple[Position, Plan], ...]:
    """The positions of the repository's first three queue chunks, with the plan
    stored beside each when it was queued (by the plain-Python rule of its day)."""
    corpus = Corpus(CORPUS)
    entries = [
        entry for name in corpus.chunk_names()[:3] for entry in corpus.read_chunk(name).positions
    ]
    return tuple((Position.from_position_id(e.position_id), e.plan) for e in entries)


@cache
def small_networks() -> Networks:
    return Networks.random(seed=3, hidden=8)


def test_the_kernel_gives_the_plans_stored_in_the_corpus() -> None:
    pairs = queued()
    assert len({plan for _, plan in pairs}) == len(Plan), "every plan is among them"
    boards = np.stack([position.to_array() for position, _ in pairs])
    indexes = plan_indexes(boards)
    assert [PLANS[i] for i in indexes] == [plan for _, plan in pairs]
    assert all(plan_of(position) is plan for position, plan in pairs[:200])
    rows = np.array([5, 0, 7], dtype=np.int64)
    assert list(plan_indexes(boards, rows)) == [indexes[5], indexes[0], indexes[7]]


def test_plan_networks_round_trip_through_a_weights_file(tmp_path: Path) -> None:
    nets = small_networks()
    blitz = Network.random(242, 6, "contact-v1", 9)
    with_blitz = nets.with_networks({"blitz": blitz})
    assert list(with_blitz.by_name()) == ["contact", "race", "crashed", "blitz"]
    assert with_blitz.plan_networks() == {Plan.BLITZ: blitz} and nets.plans == {}
    path = tmp_path / "plans.weights.npz"
    with_blitz.save(path)
    loaded = Networks.load(path)
    assert list(loaded.plans) == ["blitz"]
    assert np.array_equal(loaded.plans["blitz"].params, blitz.params)
    assert loaded.plans["blitz"].hidden == 6
    assert "blitz 242-6-5" in repr(loaded)
    assert Networks.load(tmp_path / "plans.weights.npz").contact.hidden == 8


def test_a_plan_network_must_be_a_contact_network_of_a_known_plan() -> None:
    nets = small_networks()
    with pytest.raises(EngineError, match="no game plan is called 'race'"):
        Networks(nets.contact, nets.race, nets.crashed, plans={"race": nets.contact})
    with pytest.raises(EngineError, match="inputs"):
        nets.with_networks({"prime": Network.random(208, 4, "contact-v1", 1)})
    with pytest.raises(EngineError, match="same encoding"):
        nets.with_networks({"prime": Network.random(242, 4, "plakoto-v1", 1)})
    assert set(PLAN_NETWORK_NAMES) == set(Plan) - {Plan.RACE}


def test_the_engine_evaluates_a_plans_positions_by_its_network() -> None:
    """A blitz network sees the blitzes among the contact positions (not the crashed
    ones) and nothing else; a copy of the contact network changes nothing."""
    nets = small_networks()
    positions = [position for position, _ in queued()]
    plain = Engine(nets).evaluate_boards(np.stack([p.to_array() for p in positions]))
    copy = Engine(nets.with_networks({"blitz": nets.contact.copy()}))
    boards = np.stack([p.to_array() for p in positions])
    assert np.array_equal(copy.evaluate_boards(boards), plain)
    blitz_net = Network.random(242, 8, "contact-v1", 77)
    engine = Engine(nets.with_networks({"blitz": blitz_net}))
    own = Engine(nets.replace(contact=blitz_net))  # the blitz net as the contact net
    values = engine.evaluate_boards(boards)
    theirs = own.evaluate_boards(boards)
    served = [classify(p) is PositionClass.CONTACT and plan_of(p) is Plan.BLITZ for p in positions]
    assert sum(served) > 20
    for row, is_blitz in enumerate(served):
        expected = theirs[row] if is_blitz else plain[row]
        assert np.allclose(values[row], expected, atol=1e-6), (row, is_blitz)
    rows = [k for k, is_blitz in enumerate(served) if is_blitz][:20] + list(range(20))
    one = [engine.evaluate(positions[k]).probabilities for k in rows]  # the one-position kernel
    assert np.allclose(one, values[rows], atol=1e-6)


def test_fitting_one_plans_network_leaves_the_others() -> None:
    nets = small_networks().with_networks({"blitz": small_networks().contact.copy()})
    pairs = queued()
    boards = np.stack([position.to_array() for position, _ in pairs])
    targets = np.tile(np.array([0.9, 0.3, 0.02, 0.05, 0.0], dtype=np.float32), (len(pairs), 1))
    fitted, reports = fit_networks(nets, boards, targets, epochs=2, only=["blitz"], seed=1)
    assert [report.network for report in reports] == ["blitz"]
    assert reports[0].loss_after < reports[0].loss_before
    for name in ("contact", "race", "crashed"):
        assert np.array_equal(fitted.by_name()[name].params, nets.by_name()[name].params)
    assert not np.array_equal(fitted.plans["blitz"].params, nets.plans["blitz"].params)
    blitzes = sum(classify(p) is PositionClass.CONTACT and plan is Plan.BLITZ for p, plan in pairs)
    assert reports[0].train_positions + reports[0].held_out == blitzes
