"""The compiled Monte Carlo kernel: shuffle, burn, deal and tally real shoes.

A shoe is an array of card bytes (``baccarat.analysis.simulate.keys``), starting as the codes of card
numbers ``0 .. 52·D − 1`` (``baccarat-shoe-v1`` numbering) and shuffled by Fisher–Yates,
each index drawn by Lemire's method from 32 bits of xoshiro256** (two draws per 64-bit
output, rejection keeping it exactly uniform). It is dealt as :class:`baccarat.shoe.Shoe`
deals: the turned card and as many more as its value burned (tens and faces 10), the cut
card ``cut_card_from_end`` cards from the end, one more coup after it (``one-more``) or
none (``finish``), and never a coup begun with fewer than six cards left. Each coup is
tallied by its key (its kind: ``baccarat.analysis.simulate.keys``); strategies are played
over the dealt shoe afterwards.

>>> from baccarat.cards import parse_cards
>>> from baccarat.analysis.simulate.keys import key_fields
>>> key_fields(coup_key(parse_cards("4h 3c 2d 2s 7h")))     # Player 6, Banker 3+2 draws a 7
KeyFields(player_total=6, banker_total=2, player_drew=False, banker_drew=True, player_level=0, banker_level=0)
>>> key_fields(coup_key(parse_cards("9h 3c 9h 3s")))          # the same 9 twice; two 3s
KeyFields(player_total=8, banker_total=6, player_drew=False, banker_drew=False, player_level=2, banker_level=1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numpy as np

from baccarat.analysis.jit import load_numba
from baccarat.analysis.simulate.keys import (
    CARD_CODES,
    MAX_EVENTS,
    N_KEYS,
    N_TC_BINS,
    RANK_MASK,
    STEP,
    TC_LIMIT,
    code_of,
)
from baccarat.cards import Card

__all__ = [
    "N_TC_BINS",
    "RECORD_FIELDS",
    "TC_LIMIT",
    "coup_key",
    "coup_keys",
    "play_order",
    "run_batch",
    "shuffled_orders",
]

Array = np.ndarray[Any, Any]
_F = TypeVar("_F", bound=Callable[..., Any])
njit = load_numba().njit  # without the scipy numba would import for its BLAS check


def compiled(func: _F) -> _F:
    """Compile with numba, cached on disk and releasing the GIL (threads run batches in parallel)."""
    return cast(_F, njit(cache=True, nogil=True)(func))


def inlined(func: _F) -> _F:
    """Compile with numba, to be inlined into the compiled functions that call it."""
    return cast(_F, njit(inline="always")(func))


#: Columns of a record from :func:`play_order`.
RECORD_FIELDS = ("position", "cards_used", "key", "running_count")


_STEP = STEP
_U32 = np.uint64(0xFFFFFFFF)


@inlined
def _rotl(x: Any, k: int) -> Any:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@inlined
def _xoshiro(s0: Any, s1: Any, s2: Any, s3: Any) -> Any:
    """One xoshiro256** output and the next state."""
    out = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return out, s0, s1, s2, s3


@compiled
def _shuffle(cards: Array, n: int, state: Array) -> None:
    """Fisher–Yates on ``cards[:n]`` from the top, each index by Lemire's method on 32 bits."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    i = n - 1
    while i > 0:
        word, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
        for half in range(2):
            x = (word >> np.uint64(32)) if half == 0 else (word & _U32)
            bound = np.uint64(i + 1)
            m = x * bound
            if (m & _U32) < bound:
                # Rare (bound / 2**32): reject the few x that would make some indices likelier.
                floor = (np.uint64(1 << 32) - bound) % bound
                while (m & _U32) < floor:
                    fresh, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
                    m = (fresh >> np.uint64(32)) * bound
            j = np.int64(m >> np.uint64(32))
            swap = cards[i]
            cards[i] = cards[j]
            cards[j] = swap
            i -= 1
            if i == 0:
                break
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@inlined
def _coup(cards: Array, position: int) -> tuple[int, int]:
    """The key of the coup dealt from ``position``, and the cards it used (6 must be left)."""
    c0 = np.int64(cards[position])
    c1 = np.int64(cards[position + 1])
    c2 = np.int64(cards[position + 2])
    c3 = np.int64(cards[position + 3])
    fifth = np.int64(cards[position + 4]) & 15
    sixth = np.int64(cards[position + 5]) & 15
    step = _STEP[((c0 & 15) + (c2 & 15)) << 9 | ((c1 & 15) + (c3 & 15)) << 4 | fifth]
    player_drew = step & 1
    banker_drew = (step >> 1) & 1
    banker_third = sixth if player_drew else fifth
    banker_total = (step >> 6) + (banker_third if banker_drew else 0)
    if banker_total >= 10:
        banker_total -= 10
    key = (((step >> 2) & 15) * 10 + banker_total) << 6 | player_drew << 5 | banker_drew << 4
    # Pair levels: 1 for the same rank, 2 for the same card (same rank and suit).
    key |= (np.int64(((c0 ^ c2) & RANK_MASK) == 0) + np.int64(c0 == c2)) << 2
    key |= np.int64(((c1 ^ c3) & RANK_MASK) == 0) + np.int64(c1 == c3)
    return key, 4 + player_drew + banker_drew


