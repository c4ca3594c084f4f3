"""The compiled kernels of the float path (numba, cached on disk after the first run).

Only ``multiset_sums`` (the float path, for batches of shoes) and ``baccarat.analysis.trace``
import this module, so the exact path, and a single shoe's odds, never load numba.
Each kernel is compiled the first time it is called.
Indices in the inner loops are plain ``range`` counters over array views: a computed
index makes numba check for negative indices and stops the loop from vectorising.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from baccarat.analysis.jit import load_numba

__all__ = ["deal_shoes", "pair_levels", "remaining_cards", "value_sums"]

F = TypeVar("F", bound=Callable[..., Any])
Floats = NDArray[np.float64]
Ints = NDArray[np.int64]

#: Compositions weighed together, so each block of the table is read once per batch.
_BATCH = 8
numba = load_numba()  # without the scipy numba would import for its BLAS check
_CHUNK = 512


def _compiled(function: F) -> F:
    return cast(F, numba.njit(cache=True, fastmath=True, nogil=True)(function))


@_compiled
def _part_weights(n: Floats, parent: Ints, last: Ints, used: Ints, w: Floats) -> None:
    # The falling-factorial products of every multiset of at most six cards over five values.
    w[0] = 1.0
    for i in range(1, w.shape[0]):
        w[i] = w[parent[i]] * (n[last[i]] - used[i])


@_compiled
def _leaf_weights(low: Floats, high: Floats, start: Ints, leaves: Floats) -> None:
    pos = 0
    for s in range(7):
        a0 = start[s]
        na = start[s + 1] - a0
        b0 = start[6 - s]
        nb = start[7 - s] - b0
        if nb >= na:
            src = high[b0 : b0 + nb]
            for a in range(na):
                x = low[a0 + a]
                dst = leaves[pos : pos + nb]
                for b in range(nb):
                    dst[b] = x * src[b]
                pos += nb
        else:
            src = low[a0 : a0 + na]
            for b in range(nb):
                x = high[b0 + b]
                dst = leaves[pos : pos + na]
                for a in range(na):
                    dst[a] = x * src[a]
                pos += na


@_compiled
def _dots(block: Floats, table: Floats, sums: Floats) -> None:
    # sums[k, j] += block[k] . table[j], four shoes and two columns per pass over a chunk
    # of leaves, so each value loaded feeds several multiply-adds.
    columns = table.shape[0]
    leaves = table.shape[1]
    for i0 in range(0, leaves, _CHUNK):
        n = min(_CHUNK, leaves - i0)
        for j in range(0, columns, 2):
            v = table[j, i0 : i0 + n]
            u = table[min(j + 1, columns - 1), i0 : i0 + n]
            for k in range(0, _BATCH, 4):
                w0 = block[k, i0 : i0 + n]
                w1 = block[k + 1, i0 : i0 + n]
                w2 = block[k + 2, i0 : i0 + n]
                w3 = block[k + 3, i0 : i0 + n]
                a0 = a1 = a2 = a3 = b0 = b1 = b2 = b3 = 0.0
                for i in range(n):
                    x = v[i]
                    y = u[i]
                    a0 += w0[i] * x
                    a1 += w1[i] * x
                    a2 += w2[i] * x
                    a3 += w3[i] * x
                    b0 += w0[i] * y
                    b1 += w1[i] * y
                    b2 += w2[i] * y
                    b3 += w3[i] * y
                sums[k, j] += a0
                sums[k + 1, j] += a1
                sums[k + 2, j] += a2
                sums[k + 3, j] += a3
                if j + 1 < columns:
                    sums[k, j + 1] += b0
                    sums[k + 1, j + 1] += b1
                    sums[k + 2, j + 1] += b2
                    sums[k + 3, j + 1] += b3


@_compiled
def value_sums(
    values: Floats, table: Floats, parent: Ints, last: Ints, used: Ints, start: Ints
) -> Floats:
    """For each shoe (row of ``values``, counts by value): the expectation of each column.

    ``table[j, leaf]`` is column ``j`` summed over the coups (and fills) of each multiset of
    six values; a shoe's weight for a leaf is the product of falling factorials of its
    counts, and the sum over leaves divided by ``N (N-1) ... (N-5)`` is the expectation.
    """
    shoes = values.shape[0]
    columns = table.shape[0]
    out = np.zeros((shoes, columns))
    low = np.empty(parent.shape[0])
    high = np.empty(parent.shape[0])
    block = np.zeros((_BATCH, table.shape[1]))
    sums = np.zeros((_BATCH, columns))
    for k0 in range(0, shoes, _BATCH):
        kn = min(_BATCH, shoes - k0)
        for k in range(kn):
            n = values[k0 + k]
            _part_weights(n[:5], parent, last, used, low)
            _part_weights(n[5:], parent, last, used, high)
            _leaf_weights(low, high, start, block[k])
        block[kn:, :] = 0.0
        sums[:, :] = 0.0
        _dots(block, table, sums)
        for k in range(kn):
            total = values[k0 + k].sum()
            scale = 1.0
            for i in range(6):
                scale *= total - i
            for j in range(columns):
                out[k0 + k, j] = sums[k, j] / scale
    return out


@_compiled
def pair_levels(ranks: Floats, cards: Floats, suited: bool) -> Floats:
    """``baccarat.analysis.exact.pair_levels.pair_level_probabilities``, compiled, for many shoes.

    The same closed forms, written as loops: ordered pairs of the same rank (``A``) and
    of the same card (``S``), and ordered fours where both hands pair, by level.
    """
    shoes = ranks.shape[0]
    out = np.empty((shoes, 9))
    for k in range(shoes):
        r = ranks[k]
        total = 0.0
        same_rank = 0.0
        for i in range(13):
            total += r[i]
            same_rank += r[i] * (r[i] - 1)
        rank_rank = 0.0
        for i in range(13):
            pairs = r[i] * (r[i] - 1)
            rank_rank += pairs * (same_rank - pairs + (r[i] - 2) * (r[i] - 3))
        same_card = card_rank = card_card = 0.0
        if suited:
            c = cards[k]
            for i in range(52):
                same_card += c[i] * (c[i] - 1)
            for i in range(52):
                pairs = c[i] * (c[i] - 1)
                y = r[i % 13]
                card_rank += pairs * (same_rank - y * (y - 1) + (y - 2) * (y - 3))
                card_card += pairs * (same_card - pairs + (c[i] - 2) * (c[i] - 3))
        rest = (total - 2) * (total - 3)
        fours = total * (total - 1) * rest
        p = out[k]
        p[8] = card_card
        p[7] = p[5] = card_rank - card_card
        p[4] = rank_rank - 2 * card_rank + card_card
        p[6] = p[2] = same_card * rest - card_rank
        p[3] = p[1] = (same_rank - same_card) * rest - rank_rank + card_rank
        p[0] = fours - (p[1] + p[2] + p[3] + p[4] + p[5] + p[6] + p[7] + p[8])
        for i in range(9):
            p[i] /= fours
    return out


@_compiled
def deal_shoes(
    orders: Ints,
    first: Ints,
    cut_position: Ints,
    finish_at_cut: bool,
    last_coup_due: bool,
    points: Ints,
    player_draws: NDArray[np.bool_],
    banker_draws: NDArray[np.bool_],
) -> tuple[Ints, Ints]:
    """Deal every shoe (a row of card numbers) as ``Shoe.coups`` does, without the cards.

    Returns, per shoe, the position of the first card of each coup (-1 after the last) and
    the number of coups. ``first`` is each shoe's next card (after the burn); the cut card
    and the last-coup rule follow ``baccarat.shoe.Shoe.deal_coup`` (``last_coup_due``: the
    cut card is already out, so the next coup is the last).
    """
    shoes = orders.shape[0]
    length = orders.shape[1]
    starts = np.full((shoes, length // 4 + 1), -1, dtype=np.int64)
    counts = np.zeros(shoes, dtype=np.int64)
    for s in range(shoes):
        order = orders[s]
        position = first[s]
        due = last_coup_due
        coups = 0
        while length - position >= 6:
            starts[s, coups] = position
            coups += 1
            p = (points[order[position]] + points[order[position + 2]]) % 10
            b = (points[order[position + 1]] + points[order[position + 3]]) % 10
            position += 4
            if p < 8 and b < 8:
                third = 10
                if player_draws[p]:
                    third = points[order[position]]
                    p = (p + third) % 10
                    position += 1
                if banker_draws[b, third]:
                    position += 1
            if due:
                break
            if position > cut_position[s]:
                if finish_at_cut:
                    break
                due = True
        counts[s] = coups
    return starts, counts


@_compiled
def remaining_cards(orders: Ints, starts: Ints, coups: Ints) -> Floats:
    """The count of each card number (0-51) not yet dealt before each coup, shoe after shoe."""
    out = np.zeros((coups.sum(), 52))
    row = 0
    for s in range(orders.shape[0]):
        order = orders[s]
        left = np.zeros(52)
        position = order.shape[0]
        for c in range(coups[s] - 1, -1, -1):
            while position > starts[s, c]:
                position -= 1
                left[order[position]] += 1.0
            out[row + c] = left
        row += coups[s]
    return out
