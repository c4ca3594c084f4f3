"""How likely each hand's first two cards are to pair, in floating point, for many shoes.

The pair bets only look at the four first cards, P1 B1 P2 B2, so their odds have closed
forms. Count ordered pairs of distinct cards of the same rank, ``A = sum n_r (n_r - 1)``,
and of the same card (suit and rank, from different decks), ``S = sum k_c (k_c - 1)``;
then ordered fours where both hands pair, by how each pairs. Each hand's **pair level**
is 0 (no pair), 1 (same rank, different cards) or 2 (the same card twice).

The exact path reaches the same numbers another way (value by value, in
``baccarat.analysis.exact``); the tests hold the two together and against brute force.

>>> import numpy as np
>>> eight = np.full((1, 13), 32.0)
>>> p = pair_level_probabilities(eight, np.full((1, 52), 8.0), suited=True)
>>> round(float(p[0, 3:6].sum() + p[0, 6:9].sum()), 6)   # Player pairs: 31/415
0.074699
>>> round(float(p[0].sum()), 12)
1.0
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["pair_level_probabilities"]

Floats = NDArray[np.float64]
_RANK_OF_CARD = np.arange(52) % 13


def _pairs(x: Floats) -> Floats:
    return x * (x - 1)


def _after(x: Floats) -> Floats:
    # Ordered pairs among x - 2 cards: what is left of a kind once a pair of it is dealt.
    return (x - 2) * (x - 3)


def pair_level_probabilities(ranks: Floats, cards: Floats | None, *, suited: bool) -> Floats:
    """For each shoe, the probability of each (Player level, Banker level) at index ``3p + b``.

    ``ranks``: counts by rank (A..K), one shoe per row; ``cards``: counts by card
    (``suit * 13 + rank``). Without suits (``suited`` false) a pair counts as level 1.
    """
    r = np.asarray(ranks, dtype=np.float64)
    total = r.sum(axis=1)
    same_rank = _pairs(r).sum(axis=1)
    rank_rank = (_pairs(r) * (same_rank[:, None] - _pairs(r) + _after(r))).sum(axis=1)
    if suited:
        if cards is None:
            raise ValueError("suited pair levels need counts by card")
        c = np.asarray(cards, dtype=np.float64)
        y = r[:, _RANK_OF_CARD]
        same_card = _pairs(c).sum(axis=1)
        card_rank = (_pairs(c) * (same_rank[:, None] - _pairs(y) + _after(y))).sum(axis=1)
        card_card = (_pairs(c) * (same_card[:, None] - _pairs(c) + _after(c))).sum(axis=1)
    else:
        same_card = card_rank = card_card = np.zeros_like(total)
    rest = _after(total)
    fours = _pairs(total) * rest
    p = np.empty((len(total), 9))
    p[:, 8] = card_card
    p[:, 7] = p[:, 5] = card_rank - card_card
    p[:, 4] = rank_rank - 2 * card_rank + card_card
    p[:, 6] = p[:, 2] = same_card * rest - card_rank
    p[:, 3] = p[:, 1] = (same_rank - same_card) * rest - rank_rank + card_rank
    p[:, 0] = fours - p[:, 1:].sum(axis=1)
    return p / fours[:, None]
