"""Which network serves a contact position: the networks of game plans.

A weights file may add a network for any contact plan
(:attr:`~backgammon.engine.network.Networks.plans`); a ``CONTACT``-class position
whose plan (:func:`~backgammon.engine.plans.plan_of`'s rule, run by the Numba kernel
:func:`~backgammon.engine.plans.plan_index_of_board`) has one is evaluated by it,
every other by the contact network. The batch path splits its rows here; the
one-position kernel reads the plans' networks as one table.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from backgammon.engine.network import PLAN_NETWORK_NAMES, Networks
from backgammon.engine.plans import PLANS, plan_indexes

__all__ = ["plan_table", "split_by_plan"]

Boards = npt.NDArray[np.uint8]
Parameters = npt.NDArray[np.float32]


def split_by_plan(
    networks: Networks, boards: Boards, rows: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], dict[str, npt.NDArray[np.int64]]]:
    """Which of the contact ``boards[rows]`` a plan's network serves
    (:attr:`Networks.plans`): ``(rows left to the contact network, {name: rows})``,
    the rows in their order. With no plan networks, nothing is classified."""
    if not networks.plans or rows.shape[0] == 0:
        return rows, {}
    plans = plan_indexes(boards, rows)
    left = np.ones(rows.shape[0], dtype=bool)
    served: dict[str, npt.NDArray[np.int64]] = {}
    for plan, name in PLAN_NETWORK_NAMES.items():
        if name in networks.plans:
            mine = plans == PLANS.index(plan)
            if mine.any():
                served[name] = rows[mine]
                left &= ~mine
    return rows[left], served


def plan_table(networks: Networks) -> tuple[Parameters, npt.NDArray[np.int64]]:
    """The plans' networks as one kernel argument: row ``i`` of ``float32[plans, size]``
    holds the parameters of plan ``PLANS[i]``'s network (zero-padded), and
    ``int64[plans]`` its hidden units (0: the plan has none)."""
    by_plan = networks.plan_networks()
    size = max((net.params.shape[0] for net in by_plan.values()), default=1)
    params = np.zeros((len(PLANS), size), dtype=np.float32)
    hidden = np.zeros(len(PLANS), dtype=np.int64)
    for plan, net in by_plan.items():
        row = PLANS.index(plan)
        params[row, : net.params.shape[0]] = net.params
        hidden[row] = net.hidden
    return params, hidden
