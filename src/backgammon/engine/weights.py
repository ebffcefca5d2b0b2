"""The networks an :class:`~backgammon.engine.evaluator.Engine` plays each variant
with: the shipped weights in ``backgammon/engine/data`` (the standard game's, and a
variant's own where the package ships them, some shared between variants), opened as
:class:`~backgammon.engine.network.Networks`.

:mod:`backgammon.engine.evaluator` exports these names too.
"""

from __future__ import annotations

from importlib import resources

from backgammon.engine.network import Networks
from backgammon.rules.variant import Variant

__all__ = [
    "DEFAULT_SEED",
    "DEFAULT_WEIGHTS",
    "SHARED_NETWORKS",
    "default_networks",
    "networks_for",
    "variant_networks",
    "variant_weights_name",
]


DEFAULT_WEIGHTS = "default.weights.npz"
"""The file name of the shipped weights in ``backgammon/engine/data``."""
DEFAULT_SEED = 0
"""The seed of the untrained networks used while no weights are shipped."""


def default_networks() -> Networks:
    """The shipped networks, or, while the package ships no weights file, untrained
    networks of the default size initialised from :data:`DEFAULT_SEED` (their metadata
    says ``trained=False``).

    Raises:
        EngineError: if the shipped file is unreadable.
    """
    resource = resources.files("backgammon.engine").joinpath("data").joinpath(DEFAULT_WEIGHTS)
    if resource.is_file():
        with resources.as_file(resource) as path:
            return Networks.load(path)
    return Networks.random(
        DEFAULT_SEED, notes="untrained: random initialisation (no weights file shipped yet)"
    )


SHARED_NETWORKS = {
    "plakoto-prison": "plakoto",
    "acey-deucey-1-2": "acey-deucey",
    "acey-deucey-european": "acey-deucey",
}
"""Variants that play with another variant's networks (the same board, movement and
encoding; each measured on its own games, see ``docs/variants.md``)."""


def variant_weights_name(variant: Variant) -> str:
    """The file name, in ``backgammon/engine/data``, of the networks shipped for
    ``variant``: ``NAME.weights.npz`` for its registry name, or for the variant whose
    networks it shares (:data:`SHARED_NETWORKS`)."""
    return f"{SHARED_NETWORKS.get(variant.name, variant.name)}.weights.npz"


def variant_networks(variant: Variant) -> Networks | None:
    """The networks trained for ``variant`` and shipped in the package, or ``None``
    when there are none (the standard game's are :func:`default_networks`; a custom
    variant has none). Which variants have their own is listed in
    ``docs/variants.md``.

    Raises:
        EngineError: if the shipped file is unreadable.
    """
    if variant.name in ("standard", "custom"):
        return None
    resource = (
        resources.files("backgammon.engine")
        .joinpath("data")
        .joinpath(variant_weights_name(variant))
    )
    if not resource.is_file():
        return None
    with resources.as_file(resource) as path:
        return Networks.load(path)


def networks_for(variant: Variant) -> Networks:
    """The networks ``Engine(variant=variant)`` plays with: the variant's own when the
    package ships them (:func:`variant_networks`), otherwise the standard game's
    (:func:`default_networks`, their inputs scaled to the variant's checkers).

    Raises:
        EngineError: if a shipped file is unreadable.
    """
    own = variant_networks(variant)
    return default_networks() if own is None else own
