"""Columns over the 5,005 multisets of six card values: built once, reduced, summed.

The float path's core. A column is a number per signature (a bet's net, or 1 where an
event happens). Writing each coup's count into the six-value multisets that contain it,
once for each value every unused place can take, turns a column into a vector over the
5,005 multisets of six values (``leaf_table``), and a shoe's expectation of the column is
the sum of each multiset's weight times that vector, over ``N (N-1) ... (N-5)``: the
compiled kernel sums it for many shoes (``kernel_sums``), numpy for one (``numpy_sums``).
Columns that are combinations of others are summed once (``Reduced``).

>>> import numpy as np
>>> from baccarat.analysis.exact.signature import representatives
>>> tie = (representatives().winner == 2).astype(np.float64)[None, :]
>>> shoe = np.array([[128.0] + [32.0] * 9])
>>> round(float(numpy_sums(shoe, leaf_table(tie))[0, 0]), 6)
0.095156
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from baccarat.analysis.exact.coup_table import CODE_BASE, SIGNATURES, VALUE_CODES, coup_table
from baccarat.analysis.exact.signature import representatives

__all__ = [
    "LeafLayout",
    "Reduced",
    "kernel_levels",
    "kernel_sums",
    "leaf_layout",
    "leaf_table",
    "numpy_sums",
    "part_layout",
]

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]
#: A column this close to the span of others is taken to be a combination of them.
_TOLERANCE = 1e-9


class Reduced:
    """Columns written as a constant plus a combination of a few independent ones.

    The constant column's expectation is exactly 1, so only the basis is summed. The
    basis is found by Gram-Schmidt over the possible signatures; a column within
    ``_TOLERANCE`` of the span of those before it is a combination of them.
    """

    def __init__(self, columns: Floats) -> None:
        possible = representatives().winner >= 0
        rows = columns[:, possible].T
        ones = np.ones(rows.shape[0])
        orthonormal = [ones / np.linalg.norm(ones)]
        chosen: list[int] = []
        for i in range(rows.shape[1]):
            residual = rows[:, i].copy()
            for _ in range(2):  # twice: classical Gram-Schmidt loses orthogonality once
                for q in orthonormal:
                    residual -= (q @ residual) * q
            size = float(np.linalg.norm(residual))
            if size > _TOLERANCE * max(1.0, float(np.max(np.abs(rows[:, i])))):
                chosen.append(i)
                orthonormal.append(residual / size)
        basis = np.column_stack([ones, rows[:, chosen]])
        solution = np.asarray(np.linalg.lstsq(basis, rows, rcond=None)[0], dtype=np.float64)
        self.constant: Floats = solution[0]
        self.coefficients: Floats = solution[1:].T
        self.basis = columns[chosen].reshape(len(chosen), SIGNATURES)


def kernel_sums(values: Floats, table: Floats) -> Floats:
    """Each shoe's expectation of each column of ``table``, by the compiled kernel."""
    from baccarat.analysis.exact import kernels

    layout = leaf_layout()
    sums: Floats = kernels.value_sums(
        values, table, layout.parent, layout.last, layout.used, layout.start
    )
    return sums


def kernel_levels(ranks: Floats, cards: Floats | None, suited: bool) -> Floats:
    """``pair_levels.pair_level_probabilities`` by the compiled kernel."""
    from baccarat.analysis.exact import kernels

    card_counts = cards if suited and cards is not None else np.zeros((1, 52))
    levels: Floats = kernels.pair_levels(
        np.ascontiguousarray(ranks, dtype=np.float64),
        np.ascontiguousarray(card_counts, dtype=np.float64),
        suited,
    )
    return levels


def numpy_sums(values: Floats, table: Floats) -> Floats:
    """What ``kernels.value_sums`` computes, in numpy, one shoe at a time."""
    layout = leaf_layout()
    start = layout.start
    out = np.empty((values.shape[0], table.shape[0]))
    for k, counts in enumerate(values):
        low, high = _part_weights(counts[:5], layout), _part_weights(counts[5:], layout)
        blocks = []
        for s in range(7):
            a = low[start[s] : start[s + 1]]
            b = high[start[6 - s] : start[7 - s]]
            blocks.append(np.outer(a, b).ravel() if len(b) >= len(a) else np.outer(b, a).ravel())
        total = counts.sum()
        out[k] = table @ np.concatenate(blocks) / np.prod(total - np.arange(6))
    return out


def _part_weights(counts: Floats, layout: LeafLayout) -> Floats:
    weights = np.empty(len(layout.parent))
    weights[0] = 1.0
    for size in range(1, 7):
        part = slice(layout.start[size], layout.start[size + 1])
        weights[part] = weights[layout.parent[part]] * (
            counts[layout.last[part]] - layout.used[part]
        )
    return weights


