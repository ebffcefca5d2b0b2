"""Networks per variant: Engine(variant=V) plays with V's own networks where the
package ships them, and with the standard ones otherwise."""

from __future__ import annotations

from importlib import resources

import pytest

from backgammon import variants
from backgammon.engine import Engine
from backgammon.engine.evaluator import (
    SHARED_NETWORKS,
    default_networks,
    networks_for,
    variant_networks,
    variant_weights_name,
)
from backgammon.engine.players import EnginePlayer
from backgammon.engine.strength import play_game

DATA = resources.files("backgammon.engine").joinpath("data")
SHIPPED = sorted(
    entry.name.removesuffix(".weights.npz")
    for entry in DATA.iterdir()
    if entry.name.endswith(".weights.npz")
    and entry.name not in ("default.weights.npz", "prune.weights.npz")
)


def test_plakoto_with_the_prison_rule_shares_plakotos_networks() -> None:
    assert variant_weights_name(variants.find("plakoto-prison")) == "plakoto.weights.npz"


def test_a_variant_without_networks_of_its_own_plays_with_the_standard_ones() -> None:
    egyptian = variants.find("egyptian")
    assert variant_weights_name(egyptian) == "egyptian.weights.npz"
    if "egyptian" not in SHIPPED:
        assert variant_networks(egyptian) is None
        assert networks_for(egyptian).metadata == default_networks().metadata
    assert variant_networks(variants.find("standard")) is None
    assert variant_networks(variants.find("standard").with_options(max_per_point=5)) is None


@pytest.mark.parametrize("name", SHIPPED or [pytest.param("none", marks=pytest.mark.skip)])
def test_a_shipped_variant_network_loads_and_plays_legal_moves(name: str) -> None:
    variant = variants.find(name)
    engine = Engine(variant=variant)
    assert engine.networks.metadata.variant == variant.name
    for sharing, source in SHARED_NETWORKS.items():
        if source == name:
            assert Engine(variant=variants.find(sharing)).networks.metadata.variant == name
    assert engine.networks.metadata.trained
    from backgammon.server.bots.pool import engine_for

    assert engine_for(name).networks.metadata == engine.networks.metadata
    player = EnginePlayer(engine)
    # Game.push validates every play: a finished game means only legal plays.
    for seed in range(2):
        assert abs(play_game(player, player, seed=seed, variant=variant)) <= 3
