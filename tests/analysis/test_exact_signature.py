"""The signature is all a bet of the catalogue looks at.

The odds engine prices each bet, and the simulator settles it, through a table filled by the
bet type's own ``classify`` on one representative coup per kind: (signature, pair levels).
That is only right if every coup of a kind falls on the same event. These tests deal coups
(``baccarat.coup``) and ask ``classify`` of every bet type of the catalogue:

* one coup of every row of the engine's coup table (every multiset of card values, with
  every signature and pair key it can make: 51,137 rows), at every pair level each hand's
  first cards can have, ten-valued cards given different ranks;
* random coups of an eight-deck shoe (Hypothesis): any ranks, suits and order.

Every one of the 339,400 coups by values at every pair level (426,582 coups) is dealt by
``bench/bench_signature.py`` (``make bench``), with the same :func:`check`: it takes about
20 CPU seconds, too long for a unit test.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.analysis.exact.coup_table import NO_PAIR, coup_table, tableau_arrays
from baccarat.analysis.exact.signature import bet_events, coup_signature, feasible_levels
from baccarat.bets import BET_TYPES, BetType
from baccarat.cards import Card, Rank, Suit
from baccarat.coup import Coup, deal, deal_from

TENS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.JACK, Rank.QUEEN)
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
# The card of each value at each place of the deal (tens of a different rank at each place).
CARDS = [[Card(TENS[i] if v == 0 else Rank(v), SUITS[i]) for v in range(10)] for i in range(6)]
# Rows of the coup table: 51,137 (multiset, signature, pair key).
ROWS = 51_137


def value_sequences(*, one_per_row: bool = False) -> Iterator[tuple[int, ...]]:
    """Every coup as its card values in deal order, from the tableau itself.

    With ``one_per_row``, only the first sequence of each row of the coup table: of each
    multiset of values with each signature and pair key.
    """
    player, banker = tableau_arrays()
    seen: set[tuple[object, ...]] = set()
    for p1, b1, p2, b2 in itertools.product(range(10), repeat=4):
        pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
        opening = (p1, b1, p2, b2)
        natural = pt >= 8 or bt >= 8
        for p3 in range(10) if not natural and player[pt] else (None,):
            stood = 10 if p3 is None else p3
            for b3 in range(10) if not natural and banker[bt, stood] else (None,):
                values = opening + tuple(v for v in (p3, b3) if v is not None)
                if one_per_row:
                    key = (p1 if p1 == p2 else NO_PAIR, b1 if b1 == b2 else NO_PAIR)
                    totals = (pt + (p3 or 0)) % 10, (bt + (b3 or 0)) % 10
                    row = (tuple(sorted(values)), totals, p3 is None, b3 is None, key)
                    if row in seen:
                        continue
                    seen.add(row)
                yield values


def realisations(values: tuple[int, ...]) -> Iterator[Coup]:
    """The coup of these values at every pair level each hand's first cards can have."""
    base = [CARDS[i][v] for i, v in enumerate(values)]
    shared_p = values[0] if values[0] == values[2] else NO_PAIR
    shared_b = values[1] if values[1] == values[3] else NO_PAIR
    for hp in feasible_levels(shared_p):
        for hb in feasible_levels(shared_b):
            cards = list(base)
            for first, second, level in ((0, 2, hp), (1, 3, hb)):
                if level == 1:
                    cards[second] = Card(cards[first].rank, cards[second].suit)
                elif level == 2:
                    cards[second] = cards[first]
            yield deal(cards)


def check(coups: Iterable[Coup], bets: Iterable[BetType] = BET_TYPES.values()) -> int:
    """Assert that each bet classifies each coup as its kind's table says; return how many."""
    checks = [(bet, bet_events(bet).table) for bet in bets]
    checked = 0
    for coup in coups:
        sid, hp, hb = coup_signature(coup)
        for bet, table in checks:
            index = table[sid, hp, hb]
            assert index >= 0, f"{coup}: no representative for {(sid, hp, hb)}"
            assert bet.classify(coup) == bet.events[index], f"{bet.name} on {coup}"
        checked += 1
    return checked


def test_the_enumeration_matches_the_coup_table() -> None:
    table = coup_table()
    sequences = list(value_sequences())
    assert len(sequences) == int(table.row_count.sum()) == 339_400
    assert len(set(sequences)) == len(sequences)
    rows = list(value_sequences(one_per_row=True))
    assert len(rows) == len(table.row_count) == ROWS
    assert set(rows) <= set(sequences)


def test_one_coup_of_every_row_falls_on_the_event_of_its_signature() -> None:
    rows = value_sequences(one_per_row=True)
    checked = check(coup for values in rows for coup in realisations(values))
    assert checked > ROWS


@settings(max_examples=1_000, deadline=None)
@given(st.lists(st.integers(0, 52 * 8 - 1), min_size=6, max_size=6, unique=True))
def test_any_coup_of_a_shoe_falls_on_the_event_of_its_signature(numbers: list[int]) -> None:
    cards = [Card.from_index(n % 52) for n in numbers]
    assert check([deal_from(iter(cards).__next__)]) == 1