@inlined
def _first_position(cards: Array, burn: bool) -> int:
    """Where the first coup starts: after the turned card and as many more as its value."""
    if not burn:
        return 0
    value = int(cards[0]) & 15
    return 1 + (value if value else 10)


@inlined
def _next_coup(
    position: int, last_due: bool, n: int, cut_position: int, finish: bool
) -> tuple[bool, bool]:
    """After a coup that left the shoe at ``position``: is the shoe over, is one more coup due."""
    if last_due or n - position < 6:
        return True, last_due
    if position > cut_position:
        # This coup dealt the card behind the cut card.
        return finish, True
    return False, False


@compiled
def _deal(cards: Array, n: int, cut_position: int, burn: bool, finish: bool, keys: Array) -> int:
    """Deal one shoe of ``n`` cards, writing each coup's key; return the number of coups."""
    position = _first_position(cards, burn)
    over, last_due = n - position < 6, False
    coups = 0
    while not over:
        key, used = _coup(cards, position)
        keys[coups] = key
        coups += 1
        position += used
        over, last_due = _next_coup(position, last_due, n, cut_position, finish)
    return coups


@compiled
def _deal_two(
    a: Array,
    b: Array,
    n: int,
    cut_position: int,
    burn: bool,
    finish: bool,
    keys_a: Array,
    keys_b: Array,
) -> tuple[int, int]:
    """:func:`_deal` on two shoes at once, interleaved so that the CPU overlaps their latency."""
    pa, pb = _first_position(a, burn), _first_position(b, burn)
    over_a, due_a, over_b, due_b = False, False, False, False
    na, nb = 0, 0
    while not (over_a or over_b):
        ka, ua = _coup(a, pa)
        kb, ub = _coup(b, pb)
        keys_a[na] = ka
        keys_b[nb] = kb
        na += 1
        nb += 1
        pa += ua
        pb += ub
        over_a, due_a = _next_coup(pa, due_a, n, cut_position, finish)
        over_b, due_b = _next_coup(pb, due_b, n, cut_position, finish)
    while not over_a:
        ka, ua = _coup(a, pa)
        keys_a[na] = ka
        na += 1
        pa += ua
        over_a, due_a = _next_coup(pa, due_a, n, cut_position, finish)
    while not over_b:
        kb, ub = _coup(b, pb)
        keys_b[nb] = kb
        nb += 1
        pb += ub
        over_b, due_b = _next_coup(pb, due_b, n, cut_position, finish)
    return na, nb


