"""The simulator's shoe loop in C (``baccarat.analysis.native``), with numba as the fallback.

:func:`run_batch` takes the arguments of ``kernel.run_batch`` and gives the same tallies
to the last coup: the C loop when the compiled library is at hand (it loads in about a
millisecond, where numba takes one to two seconds to start), else the numba kernel.

>>> import numpy as np
>>> from baccarat.analysis.simulate.batches import batch_state
>>> orders = shuffled_orders(batch_state(1, 0), 2, 1)
>>> orders.shape, sorted(orders[0].tolist()) == sorted(orders[1].tolist())
((2, 52), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baccarat.analysis.native import library
from baccarat.analysis.simulate.keys import CARD_CODES, N_KEYS, STEP

__all__ = ["run_batch", "shuffled_orders"]

Array = np.ndarray[Any, Any]


_CODES = np.ascontiguousarray(CARD_CODES, dtype=np.uint8)


def _pointer(array: Array) -> int:
    if not array.flags.c_contiguous:
        raise ValueError("the C kernels take contiguous arrays")
    return int(array.ctypes.data)


def run_batch(
    state: Array,
    shoes: int,
    decks: int,
    burn: bool,
    cut_card_from_end: int,
    finish: bool,
    strategies: tuple[Array, Array, Array, Array, Array, Array],
    key_counts: Array,
    shoe_net: Array,
    tc_events: Array,
    bet_events: Array,
) -> int:
    """``kernel.run_batch``: shuffle and deal ``shoes`` shoes, adding into the tallies."""
    lib = library()
    if lib is None:
        from baccarat.analysis.simulate import kernel

        return int(
            kernel.run_batch(
                state,
                shoes,
                decks,
                burn,
                cut_card_from_end,
                finish,
                strategies,
                key_counts,
                shoe_net,
                tc_events,
                bet_events,
            )
        )
    net, event, tags, counting, numerator, denominator = (
        np.ascontiguousarray(a, dtype=np.int64) for a in strategies
    )
    arrays = (state, key_counts, shoe_net, tc_events, bet_events)
    if state.dtype != np.uint64 or any(a.dtype != np.int64 for a in arrays[1:]):
        raise TypeError("run_batch takes a uint64 state and int64 tallies")
    if net.shape[1:] != (N_KEYS,) or key_counts.shape != (N_KEYS,):
        raise ValueError("tables by key must have N_KEYS entries")
    coups = lib.bk_run_batch(
        _pointer(state),
        shoes,
        decks,
        int(burn),
        cut_card_from_end,
        int(finish),
        _pointer(STEP),
        _pointer(_CODES),
        net.shape[0],
        N_KEYS,
        *(_pointer(a) for a in (net, event, tags, counting, numerator, denominator)),
        *(_pointer(a) for a in arrays[1:]),
    )
    if coups < 0:
        raise ValueError(f"a shoe holds 1 to 8 decks, not {decks}")
    return int(coups)


def shuffled_orders(state: Array, shoes: int, decks: int) -> Array:
    """``kernel.shuffled_orders``: the card orders (kernel bytes) ``run_batch`` would deal."""
    lib = library()
    if lib is None:
        from baccarat.analysis.simulate import kernel

        orders: Array = kernel.shuffled_orders(state, shoes, decks)
        return orders
    out = np.empty((shoes, 52 * decks), dtype=np.uint8)
    lib.bk_shuffled_orders(_pointer(state), shoes, decks, _pointer(_CODES), _pointer(out))
    return out
