"""The simulator's vocabulary: a coup as one integer (its key), a card as one byte.

Everything a coup decides about every bet is packed into its *key*::

    key = (player_total * 10 + banker_total) << 5 | player_drew << 4 | banker_drew << 3
          | player_pair << 2 | banker_pair << 1 | perfect_pair

so the compiled kernel (``baccarat.analysis.simulate.kernel``) settles every bet of a rule set with one
counter increment per coup; :func:`classify_key` turns keys into each bet's events, and
the pay tables turn events into money, once, at the end. Naturals and the cards used
follow from the key: with no draw, a total of 8 or 9 is a natural (without a natural,
nobody stands on more than 7).

A card in the kernel is one byte, ``value | suit << 4 | face << 6`` (``face`` tells
T, J, Q and K apart; it is 0 for A to 9): a value is ``code & 15``, two cards have the
same rank when their codes agree under :data:`RANK_MASK`, and are the same card when
their codes are equal.

>>> from baccarat.cards import Card
>>> [card_of_code(CARD_CODES[c]) for c in (0, 22, 51)]
[Card.parse('Ac'), Card.parse('Td'), Card.parse('Ks')]
>>> key = (6 * 10 + 2) << 5 | 1 << 3      # Player 6 stood, Banker drew to 2
>>> key_fields(key)
KeyFields(player_total=6, banker_total=2, player_drew=False, banker_drew=True, player_pair=False, banker_pair=False, perfect_pair=False)
>>> [KERNEL_EVENTS[b][classify_key(b, key)] for b in (PLAYER, BANKER, SMALL)]
['win', 'lose', 'big']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
from numba import njit

from baccarat.cards import Card

__all__ = [
    "BANKER",
    "CARD_CODES",
    "KERNEL_BETS",
    "KERNEL_EVENTS",
    "MAX_EVENTS",
    "N_KEYS",
    "PLAYER",
    "RANK_MASK",
    "SMALL",
    "KeyFields",
    "card_of_code",
    "classify_key",
    "code_of",
    "compiled",
    "event_table",
    "inlined",
    "key_fields",
]

Array = np.ndarray[Any, Any]

_F = TypeVar("_F", bound=Callable[..., Any])


def compiled(func: _F) -> _F:
    """Compile with numba, cached on disk and releasing the GIL (threads run batches in parallel)."""
    return cast(_F, njit(cache=True, nogil=True)(func))


def inlined(func: _F) -> _F:
    """Compile with numba, to be inlined into the compiled functions that call it."""
    return cast(_F, njit(inline="always")(func))


#: How many distinct coup keys there are (some cannot happen).
N_KEYS = 100 << 5
# The bets the kernel classifies, in catalogue order, and each one's events, in the order of
# ``baccarat.bets.BET_TYPES[...].events`` (a test holds the two together).
KERNEL_BETS = (
    "player",
    "banker",
    "tie",
    "player_pair",
    "banker_pair",
    "either_pair",
    "perfect_pair",
    "dragon_bonus_player",
    "dragon_bonus_banker",
    "big",
    "small",
    "dragon_7",
    "panda_8",
    "super_6",
)
(
    PLAYER,
    BANKER,
    TIE,
    PLAYER_PAIR,
    BANKER_PAIR,
    EITHER_PAIR,
    PERFECT_PAIR,
    DRAGON_BONUS_PLAYER,
    DRAGON_BONUS_BANKER,
    BIG,
    SMALL,
    DRAGON_7,
    PANDA_8,
    SUPER_6,
) = range(len(KERNEL_BETS))
_MARGINS = tuple(f"win_by_{m}" for m in range(9, 3, -1))
_DRAGON_BONUS_EVENTS = ("natural_win", "natural_tie", *_MARGINS, "lose")
KERNEL_EVENTS: tuple[tuple[str, ...], ...] = (
    ("win", "tie", "lose"),
    ("win", "win_6", "win_three_card_7", "tie", "lose"),
    (*(f"tie_{n}" for n in range(10)), "lose"),
    ("pair", "lose"),
    ("pair", "lose"),
    ("pair", "lose"),
    ("perfect_pair", "lose"),
    _DRAGON_BONUS_EVENTS,
    _DRAGON_BONUS_EVENTS,
    ("big", "small"),
    ("small", "big"),
    ("win", "lose"),
    ("win", "lose"),
    ("win_two_cards", "win_three_cards", "lose"),
)
MAX_EVENTS = max(len(events) for events in KERNEL_EVENTS)
_EVENT_COUNTS = np.array([len(events) for events in KERNEL_EVENTS], dtype=np.int64)


def _card_code(number: int) -> int:
    rank, suit = number % 13, (number // 13) % 4
    value = (rank + 1) % 10 if rank < 9 else 0
    face = rank - 9 if rank >= 9 else 0
    return value | suit << 4 | face << 6


#: The kernel's byte for each card number 0-51 (``baccarat-shoe-v1``: rank ``c % 13``, suit ``c // 13``).
CARD_CODES: Array = np.array([_card_code(c) for c in range(52)], dtype=np.uint8)
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


@compiled
def classify_key(bet: int, key: int) -> int:
    """The index in ``KERNEL_EVENTS[bet]`` of the event a coup with this key is for ``bet``."""
    perfect = key & 1
    banker_pair = (key >> 1) & 1
    player_pair = (key >> 2) & 1
    banker_drew = (key >> 3) & 1
    player_drew = (key >> 4) & 1
    player_total = (key >> 5) // 10
    banker_total = (key >> 5) % 10
    no_draw = player_drew == 0 and banker_drew == 0
    player_natural = no_draw and player_total >= 8
    banker_natural = no_draw and banker_total >= 8
    margin = abs(player_total - banker_total)
    player_wins = player_total > banker_total
    banker_wins = banker_total > player_total
    lose = int(_EVENT_COUNTS[bet]) - 1  # "lose" is last wherever a bet has it
    if bet == PLAYER:
        return 0 if player_wins else (lose if banker_wins else 1)
    if bet == BANKER:
        if not (player_wins or banker_wins):
            return 3
        if player_wins:
            return lose
        if banker_total == 6:
            return 1
        return 2 if banker_total == 7 and banker_drew else 0
    if bet == TIE:
        return player_total if not (player_wins or banker_wins) else lose
    if bet == PLAYER_PAIR:
        return 0 if player_pair else lose
    if bet == BANKER_PAIR:
        return 0 if banker_pair else lose
    if bet == EITHER_PAIR:
        return 0 if player_pair or banker_pair else lose
    if bet == PERFECT_PAIR:
        return 0 if perfect else lose
    if bet in (DRAGON_BONUS_PLAYER, DRAGON_BONUS_BANKER):
        side_wins = player_wins if bet == DRAGON_BONUS_PLAYER else banker_wins
        side_natural = player_natural if bet == DRAGON_BONUS_PLAYER else banker_natural
        if not (player_wins or banker_wins):
            return 1 if player_natural and banker_natural else lose
        if not side_wins:
            return lose
        if side_natural:
            return 0
        return 2 + (9 - margin) if margin >= 4 else lose
    if bet in (BIG, SMALL):
        small = no_draw
        return 0 if small == (bet == SMALL) else 1
    if bet == DRAGON_7:
        return 0 if banker_wins and banker_total == 7 and banker_drew else lose
    if bet == PANDA_8:
        return 0 if player_wins and player_total == 8 and player_drew else lose
    if bet == SUPER_6:
        if not banker_wins or banker_total != 6:
            return lose
        return 1 if banker_drew else 0
    return -1


@compiled
def _event_table() -> Array:
    table = np.empty((len(KERNEL_BETS), N_KEYS), dtype=np.int64)
    for bet in range(len(KERNEL_BETS)):
        for key in range(N_KEYS):
            table[bet, key] = classify_key(bet, key)
    return table


def event_table() -> Array:
    """``table[bet, key]``: the event index of every key for every kernel bet.

    >>> int(event_table()[TIE, (6 * 10 + 6) << 5])  # both hands on 6, nobody drew
    6
    """
    return _event_table()


class KeyFields(NamedTuple):
    """What a coup key says."""

    player_total: int
    banker_total: int
    player_drew: bool
    banker_drew: bool
    player_pair: bool
    banker_pair: bool
    perfect_pair: bool


def key_fields(key: int) -> KeyFields:
    """Unpack a coup key."""
    return KeyFields(
        (key >> 5) // 10,
        (key >> 5) % 10,
        bool(key >> 4 & 1),
        bool(key >> 3 & 1),
        bool(key >> 2 & 1),
        bool(key >> 1 & 1),
        bool(key & 1),
    )