@inlined
def _tally(
    cards: Array,
    n: int,
    burn: bool,
    keys: Array,
    coups: int,
    strategies: tuple[Array, Array, Array, Array, Array, Array],
    shoe: int,
    out: tuple[Array, Array, Array, Array, Array],
) -> None:
    """Count the coups of one dealt shoe and play each strategy over it.

    A flat strategy only sums its net; its events follow from ``key_counts``. A counting
    strategy also tallies events by true count and the events of the coups it bet on, and
    leaves its running count before each coup in ``running[s, i]``. ``out`` holds
    ``key_counts, shoe_net, tc_events, bet_events, running``.
    """
    key_counts, shoe_net, tc_events, bet_events, running = out
    for i in range(coups):
        key_counts[keys[i]] += 1
    net, event, tags, counting, numerator, denominator = strategies
    for s in range(net.shape[0]):
        nets, events, tag, by_tc = net[s], event[s], tags[s], tc_events[s]
        won = 0
        if not counting[s]:
            for i in range(coups):
                won += nets[keys[i]]
            shoe_net[s, shoe] = won
            continue
        # The turned card is seen, so counters count it; the cards burned under it are not.
        count = tag[np.int64(cards[0])] if burn else 0
        position = _first_position(cards, burn)
        above, below = denominator[s] * 52, numerator[s]
        for i in range(coups):
            key = keys[i]
            player_drew = (key >> 5) & 1
            banker_drew = (key >> 4) & 1
            left = n - position
            running[s, i] = count
            ev = events[key]
            # True count = running / (left / 52). The bet is decided exactly in integers; the
            # bin by a float floor, exact too: a quotient that is not a whole number is at
            # least 1/416 from one, far more than the rounding error.
            tc = min(max(int(np.floor(52.0 * count / left)), -TC_LIMIT), TC_LIMIT)
            by_tc[tc + TC_LIMIT, ev] += 1
            if count * above >= below * left:
                bet_events[s, ev] += 1
                won += nets[key]
            count += (
                tag[np.int64(cards[position])]
                + tag[np.int64(cards[position + 1])]
                + tag[np.int64(cards[position + 2])]
                + tag[np.int64(cards[position + 3])]
                + (player_drew | banker_drew) * tag[np.int64(cards[position + 4])]
                + (player_drew & banker_drew) * tag[np.int64(cards[position + 5])]
            )
            position += 4 + player_drew + banker_drew
        shoe_net[s, shoe] = won


@inlined
def _reset(cards: Array, fresh: Array) -> None:
    """``cards[:] = fresh``, eight bytes at a time (numba's slice copy goes byte by byte)."""
    to, source = cards.view(np.uint64), fresh.view(np.uint64)
    for word in range(to.size):
        to[word] = source[word]


