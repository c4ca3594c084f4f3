"""Every coup by card values, counted once: the tables the odds engine sums over.

With ``n[v]`` cards of value ``v`` among ``N``, a coup that uses ``m[v]`` cards of each
value (``k`` cards in all) is dealt in ``prod(falling(n[v], m[v]))`` ways out of
``falling(N, k)``: its probability depends only on its multiset of values. So the
339,400 sequences of card values that make a coup are enumerated once, here, and
counted by three things:

* the **multiset** of values the coup uses (which gives its weight in any shoe);
* its **signature**: each hand's final total and number of cards. Together with the
  pair levels below, that is everything a bet of the catalogue looks at
  (``bench/bench_signature.py`` proves it for every coup);
* its **pair key**: the value the Player's two first cards share (if they do) and the
  value the Banker's share. Whether such cards are also of the same rank, or are the very
  same card of another deck, depends on the shoe's counts within that value, not on the
  rest of the coup, so the engine applies it afterwards.

The drawing rules come from ``baccarat.tableau`` itself, as arrays.

>>> table = coup_table()
>>> int(table.row_count.sum())      # coups as sequences of values, P1 B1 P2 B2 P3 B3
339400
>>> signature_of(signature_id(9, 4, 2, 2))
(9, 4, 2, 2)
>>> int(table.sizes.min()), int(table.sizes.max())
(4, 6)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from baccarat.tableau import banker_draws, player_draws

__all__ = [
    "CODE_BASE",
    "KEYS",
    "NO_PAIR",
    "SIGNATURES",
    "VALUE_CODES",
    "CoupTable",
    "coup_table",
    "signature_id",
    "signature_of",
    "tableau_arrays",
]

Ints = NDArray[np.int64]

#: Pair-key component when a hand's two first cards differ in value.
NO_PAIR = 10
#: Number of pair keys: (Player's shared value or NO_PAIR) x (Banker's).
KEYS = 11 * 11
#: Number of signature ids (not all are possible coups).
SIGNATURES = 400
#: A multiset of values is coded as the sum of ``CODE_BASE ** value`` over its cards: at most
#: six cards have at most 6 of a value, so each value is one base-7 digit.
CODE_BASE = 7
#: The code of one card of each value.
VALUE_CODES = CODE_BASE ** np.arange(10, dtype=np.int64)
_CODE_SPAN = CODE_BASE**10


def signature_id(player_total: int, banker_total: int, player_cards: int, banker_cards: int) -> int:
    """The id (0-399) of a signature: final totals and the number of cards of each hand."""
    return ((player_total * 10 + banker_total) * 2 + player_cards - 2) * 2 + banker_cards - 2


def signature_of(sid: int) -> tuple[int, int, int, int]:
    """The ``(player_total, banker_total, player_cards, banker_cards)`` of a signature id."""
    rest, banker_cards = divmod(sid, 2)
    rest, player_cards = divmod(rest, 2)
    player_total, banker_total = divmod(rest, 10)
    return player_total, banker_total, player_cards + 2, banker_cards + 2


def tableau_arrays() -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The drawing rules as arrays: ``player[total]`` and ``banker[total, third]``.

    The Banker's second index is the Player's third-card value, or 10 when the Player stood.
    Totals 8 and 9 never draw (a natural is decided before the tableau is asked).
    """
    player = np.array([player_draws(t) for t in range(10)])
    banker = np.array(
        [[banker_draws(t, None if e == 10 else e) for e in range(11)] for t in range(10)]
    )
    return player, banker


@dataclass(frozen=True, eq=False)
class CoupTable:
    """All coups by values, as rows ``(multiset, signature, pair key) -> count``.

    Rows are sorted by signature, then pair key, then multiset; ``group_start`` marks where
    each ``(signature, pair key)`` group begins.
    """

    #: Counts of each value in each multiset (one row per multiset), and its size.
    multisets: Ints
    sizes: Ints
    #: Each multiset's code, sum of 7**value over its cards (sorted ascending).
    codes: Ints
    row_multiset: Ints
    row_count: Ints
    group_start: Ints
    group_signature: Ints
    group_key: Ints
    #: One sequence of values per group, P1 B1 P2 B2 P3 B3 (-1 for a card not dealt).
    examples: Ints

    @property
    def row_signature(self) -> Ints:
        return np.repeat(
            self.group_signature, np.diff(np.append(self.group_start, len(self.row_count)))
        )


