"""The ways of every coup in one shoe, in exact integers, grouped as the bets need them.

Ways follow the published convention: ordered sequences of six cards, a coup that ends
after ``k`` cards counting once for each way to fill the unused places. A coup's ways
depend only on its multiset of values (``baccarat.analysis.exact.coup_table``); how the
first cards of each hand split over the pair levels depends only on the shoe's counts
within the value they share (``pair_level_counts``).

>>> from baccarat.analysis.exact.counts import CardCounts
>>> w = ways(CardCounts.full(1))
>>> w.player, w.banker, w.tie, w.total
(6548674432, 6737232640, 1372227328, 14658134400)
"""

from __future__ import annotations

from functools import cached_property
from math import perm
from typing import Any, NamedTuple, TypeAlias

import numpy as np
from numpy.typing import NDArray

from baccarat.analysis.exact.counts import Known, ShoeCounts, known
from baccarat.analysis.exact.coup_table import KEYS, NO_PAIR, SIGNATURES, coup_table
from baccarat.analysis.exact.pricing import BetPlan
from baccarat.analysis.exact.signature import LEVELS, representatives

__all__ = ["ExactWays", "Ways", "pair_level_counts", "ways"]

#: Exact integers: int64, or Python ints (dtype object) for shoes too big for int64.
Whole: TypeAlias = NDArray[Any]


class Ways(NamedTuple):
    """Ordered six-card sequences that make each outcome, and all of them."""

    banker: int
    player: int
    tie: int
    total: int


class ExactWays:
    """The ways of every coup in one shoe, in exact integers, grouped as the bets need them.

    Every sum is at most the number of six-card sequences, so ``int64`` holds it for any
    shoe of up to 1,448 cards; beyond that the arrays hold Python integers.
    """

    def __init__(self, shoe: Known) -> None:
        self.known = shoe
        self.total = perm(shoe.total, 6)
        self.dtype: type = np.int64 if self.total < 2**63 else object
        table = coup_table()
        weight = np.ones(len(table.codes), dtype=self.dtype)
        for value, n in enumerate(shoe.values):
            falling = np.array([perm(n, j) for j in range(7)], dtype=self.dtype)
            weight = weight * falling[table.multisets[:, value]]
        fill = np.array([perm(shoe.total - k, 6 - k) for k in range(7)], dtype=self.dtype)
        weight = weight * fill[table.sizes]
        term = table.row_count.astype(self.dtype) * weight[table.row_multiset]
        #: The ways of each (signature, pair key) group of the coup table.
        self.group: Whole = np.add.reduceat(term, table.group_start)
        self._starts = np.flatnonzero(np.diff(table.group_signature, prepend=-1))
        self._signatures = table.group_signature[self._starts]

    @cached_property
    def by_signature(self) -> Whole:
        """Ways by signature id (400)."""
        out: Whole = np.zeros(SIGNATURES, dtype=self.dtype)
        out[self._signatures] = np.add.reduceat(self.group, self._starts)
        return out

    @cached_property
    def by_levels(self) -> Whole:
        """Ways by signature id, Player pair level and Banker pair level (400 x 3 x 3)."""
        table = coup_table()
        num, den = pair_level_counts(self.known, self.dtype)
        per_key = den[table.group_key]
        share = self.group // per_key
        if np.any(
            share * per_key != self.group
        ):  # pragma: no cover - would be an error in the tables
            raise AssertionError("pair-level ways are not whole numbers")
        split = share[:, None, None] * num[table.group_key]
        out: Whole = np.zeros((SIGNATURES, LEVELS, LEVELS), dtype=self.dtype)
        out[self._signatures] = np.add.reduceat(split, self._starts, axis=0)
        return out

    def event_ways(self, plan: BetPlan) -> list[int]:
        """The ways of each event of a bet."""
        events = plan.events
        if events.kind == "value":
            table, ways_of = events.by_signature, self.by_signature
        else:
            table, ways_of = events.table, self.by_levels
        return [int(ways_of[table == e].sum()) for e in range(len(plan.rule.type.events))]

    def outcomes(self) -> Ways:
        winner = representatives().winner
        banker, player, tie = (int(self.by_signature[winner == i].sum()) for i in range(3))
        return Ways(banker, player, tie, self.total)