@compiled
def _fresh_shoe(decks: int) -> Array:
    """The cards of ``decks`` decks in number order, padded to whole 8-byte words."""
    n = 52 * decks
    cards = np.zeros(-(-n // 8) * 8, dtype=np.uint8)
    for number in range(n):
        cards[number] = CARD_CODES[number % 52]
    return cards


@compiled
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
    """Shuffle and deal ``shoes`` shoes from the xoshiro256** ``state``; add into the tallies.

    ``strategies`` holds per strategy: net payout by key (scaled to integers), event by
    key, tag by card code, whether it counts, and the threshold as a fraction. Shoes are
    shuffled one after the other from ``state`` and dealt two at a time. Returns the number
    of coups dealt.
    """
    n = 52 * decks
    fresh = _fresh_shoe(decks)
    a, b = fresh.copy(), fresh.copy()
    keys_a = np.empty(n // 4, dtype=np.uint16)
    keys_b = np.empty(n // 4, dtype=np.uint16)
    running = np.empty((strategies[0].shape[0], n // 4), dtype=np.int64)
    cut_position = n - cut_card_from_end
    coups = 0
    out = (key_counts, shoe_net, tc_events, bet_events, running)
    for first in range(0, shoes - 1, 2):
        _reset(a, fresh)
        _shuffle(a, n, state)
        _reset(b, fresh)
        _shuffle(b, n, state)
        na, nb = _deal_two(a, b, n, cut_position, burn, finish, keys_a, keys_b)
        _tally(a, n, burn, keys_a, na, strategies, first, out)
        _tally(b, n, burn, keys_b, nb, strategies, first + 1, out)
        coups += na + nb
    if shoes % 2:
        _reset(a, fresh)
        coups += _last_shoe(
            a, n, state, cut_position, burn, finish, keys_a, strategies, shoes - 1, out
        )
    return coups


@compiled
def _last_shoe(
    cards: Array,
    n: int,
    state: Array,
    cut_position: int,
    burn: bool,
    finish: bool,
    keys: Array,
    strategies: tuple[Array, Array, Array, Array, Array, Array],
    shoe: int,
    out: tuple[Array, Array, Array, Array, Array],
) -> int:
    """The odd shoe at the end of a batch, alone (apart, so the main loop stays lean)."""
    _shuffle(cards, n, state)
    coups = _deal(cards, n, cut_position, burn, finish, keys)
    _tally(cards, n, burn, keys, coups, strategies, shoe, out)
    return coups


@compiled
def shuffled_orders(state: Array, shoes: int, decks: int) -> Array:
    """The card orders (as kernel bytes) that :func:`run_batch` would deal from ``state``."""
    n = 52 * decks
    fresh = _fresh_shoe(decks)
    cards = fresh.copy()
    orders = np.empty((shoes, n), dtype=np.uint8)
    for shoe in range(shoes):
        _reset(cards, fresh)
        _shuffle(cards, n, state)
        orders[shoe, :] = cards[:n]
    return orders


@compiled
def play_order(
    cards: Array,
    burn: bool,
    cut_card_from_end: int,
    finish: bool,
    strategies: tuple[Array, Array, Array, Array, Array, Array],
) -> tuple[Array, Array, Array, Array, Array]:
    """Deal one given order as :func:`run_batch` does, and tally it the same way.

    Returns one record per coup (``RECORD_FIELDS``; the running count is the first
    strategy's before the coup, 0 if it does not count), then the tallies ``key_counts``,
    ``shoe_net`` (one column), ``tc_events`` and ``bet_events``.
    """
    n = cards.size
    n_strategies = strategies[0].shape[0]
    keys = np.empty(n // 4, dtype=np.uint16)
    coups = _deal(cards, n, n - cut_card_from_end, burn, finish, keys)
    running = np.zeros((max(n_strategies, 1), coups), dtype=np.int64)
    out = (
        np.zeros(N_KEYS, dtype=np.int64),
        np.zeros((n_strategies, 1), dtype=np.int64),
        np.zeros((n_strategies, N_TC_BINS, MAX_EVENTS), dtype=np.int64),
        np.zeros((n_strategies, MAX_EVENTS), dtype=np.int64),
        running,
    )
    _tally(cards, n, burn, keys, coups, strategies, 0, out)
    record = np.zeros((coups, len(RECORD_FIELDS)), dtype=np.int64)
    position = _first_position(cards, burn)
    for i in range(coups):
        used = 4 + ((keys[i] >> 5) & 1) + ((keys[i] >> 4) & 1)
        record[i, 0] = position
        record[i, 1] = used
        record[i, 2] = keys[i]
        record[i, 3] = running[0, i]
        position += used
    return record, out[0], out[1], out[2], out[3]


@compiled
def coup_keys(sequences: Array) -> Array:
    """``[key, cards used]`` of the coup dealt from each row of six cards (kernel bytes)."""
    out = np.empty((sequences.shape[0], 2), dtype=np.int64)
    for row in range(sequences.shape[0]):
        out[row, 0], out[row, 1] = _coup(sequences[row], 0)
    return out


def coup_key(cards: Sequence[Card]) -> int:
    """The key the kernel gives the coup dealt from ``cards`` (exactly one coup, in deal order)."""
    if not 4 <= len(cards) <= 6:
        raise ValueError(f"a coup uses 4 to 6 cards, not {len(cards)}")
    row = np.zeros((1, 6), dtype=np.uint8)
    row[0, : len(cards)] = [code_of(card) for card in cards]
    key, used = (int(x) for x in coup_keys(row)[0])
    if used != len(cards):
        raise ValueError(f"the coup uses {used} cards, not {len(cards)}")
    return key