@cache
def _leaf_counts() -> tuple[Floats, NDArray[np.int64]]:
    """How many coups (with their fills) of each signature each six-value multiset holds.

    A (5,005 leaves x possible signatures) matrix, built once per process; a rule set's
    table is this matrix times its columns.
    """
    table, layout = coup_table(), leaf_layout()
    possible = np.flatnonzero(representatives().winner >= 0)
    column_of = np.full(SIGNATURES, -1, dtype=np.int64)
    column_of[possible] = np.arange(len(possible))
    node = np.searchsorted(layout.all_codes, table.codes)[table.row_multiset]
    flat = node * len(possible) + column_of[table.row_signature]
    sums = np.bincount(
        flat, weights=table.row_count, minlength=len(layout.all_codes) * len(possible)
    ).reshape(len(layout.all_codes), len(possible))
    for size in (4, 5):
        # A coup of ``size`` cards counts once for each value the next unused place can
        # take; one more card of a given value never sends two multisets to the same one.
        nodes = np.flatnonzero(layout.all_sizes == size)
        for value in range(10):
            sums[layout.plus_one[nodes, value]] += sums[nodes]
    leaves = np.searchsorted(layout.all_codes, layout.leaf_codes)
    return np.ascontiguousarray(sums[leaves]), possible


def leaf_table(columns: Floats) -> Floats:
    """Each column summed over the coups and fills of each multiset of six values."""
    counts, possible = _leaf_counts()
    return np.ascontiguousarray((counts @ columns[:, possible].T).T)


@dataclass(frozen=True, eq=False)
class LeafLayout:
    """The compiled path's order of the 5,005 multisets of six values.

    A multiset of six values splits into its part among values 0-4 and its part among 5-9,
    and its weight is the product of the two parts' weights. The kernel computes the 462
    part weights of each half (multisets of size 0 to 6 over five values, smallest first,
    each from its ``parent`` by one more card of value ``last`` of which ``used`` are already
    in the parent), then the 5,005 leaves as outer products, block by block: for each size
    ``s`` of the low part, all low parts of size ``s`` against all high parts of size
    ``6 - s``, the longer of the two running innermost.
    """

    parent: Ints
    last: Ints
    used: Ints
    #: Where the parts of each size begin (8 offsets).
    start: Ints
    #: The code of each leaf, in the kernel's order.
    leaf_codes: Ints
    #: Every multiset of at most six values: codes (sorted), sizes, and the index of the
    #: multiset with one more card of each value (-1 when already six).
    all_codes: Ints
    all_sizes: Ints
    plus_one: Ints


@cache
def part_layout() -> tuple[Ints, Ints, Ints, Ints, list[tuple[int, ...]]]:
    """``parent``, ``last``, ``used`` and ``start`` of :class:`LeafLayout`, and the parts
    themselves: all the kernels need (a millisecond, where the whole layout takes 60).

    >>> [len(a) for a in part_layout()]
    [462, 462, 462, 8, 462]
    """
    parts: list[tuple[int, ...]] = [()]
    for size in range(1, 7):
        parts += itertools.combinations_with_replacement(range(5), size)
    index = {part: i for i, part in enumerate(parts)}
    parent = np.array([index[p[:-1]] if p else 0 for p in parts], dtype=np.int64)
    last = np.array([p[-1] if p else 0 for p in parts], dtype=np.int64)
    used = np.array([p[:-1].count(p[-1]) if p else 0 for p in parts], dtype=np.int64)
    sizes = np.array([len(p) for p in parts], dtype=np.int64)
    start = np.searchsorted(sizes, np.arange(8)).astype(np.int64)
    return parent, last, used, start, parts


@cache
def leaf_layout() -> LeafLayout:
    """The layout shared by the table builder and the compiled kernel (built once)."""
    parent, last, used, start, parts = part_layout()
    low = np.array([sum(CODE_BASE**v for v in p) for p in parts], dtype=np.int64)
    high = np.array([sum(CODE_BASE ** (5 + v) for v in p) for p in parts], dtype=np.int64)
    leaves: list[Ints] = []
    for s in range(7):
        a = low[start[s] : start[s + 1]]
        b = high[start[6 - s] : start[7 - s]]
        block = a[:, None] + b[None, :] if len(b) >= len(a) else (a[None, :] + b[:, None])
        leaves.append(block.ravel())
    every: list[int] = []
    for size in range(7):
        every += [
            sum(CODE_BASE**v for v in combo)
            for combo in itertools.combinations_with_replacement(range(10), size)
        ]
    all_codes = np.sort(np.array(every, dtype=np.int64))
    all_sizes = (all_codes[:, None] // VALUE_CODES[None, :] % CODE_BASE).sum(axis=1)
    bigger = all_codes[:, None] + VALUE_CODES[None, :]
    found = np.searchsorted(all_codes, bigger)
    plus_one = np.where(all_sizes[:, None] < 6, np.minimum(found, len(all_codes) - 1), -1)
    return LeafLayout(
        parent=parent,
        last=last,
        used=used,
        start=start,
        leaf_codes=np.concatenate(leaves),
        all_codes=all_codes,
        all_sizes=all_sizes.astype(np.int64),
        plus_one=plus_one.astype(np.int64),
    )