def pair_level_counts(shoe: Known, dtype: type) -> tuple[Whole, Whole]:
    """For each pair key: how the first cards' pair levels split, as counts over a total.

    For a key where the Player's first two cards share value ``v``, those two cards are a
    random ordered pair of the shoe's value-``v`` cards, whatever the rest of the coup: so
    the levels split as the ordered pairs of that pool do (different ranks, same rank,
    same card). When both hands share the same value, the four cards are a random ordered
    four of that pool. With counts by rank only, "same rank" stands for both levels 1 and 2
    (bets that tell them apart are not priced then).
    """
    pools = [_pool(shoe, value) for value in range(10)]
    num = np.zeros((KEYS, LEVELS, LEVELS), dtype=object)
    den = np.ones(KEYS, dtype=object)
    for player in range(11):
        for banker in range(11):
            key = player * 11 + banker
            if player == NO_PAIR and banker == NO_PAIR:
                num[key, 0, 0] = 1
            elif banker == NO_PAIR:
                num[key, :, 0], den[key] = pools[player].two
            elif player == NO_PAIR:
                num[key, 0, :], den[key] = pools[banker].two
            elif player != banker:
                (p_split, p_all), (b_split, b_all) = pools[player].two, pools[banker].two
                num[key] = np.outer(p_split, b_split)
                den[key] = p_all * b_all
            else:
                num[key], den[key] = pools[player].four
    den[den == 0] = 1  # no such cards: those coups have no ways anyway
    return num.astype(dtype), den.astype(dtype)


class _Pool:
    """The cards of one value, by rank and (when known) by card."""

    def __init__(self, ranks: list[int], cards: list[list[int]] | None) -> None:
        self.n = sum(ranks)
        self.ranks = ranks
        self.cards = cards  # for each rank, the count of each of its four cards

    @property
    def two(self) -> tuple[list[int], int]:
        """Ordered pairs of this pool's cards by level, and all ordered pairs."""
        same_rank = sum(perm(r, 2) for r in self.ranks)
        same_card = sum(perm(c, 2) for rank in self.cards or [] for c in rank)
        pairs = perm(self.n, 2)
        return [pairs - same_rank, same_rank - same_card, same_card], pairs

    @property
    def four(self) -> tuple[Whole, int]:
        """Ordered fours (P1 P2 B1 B2) by (Player level, Banker level), and all ordered fours."""
        n, ranks = self.n, self.ranks
        cards = self.cards or [[] for _ in ranks]
        same_rank = sum(perm(r, 2) for r in ranks)
        same_card = sum(perm(c, 2) for rank in cards for c in rank)

        def after(count: int, total: int) -> int:
            # Ordered pairs of the same kind once a pair of this kind (count of it) is gone.
            return total - perm(count, 2) + perm(count - 2, 2) if count >= 2 else total

        rank_rank = sum(perm(r, 2) * after(r, same_rank) for r in ranks)
        card_rank = sum(
            perm(c, 2) * after(r, same_rank)
            for r, rank in zip(ranks, cards, strict=True)
            for c in rank
        )
        card_card = sum(perm(c, 2) * after(c, same_card) for rank in cards for c in rank)
        rest = perm(n - 2, 2) if n >= 2 else 0
        c = [[0] * 3 for _ in range(3)]
        c[2][2] = card_card
        c[2][1] = c[1][2] = card_rank - card_card
        c[1][1] = rank_rank - 2 * card_rank + card_card
        c[2][0] = c[0][2] = same_card * rest - card_rank
        c[1][0] = c[0][1] = (same_rank - same_card) * rest - rank_rank + card_rank
        c[0][0] = perm(n, 4) - sum(sum(row) for row in c)
        return np.array(c, dtype=object), perm(n, 4)


def _pool(shoe: Known, value: int) -> _Pool:
    ranks = [9, 10, 11, 12] if value == 0 else [value - 1]
    if shoe.ranks is None:
        # Counts by value: no bet that needs pair levels is priced, so any split will do.
        return _Pool([shoe.values[value]], None)
    by_card = shoe.cards
    cards = None if by_card is None else [[by_card[s * 13 + r] for s in range(4)] for r in ranks]
    return _Pool([shoe.ranks[r] for r in ranks], cards)


def ways(counts: ShoeCounts) -> Ways:
    """Ordered six-card sequences in which Banker wins, Player wins, the coup ties, and all."""
    return ExactWays(known(counts)).outcomes()
