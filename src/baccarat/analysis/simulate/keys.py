"""The simulator's vocabulary: a coup as one integer (its key), a card as one byte.

A coup's key is its **kind** as the exact engine sorts coups
(``baccarat.analysis.exact.signature``): its signature (both final totals and who drew)
and the pair level of each hand's first two cards (0 different ranks, 1 the same rank,
2 the same card)::

    key = signature_id << 4 | player_level << 2 | banker_level
        = (player_total * 10 + banker_total) << 6 | player_drew << 5 | banker_drew << 4
          | player_level << 2 | banker_level

Every bet of the catalogue falls on one event per kind, so the compiled kernel
(``baccarat.analysis.simulate.kernel``) settles every bet of a rule set with one counter
increment per coup, and :func:`key_events` turns keys into a bet's events from the very
table the exact engine prices it by, filled by the bet's own ``classify``
(``baccarat.bets``). Nothing about any bet is written here: a bet added to the catalogue
is simulated as it is priced.

A card in the kernel is one byte, ``value | suit << 4 | face << 6`` (``face`` tells
T, J, Q and K apart; it is 0 for A to 9): a value is ``code & 15``, two cards have the
same rank when their codes agree under :data:`RANK_MASK`, and are the same card when
their codes are equal.

>>> from baccarat.bets import BET_TYPES
>>> from baccarat.cards import Card
>>> [card_of_code(CARD_CODES[c]) for c in (0, 22, 51)]
[Card.parse('Ac'), Card.parse('Td'), Card.parse('Ks')]
>>> key = (6 * 10 + 2) << 6 | 1 << 4      # Player 6 stood, Banker drew to 2, no pair
>>> key_fields(key)
KeyFields(player_total=6, banker_total=2, player_drew=False, banker_drew=True, player_level=0, banker_level=0)
>>> [BET_TYPES[b].events[key_events(BET_TYPES[b])[key]] for b in ("player", "banker", "small")]
['win', 'lose', 'big']
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from baccarat.analysis.exact.coup_table import SIGNATURES
from baccarat.analysis.exact.signature import LEVELS, bet_events
from baccarat.analysis.native.tables import CARD_CODES, STEP, step_table
from baccarat.bets import BetType
from baccarat.cards import Card

__all__ = [
    "CARD_CODES",
    "MAX_EVENTS",
    "N_KEYS",
    "N_TC_BINS",
    "RANK_MASK",
    "STEP",
    "TC_LIMIT",
    "KeyFields",
    "card_of_code",
    "code_of",
    "key_events",
    "key_fields",
    "key_of",
    "step_table",
]

Array = np.ndarray[Any, Any]

#: How many distinct coup keys there are (some cannot happen).
N_KEYS = SIGNATURES << 4
#: Most events a bet played by a strategy may have (the width of the per-event tallies).
MAX_EVENTS = 32
#: True counts are tallied in whole-number bins from ``-TC_LIMIT`` to ``+TC_LIMIT`` (clipped).
TC_LIMIT = 30
N_TC_BINS = 2 * TC_LIMIT + 1


_NUMBER_OF_CODE = {int(code): number for number, code in enumerate(CARD_CODES)}
#: Two codes are the same rank when they agree under this mask (all but the suit bits).
RANK_MASK = 0xCF


def card_of_code(code: int) -> Card:
    """The card a kernel byte stands for."""
    return Card.from_index(_NUMBER_OF_CODE[int(code)])


def code_of(card: Card) -> int:
    """The kernel byte of a card.

    >>> code_of(Card.parse("Td")), code_of(Card.parse("Kd")), code_of(Card.parse("9d"))
    (16, 208, 25)
    """
    return int(CARD_CODES[card.rank.index + 13 * card.suit.index])


def key_of(signature: int, player_level: int, banker_level: int) -> int:
    """The key of a coup of this signature id and these pair levels.

    >>> from baccarat.analysis.exact.coup_table import signature_id
    >>> key_of(signature_id(6, 2, 2, 3), 0, 0) == (6 * 10 + 2) << 6 | 1 << 4
    True
    """
    return signature << 4 | player_level << 2 | banker_level


def key_events(bet: BetType) -> Array:
    """``events[key]``: the index in ``bet.events`` of the event of a coup with this key, -1
    for the keys no coup has.

    It is the exact engine's event table of ``bet``
    (``baccarat.analysis.exact.signature.bet_events``), laid out by key.

    >>> from baccarat.analysis.exact.coup_table import signature_id
    >>> from baccarat.bets import BET_TYPES
    >>> tie = BET_TYPES["tie"]
    >>> tie.events[key_events(tie)[key_of(signature_id(6, 6, 2, 2), 0, 0)]]
    'tie_6'
    """
    by_key = np.full((SIGNATURES, 4, 4), -1, dtype=np.int64)
    by_key[:, :LEVELS, :LEVELS] = bet_events(bet).table
    return by_key.reshape(N_KEYS)


class KeyFields(NamedTuple):
    """What a coup key says."""

    player_total: int
    banker_total: int
    player_drew: bool
    banker_drew: bool
    #: 0: the first two cards differ in rank; 1: same rank; 2: the same card twice.
    player_level: int
    banker_level: int

    @property
    def player_pair(self) -> bool:
        return self.player_level > 0

    @property
    def banker_pair(self) -> bool:
        return self.banker_level > 0

    @property
    def perfect_pair(self) -> bool:
        """Either hand's first two cards are the same card (same rank and suit)."""
        return self.player_level == 2 or self.banker_level == 2


def key_fields(key: int) -> KeyFields:
    """Unpack a coup key."""
    return KeyFields(
        (key >> 6) // 10,
        (key >> 6) % 10,
        bool(key >> 5 & 1),
        bool(key >> 4 & 1),
        key >> 2 & 3,
        key & 3,
    )