def _continuations() -> tuple[Ints, Ints, Ints]:
    """For each two-card start ``p2 * 10 + b2``: the third cards (-1: none) the tableau deals."""
    player, banker = tableau_arrays()
    table: list[list[tuple[int, int]]] = []
    for p2, b2 in itertools.product(range(10), repeat=2):
        if p2 >= 8 or b2 >= 8:
            table.append([(-1, -1)])
        elif player[p2]:
            table.append(
                [(e, f) for e in range(10) for f in (range(10) if banker[b2, e] else (-1,))]
            )
        else:
            table.append([(-1, f) for f in (range(10) if banker[b2, 10] else (-1,))])
    width = max(len(row) for row in table)
    third_p = np.full((100, width), -1, dtype=np.int64)
    third_b = np.full((100, width), -1, dtype=np.int64)
    for i, row in enumerate(table):
        third_p[i, : len(row)] = [e for e, _ in row]
        third_b[i, : len(row)] = [f for _, f in row]
    return third_p, third_b, np.array([len(row) for row in table], dtype=np.int64)


def _power(values: Ints) -> Ints:
    """7**value, and 0 where no card was dealt (value -1)."""
    return np.where(values >= 0, VALUE_CODES[np.maximum(values, 0)], 0)


@cache
def coup_table() -> CoupTable:
    """The table of every coup (built once per process, in a few tens of milliseconds)."""
    third_p, third_b, widths = _continuations()
    p1, b1, p2, b2 = np.indices((10, 10, 10, 10)).reshape(4, -1).astype(np.int64)
    start = (p1 + p2) % 10 * 10 + (b1 + b2) % 10
    key = np.where(p1 == p2, p1, NO_PAIR) * 11 + np.where(b1 == b2, b1, NO_PAIR)
    code4 = VALUE_CODES[p1] + VALUE_CODES[b1] + VALUE_CODES[p2] + VALUE_CODES[b2]
    # Openings with the same multiset, two-card totals and pair key go on alike: group them.
    _, first, opening_count = np.unique(
        (code4 * 100 + start) * KEYS + key, return_index=True, return_counts=True
    )
    width = widths[start[first]]
    opening = np.repeat(first, width)
    slot = np.arange(len(opening)) - np.repeat(np.cumsum(width) - width, width)
    e = third_p[start[opening], slot]
    f = third_b[start[opening], slot]
    code = code4[opening] + _power(e) + _power(f)
    p_total = (start[opening] // 10 + np.maximum(e, 0)) % 10
    b_total = (start[opening] % 10 + np.maximum(f, 0)) % 10
    sig = ((p_total * 10 + b_total) * 2 + (e >= 0)) * 2 + (f >= 0)
    count = np.repeat(opening_count, width)

    full = (sig * KEYS + key[opening]) * _CODE_SPAN + code
    rows, first_row, inverse = np.unique(full, return_index=True, return_inverse=True)
    row_count = np.bincount(inverse, weights=count).astype(np.int64)
    codes, row_multiset = np.unique(rows % _CODE_SPAN, return_inverse=True)
    multisets = codes[:, None] // VALUE_CODES[None, :] % CODE_BASE
    group = rows // _CODE_SPAN
    group_start = np.flatnonzero(np.diff(group, prepend=-1))
    example_row = first_row[group_start]
    at = opening[example_row]
    examples = np.stack(
        [p1[at], b1[at], p2[at], b2[at], e[example_row], f[example_row]], axis=1
    ).astype(np.int64)
    return CoupTable(
        multisets=multisets.astype(np.int64),
        sizes=multisets.sum(axis=1).astype(np.int64),
        codes=codes.astype(np.int64),
        row_multiset=row_multiset.astype(np.int64),
        row_count=row_count,
        group_start=group_start.astype(np.int64),
        group_signature=(group[group_start] // KEYS).astype(np.int64),
        group_key=(group[group_start] % KEYS).astype(np.int64),
        examples=examples,
    )
