"""Every named variant, one module each, and the registry that finds them by name.

Each module of this package defines module-level :class:`~backgammon.rules.variant.
Variant` constants and lists them in ``VARIANTS``; the registry collects them, so
adding a variant is adding one module (plus its tests and docs). Names and aliases are
matched case-insensitively, with ``_`` and spaces read as ``-``.

>>> import backgammon.variants as variants
>>> variants.find("nackgammon").checkers
15
>>> variants.find("Hypergammon 2").checkers
2
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from backgammon.rules.variant import Variant

__all__ = ["all_variants", "find", "names"]


def _key(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", " ").split())


@cache
def _registry() -> dict[str, Variant]:
    found: dict[str, Variant] = {}
    for module in pkgutil.iter_modules(__path__):
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        for variant in getattr(loaded, "VARIANTS", ()):
            for name in (variant.name, *variant.aliases):
                found[_key(name)] = variant
    return found


def all_variants() -> tuple[Variant, ...]:
    """Every registered variant, once each, sorted by name."""
    unique = {variant.name: variant for variant in _registry().values()}
    return tuple(unique[name] for name in sorted(unique))


def names() -> tuple[str, ...]:
    """The registered variants' names (aliases left out), sorted."""
    return tuple(variant.name for variant in all_variants())


def find(name: str) -> Variant:
    """The variant called ``name`` (or one of its aliases).

    Raises:
        KeyError: if none is; the message lists the known names.
    """
    try:
        return _registry()[_key(name)]
    except KeyError:
        raise KeyError(f"unknown variant {name!r}; known: {', '.join(names())}") from None
