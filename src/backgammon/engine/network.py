"""The evaluation networks and their weights files.

A :class:`Network` is a multilayer perceptron with one hidden layer::

    inputs --W1,b1--> hidden (logistic sigmoid) --W2,b2--> 5 outputs (logistic sigmoid)

Its five outputs follow GNU Backgammon's convention, for the side on roll before it
rolls (cubeless): P(win), P(win a gammon), P(win a backgammon), P(lose a gammon),
P(lose a backgammon); gammon probabilities include backgammons. The parameters live in
one contiguous ``float32`` vector: ``W1`` row-major ``[inputs, hidden]``, ``b1``, ``W2``
stored transposed (row-major ``[5, hidden]``), ``b2``. :attr:`Network.w1`,
:attr:`Network.b1`, :attr:`Network.w2` (``[hidden, 5]``, a transposed view),
:attr:`Network.w2t` and :attr:`Network.b2` are views into it, so a trainer that updates
them in place updates the network.

The forward passes all compute the same function, to float32 rounding (about ``1e-6``):

* :meth:`Network.forward`, for batches of input vectors, in NumPy (two ``float32``
  matrix products through BLAS, the sigmoid in place);
* the Numba kernels :func:`hidden_into` (the hidden layer's pre-activations of one input
  vector, adding up only the rows of ``W1`` whose input is non-zero: about 36 of 242
  for a typical contact position) and :func:`outputs_into` (the output layer), which
  the evaluator runs over batches without BLAS (so without BLAS threads), and
  :func:`forward_one`, both layers for one vector.

Raw outputs need not be consistent with each other; :func:`make_consistent` clips them
so that ``win >= win_gammon >= win_backgammon`` and
``1 - win >= lose_gammon >= lose_backgammon`` (each in ``[0, 1]``). The evaluator applies
it, with what the position itself tells (see :mod:`backgammon.engine.evaluator`).

:class:`Networks` bundles the contact, race and crashed networks, and any networks of
game plans (:data:`PLAN_NETWORK_NAMES`: a contact position of that plan is theirs), with
their :class:`WeightsMetadata`, and reads and writes a weights file: a NumPy ``.npz``
archive holding, for each network ``NAME``, the arrays ``NAME.w1``, ``NAME.b1``,
``NAME.w2``, ``NAME.b2`` (``float32``), plus ``metadata``, a 0-d unicode array holding a
JSON object (:meth:`WeightsMetadata.to_json`). Files never need pickle.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.engine.encoding import (
    CONTACT_ENCODING,
    CONTACT_FAMILY,
    CONTACT_INPUTS,
    ENCODINGS,
    RACE_ENCODING,
    RACE_INPUTS,
)
from backgammon.engine.plans import Plan
from backgammon.errors import EngineError

__all__ = [
    "DEFAULT_HIDDEN",
    "FORMAT_VERSION",
    "NETWORK_NAMES",
    "OUTPUTS",
    "OUTPUT_NAMES",
    "PLAN_NETWORK_NAMES",
    "Network",
    "Networks",
    "WeightsMetadata",
    "forward_one",
    "hidden_into",
    "make_consistent",
    "make_consistent_rows",
    "outputs_into",
    "sigmoid_inplace",
]

FORMAT_VERSION = 1
"""The version of the weights file format this module reads and writes."""
OUTPUTS = 5
"""Outputs of every network."""
OUTPUT_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
"""The five outputs, in order."""
DEFAULT_HIDDEN = 128
"""Hidden units of the default networks (GNU Backgammon's contact net has 128 too)."""
NETWORK_NAMES = ("contact", "race", "crashed")
"""The networks every :class:`Networks` bundle has, in file order."""
PLAN_NETWORK_NAMES: Mapping[Plan, str] = {
    plan: plan.name.lower() for plan in Plan if plan is not Plan.RACE
}
"""The name of each contact plan's network (``Plan.BLITZ``: ``"blitz"``), where a
bundle has one (:attr:`Networks.plans`)."""

_DEFAULT_ENCODINGS = {
    "contact": CONTACT_ENCODING,
    "race": RACE_ENCODING,
    "crashed": CONTACT_ENCODING,
}
# Output biases of a fresh network: the logits of rough prior rates of each result, so
# that an untrained network already answers in a plausible range.
_PRIOR_LOGITS = np.array(
    [
        0.0,
        math.log(0.15 / 0.85),
        math.log(0.01 / 0.99),
        math.log(0.15 / 0.85),
        math.log(0.01 / 0.99),
    ],
    dtype=np.float32,
)

Params = npt.NDArray[np.float32]
_Floats = TypeVar("_Floats", bound=npt.NDArray[np.floating[Any]])


def sigmoid_inplace(values: _Floats) -> _Floats:
    """The logistic function of every value, in place (returns ``values``)."""
    np.negative(values, out=values)
    with np.errstate(over="ignore"):
        np.exp(values, out=values)
    np.add(values, 1.0, out=values)
    np.reciprocal(values, out=values)
    return values


class Network:
    """One multilayer perceptron: ``inputs -> hidden (sigmoid) -> 5 (sigmoid)``.

    Build one with :meth:`random` or :meth:`from_arrays`; a :class:`Networks` bundle
    reads and writes them.

    Attributes:
        encoding: the name of the input encoding it expects (e.g. ``"contact-v1"``).
        inputs: the number of inputs.
        hidden: the number of hidden units.
        params: every parameter in one contiguous ``float32`` vector (see the module
            doc); ``w1``, ``b1``, ``w2``, ``b2`` are views into it.
    """

    __slots__ = ("b1", "b2", "encoding", "hidden", "inputs", "params", "w1", "w2", "w2t")

    encoding: str
    inputs: int
    hidden: int
    params: Params
    w1: Params
    b1: Params
    w2: Params
    w2t: Params
    b2: Params

    def __init__(self, params: npt.ArrayLike, inputs: int, hidden: int, encoding: str) -> None:
        """Wrap a flat parameter vector of ``inputs * hidden + hidden + hidden * 5 + 5``
        values (copied to ``float32`` if it is not already a contiguous one).

        Raises:
            ValueError: if the sizes do not match or are not positive.
        """
        if inputs < 1 or hidden < 1:
            raise ValueError(f"a network needs inputs and hidden units, got {inputs}, {hidden}")
        vector = np.ascontiguousarray(params, dtype=np.float32).reshape(-1)
        expected = _parameter_count(inputs, hidden)
        if vector.shape[0] != expected:
            raise ValueError(
                f"a {inputs}-{hidden}-{OUTPUTS} network has {expected} parameters, "
                f"got {vector.shape[0]}"
            )
        self.params = vector
        self.inputs = inputs
        self.hidden = hidden
        self.encoding = encoding
        end_w1 = inputs * hidden
        end_b1 = end_w1 + hidden
        end_w2 = end_b1 + hidden * OUTPUTS
        self.w1 = vector[:end_w1].reshape(inputs, hidden)
        self.b1 = vector[end_w1:end_b1]
        self.w2t = vector[end_b1:end_w2].reshape(OUTPUTS, hidden)
        self.w2 = self.w2t.T
        self.b2 = vector[end_w2:]

    @classmethod
    def from_arrays(
        cls,
        w1: npt.ArrayLike,
        b1: npt.ArrayLike,
        w2: npt.ArrayLike,
        b2: npt.ArrayLike,
        encoding: str,
    ) -> Network:
        """Build a network from its four weight arrays (``w1[inputs, hidden]``,
        ``b1[hidden]``, ``w2[hidden, 5]``, ``b2[5]``), copied.

        Raises:
            ValueError: if the shapes do not fit together.
        """
        a1, c1, a2, c2 = (np.asarray(array, dtype=np.float32) for array in (w1, b1, w2, b2))
        if a1.ndim != 2:
            raise ValueError(f"w1 must be [inputs, hidden], got shape {a1.shape}")
        inputs, hidden = a1.shape
        if c1.shape != (hidden,) or a2.shape != (hidden, OUTPUTS) or c2.shape != (OUTPUTS,):
            raise ValueError(
                f"shapes do not fit a {inputs}-{hidden}-{OUTPUTS} network: w1 {a1.shape}, "
                f"b1 {c1.shape}, w2 {a2.shape}, b2 {c2.shape}"
            )
        flat = np.concatenate([a1.reshape(-1), c1, a2.T.reshape(-1), c2])
        return cls(flat, inputs, hidden, encoding)

    @classmethod
    def random(
        cls, inputs: int, hidden: int, encoding: str, seed: int | tuple[int, ...]
    ) -> Network:
        """A freshly initialised network, the same for the same ``seed``.

        Weights are drawn uniformly from ``±sqrt(6 / (fan_in + fan_out))`` (Glorot),
        hidden biases are zero, and the output biases are the logits of rough prior
        rates (win 0.5, gammon 0.15, backgammon 0.01 each way).
        """
        rng = np.random.default_rng(seed)
        limit1 = math.sqrt(6.0 / (inputs + hidden))
        limit2 = math.sqrt(6.0 / (hidden + OUTPUTS))
        w1 = rng.uniform(-limit1, limit1, size=(inputs, hidden))
        w2 = rng.uniform(-limit2, limit2, size=(hidden, OUTPUTS))
        return cls.from_arrays(w1, np.zeros(hidden), w2, _PRIOR_LOGITS, encoding)

    def forward(self, inputs: npt.ArrayLike) -> Params:
        """The raw outputs ``float32[n, 5]`` for inputs ``[n, inputs]`` (one matrix
        product per layer; not yet made consistent).

        Raises:
            ValueError: if the inputs have the wrong width.
        """
        batch = np.asarray(inputs, dtype=np.float32)
        if batch.ndim != 2 or batch.shape[1] != self.inputs:
            raise ValueError(f"expected inputs of shape (n, {self.inputs}), got {batch.shape}")
        hidden: Params = np.asarray(batch @ self.w1, dtype=np.float32)
        hidden += self.b1
        sigmoid_inplace(hidden)
        outputs: Params = np.asarray(hidden @ self.w2, dtype=np.float32)
        outputs += self.b2
        return sigmoid_inplace(outputs)

    def copy(self) -> Network:
        """An independent copy (its own parameter vector)."""
        return Network(self.params.copy(), self.inputs, self.hidden, self.encoding)

    def widened(self, hidden: int, seed: int | tuple[int, ...] = 0) -> Network:
        """The same function with ``hidden`` hidden units (at least as many as now):
        the new units get small random input weights and zero output weights, so the
        outputs are unchanged until training gives the new units a say.

        Raises:
            ValueError: if ``hidden`` is smaller than the current size.
        """
        if hidden < self.hidden:
            raise ValueError(f"cannot widen {self.hidden} hidden units to {hidden}")
        rng = np.random.default_rng(seed)
        extra = hidden - self.hidden
        w1 = np.concatenate((self.w1, rng.normal(0.0, 0.01, size=(self.inputs, extra))), axis=1)
        b1 = np.concatenate((self.b1, np.zeros(extra)))
        w2 = np.concatenate((self.w2, np.zeros((extra, OUTPUTS))), axis=0)
        return Network.from_arrays(w1, b1, w2, self.b2, self.encoding)

    def __repr__(self) -> str:
        return f"<Network {self.encoding} {self.inputs}-{self.hidden}-{OUTPUTS}>"


def _parameter_count(inputs: int, hidden: int) -> int:
    return inputs * hidden + hidden + hidden * OUTPUTS + OUTPUTS


# Reassociation lets LLVM vectorise the loops; no finite-math assumptions (exp may
# overflow to inf, which the sigmoid turns into 0 as it should).
_FAST = {"reassoc", "contract", "nsz", "arcp"}


@njit(cache=True, fastmath=_FAST)
def hidden_into(x: Params, w1: Params, b1: Params, acc: Params) -> None:
    """The hidden layer's pre-activations ``b1 + x @ w1`` of one input vector into
    ``acc``, adding only the rows of ``w1`` whose input is non-zero."""
    hidden = acc.shape[0]
    # Not ``acc[:] = b1``: an array assigned to a slice costs Numba over a second more
    # to compile (the message of its shape check), for no speed.
    for j in range(hidden):
        acc[j] = b1[j]
    # The non-zero inputs, then their rows four at a time: one pass over ``acc`` per
    # four rows of ``w1`` (the loop is bound by loads and stores, not arithmetic).
    index = np.empty(x.shape[0], dtype=np.int64)
    count = 0
    for i in range(x.shape[0]):
        if x[i] != 0.0:
            index[count] = i
            count += 1
    k = 0
    while k + 4 <= count:
        i0, i1, i2, i3 = index[k], index[k + 1], index[k + 2], index[k + 3]
        v0, v1, v2, v3 = x[i0], x[i1], x[i2], x[i3]
        for j in range(hidden):
            acc[j] += v0 * w1[i0, j] + v1 * w1[i1, j] + v2 * w1[i2, j] + v3 * w1[i3, j]
        k += 4
    while k < count:
        i0 = index[k]
        v0 = x[i0]
        for j in range(hidden):
            acc[j] += v0 * w1[i0, j]
        k += 1


@njit(cache=True, fastmath=_FAST)
def outputs_into(hidden: Params, w2t: Params, b2: Params, out: Params) -> None:
    """The five outputs ``sigmoid(b2 + hidden @ w2)`` of one vector of hidden
    activations into ``out`` (``w2t`` is ``W2`` transposed, ``[5, hidden]``)."""
    for k in range(OUTPUTS):
        total = b2[k]
        for j in range(hidden.shape[0]):
            total += hidden[j] * w2t[k, j]
        out[k] = 1.0 / (1.0 + math.exp(-max(total, -80.0)))


@njit(cache=True, fastmath=_FAST)
def forward_one(x: Params, w1: Params, b1: Params, w2t: Params, b2: Params, out: Params) -> None:
    """The raw outputs of one input vector ``x`` into ``out[:5]`` (both layers, zero
    inputs skipped)."""
    acc = np.empty(b1.shape[0], dtype=np.float32)
    hidden_into(x, w1, b1, acc)
    for j in range(acc.shape[0]):
        acc[j] = 1.0 / (1.0 + math.exp(-max(acc[j], -80.0)))
    outputs_into(acc, w2t, b2, out)


@njit(cache=True)
def make_consistent(p: Params) -> None:
    """Clip five outputs in place so that each lies in ``[0, 1]``,
    ``win >= win_gammon >= win_backgammon`` and
    ``1 - win >= lose_gammon >= lose_backgammon``."""
    for k in range(OUTPUTS):
        p[k] = min(max(p[k], 0.0), 1.0)
    p[1] = min(p[1], p[0])
    p[2] = min(p[2], p[1])
    p[3] = min(p[3], 1.0 - p[0])
    p[4] = min(p[4], p[3])


@njit(cache=True)
def make_consistent_rows(probs: Params) -> None:
    """:func:`make_consistent` on every row of ``probs[n, 5]``."""
    for row in range(probs.shape[0]):
        make_consistent(probs[row])


def _today() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class WeightsMetadata:
    """What a weights file says about its networks.

    Attributes:
        trained: whether the weights were trained; ``False`` for a random
            initialisation, which plays no better than chance.
        training_games: self-play games the weights were trained on.
        strength: measured strength, free-form JSON data (e.g.
            ``{"opponent": "gnubg 0-ply", "ppg": -0.4, "games": 2000}``); empty if
            never measured.
        date: when the file was made (ISO 8601, UTC).
        notes: free text.
        variant: the variant the networks are for (its registry name).
        checkers: checkers per side the encodings were scaled for.
        seed: the seed of the random initialisation, if known.
        extra: any other JSON data (training settings, ...).
        format_version: the file format version.
    """

    trained: bool = False
    training_games: int = 0
    strength: Mapping[str, Any] = field(default_factory=dict, hash=False)
    date: str = field(default_factory=_today)
    notes: str = ""
    variant: str = "standard"
    checkers: int = 15
    seed: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)
    format_version: int = FORMAT_VERSION

    def to_json(self, networks: Mapping[str, Network] | None = None) -> str:
        """The JSON object stored in a weights file; with ``networks``, it also
        describes each network's encoding and sizes."""
        data = dataclasses.asdict(self)
        data["strength"] = dict(self.strength)
        data["extra"] = dict(self.extra)
        if networks is not None:
            data["networks"] = {
                name: {
                    "encoding": net.encoding,
                    "inputs": net.inputs,
                    "hidden": net.hidden,
                    "outputs": OUTPUTS,
                }
                for name, net in networks.items()
            }
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> WeightsMetadata:
        """Read the JSON object of a weights file (unknown keys other than
        ``networks`` go to :attr:`extra`).

        Raises:
            EngineError: if it is not a JSON object or has a newer format version.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise EngineError(f"weights metadata is not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise EngineError(f"weights metadata must be a JSON object, got {text[:60]!r}")
        version = data.get("format_version")
        if not isinstance(version, int) or version > FORMAT_VERSION or version < 1:
            raise EngineError(
                f"weights format version {version!r} is not supported "
                f"(this library reads 1..{FORMAT_VERSION})"
            )
        data.pop("networks", None)
        known = {item.name for item in dataclasses.fields(cls)}
        extra = dict(data.pop("extra", {}) or {})
        extra.update({key: data.pop(key) for key in list(data) if key not in known})
        try:
            return cls(**data, extra=extra)
        except TypeError as exc:
            raise EngineError(f"bad weights metadata: {exc}") from None


@dataclass(frozen=True)
class Networks:
    """The evaluator's networks, by position class and game plan, with their metadata.

    Attributes:
        contact: for positions with contact.
        race: for races (and bear-offs no database covers).
        crashed: for contact positions where a side has few checkers left in play.
        metadata: what the weights file says about them.
        plans: networks of game plans, by name (:data:`PLAN_NETWORK_NAMES`): a
            contact position (not a crashed one) whose plan
            (:func:`~backgammon.engine.plans.plan_of`) has one is evaluated by it
            instead of the contact network. Empty by default.
    """

    contact: Network
    race: Network
    crashed: Network
    metadata: WeightsMetadata = field(default_factory=WeightsMetadata)
    plans: Mapping[str, Network] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        for name, net in self.by_name().items():
            size = ENCODINGS.get(net.encoding)
            if size is None:
                raise EngineError(f"the {name} network uses an unknown encoding {net.encoding!r}")
            if size != net.inputs:
                raise EngineError(
                    f"the {name} network has {net.inputs} inputs, "
                    f"its encoding {net.encoding!r} gives {size}"
                )
        if self.race.encoding != RACE_ENCODING:
            raise EngineError(f"the race network must use {RACE_ENCODING!r}")
        if self.contact.encoding not in CONTACT_FAMILY:
            raise EngineError(
                f"the contact network must use a contact encoding "
                f"({', '.join(map(repr, CONTACT_FAMILY))})"
            )
        unknown = sorted(set(self.plans) - set(PLAN_NETWORK_NAMES.values()))
        if unknown:
            raise EngineError(
                f"no game plan is called {', '.join(map(repr, unknown))} (plans: "
                f"{', '.join(PLAN_NETWORK_NAMES.values())})"
            )
        for name, net in self.by_name().items():
            if name != "race" and net.encoding != self.contact.encoding:
                raise EngineError(
                    f"the contact and {name} networks must use the same encoding, got "
                    f"{self.contact.encoding!r} and {net.encoding!r}"
                )

    def with_contact_encoding(self, encoding: str) -> Networks:
        """The same networks with the contact and crashed networks reading
        ``encoding`` (one of the same size, e.g. ``plakoto-v1``): the weights are
        unchanged, so training goes on from them.

        Raises:
            EngineError: if ``encoding`` is not a contact encoding.
        """
        if encoding not in CONTACT_FAMILY:
            raise EngineError(f"{encoding!r} is not a contact encoding")
        return self.with_networks(
            {
                name: Network(net.params.copy(), net.inputs, net.hidden, encoding)
                for name, net in self.by_name().items()
                if name != "race"
            }
        )

    @classmethod
    def random(
        cls,
        seed: int = 0,
        hidden: int = DEFAULT_HIDDEN,
        *,
        race_hidden: int | None = None,
        checkers: int = 15,
        variant: str = "standard",
        notes: str = "untrained: random initialisation",
    ) -> Networks:
        """Freshly initialised (untrained) networks, the same for the same ``seed``.

        The metadata says ``trained=False``.
        """
        sizes = {
            "contact": (CONTACT_INPUTS, hidden),
            "race": (RACE_INPUTS, hidden if race_hidden is None else race_hidden),
            "crashed": (CONTACT_INPUTS, hidden),
        }
        nets = {
            name: Network.random(inputs, units, _DEFAULT_ENCODINGS[name], (seed, index))
            for index, (name, (inputs, units)) in enumerate(sizes.items())
        }
        metadata = WeightsMetadata(
            trained=False, notes=notes, variant=variant, checkers=checkers, seed=seed
        )
        return cls(nets["contact"], nets["race"], nets["crashed"], metadata)

    def widened(self, hidden: int, seed: int = 0) -> Networks:
        """Every network widened to at least ``hidden`` hidden units (see
        :meth:`Network.widened`; networks already that wide are copied)."""
        return self.with_networks(
            {
                name: net.widened(max(hidden, net.hidden), (seed, index))
                for index, (name, net) in enumerate(self.by_name().items())
            }
        )

    def by_name(self) -> dict[str, Network]:
        """Every network by name: ``"contact"``, ``"race"``, ``"crashed"``, then the
        plans' networks (:attr:`plans`) in the order of :data:`PLAN_NETWORK_NAMES`."""
        named = {name: getattr(self, name) for name in NETWORK_NAMES}
        named.update(
            (name, self.plans[name]) for name in PLAN_NETWORK_NAMES.values() if name in self.plans
        )
        return named

    def plan_networks(self) -> dict[Plan, Network]:
        """The plans' networks by :class:`~backgammon.engine.plans.Plan`."""
        return {
            plan: self.plans[name]
            for plan, name in PLAN_NETWORK_NAMES.items()
            if name in self.plans
        }

    def replace(self, **changes: Any) -> Networks:
        """A copy with some fields changed (networks, ``plans`` or ``metadata``)."""
        return dataclasses.replace(self, **changes)

    def with_networks(self, networks: Mapping[str, Network]) -> Networks:
        """A copy with the networks named in ``networks`` (any of :meth:`by_name`'s
        names, or a plan's network to add) replaced or added.

        Raises:
            EngineError: if a name is neither a class's nor a plan's network.
        """
        core = {name: net for name, net in networks.items() if name in NETWORK_NAMES}
        plans = {name: net for name, net in networks.items() if name not in NETWORK_NAMES}
        return self.replace(**core, plans={**self.plans, **plans})

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write a weights file (``.npz``, see the module doc).

        Raises:
            OSError: if the file cannot be written.
        """
        arrays: dict[str, Any] = {}
        for name, net in self.by_name().items():
            arrays[f"{name}.w1"] = net.w1
            arrays[f"{name}.b1"] = net.b1
            arrays[f"{name}.w2"] = net.w2
            arrays[f"{name}.b2"] = net.b2
        arrays["metadata"] = np.array(self.metadata.to_json(self.by_name()))
        with open(path, "wb") as handle:
            np.savez_compressed(handle, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Networks:
        """Read a weights file written by :meth:`save`.

        Raises:
            EngineError: if the file is not a weights file of a supported version, or
                its networks do not match their encodings.
            OSError: if it cannot be read.
        """
        try:
            archive = np.load(path, allow_pickle=False)
        except (ValueError, EOFError) as exc:
            raise EngineError(f"{os.fspath(path)!r} is not a weights file: {exc}") from None
        with archive:
            if "metadata" not in archive.files:
                raise EngineError(f"{os.fspath(path)!r} has no metadata: not a weights file")
            text = str(archive["metadata"][()])
            metadata = WeightsMetadata.from_json(text)
            described = json.loads(text).get("networks", {})
            nets: dict[str, Network] = {}
            present = {key.partition(".")[0] for key in archive.files}
            for name in (*NETWORK_NAMES, *PLAN_NETWORK_NAMES.values()):
                if name in NETWORK_NAMES or name in present:
                    nets[name] = _read_network(archive, name, described, path)
        plans = {name: net for name, net in nets.items() if name not in NETWORK_NAMES}
        return cls(nets["contact"], nets["race"], nets["crashed"], metadata, plans)

    def __repr__(self) -> str:
        state = "trained" if self.metadata.trained else "untrained"
        sizes = ", ".join(
            f"{name} {net.inputs}-{net.hidden}-5" for name, net in self.by_name().items()
        )
        return f"<Networks {state}: {sizes}>"


def _read_network(
    archive: Any, name: str, described: Mapping[str, Any], path: str | os.PathLike[str]
) -> Network:
    """Network ``name`` of an open weights file (its encoding as the file describes it)."""
    keys = [f"{name}.{part}" for part in ("w1", "b1", "w2", "b2")]
    missing = [key for key in keys if key not in archive.files]
    if missing:
        raise EngineError(f"{os.fspath(path)!r} lacks {', '.join(missing)}")
    encoding = described.get(name, {}).get(
        "encoding", _DEFAULT_ENCODINGS.get(name, CONTACT_ENCODING)
    )
    w1, b1, w2, b2 = (archive[key] for key in keys)
    try:
        return Network.from_arrays(w1, b1, w2, b2, encoding)
    except ValueError as exc:
        raise EngineError(f"{os.fspath(path)!r}, {name} network: {exc}") from None
