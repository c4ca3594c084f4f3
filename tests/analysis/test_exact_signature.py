"""The signature is all a bet of the catalogue looks at: proved on every coup there is.

The odds engine prices each bet through a table filled by the bet type's own ``classify``
on one representative coup per (signature, pair levels). That is only right if every
coup with the same signature and pair levels falls on the same event. These tests deal
(``baccarat.coup.deal``) every one of the 339,400 coups by card values (ten-valued cards
given different ranks), plus, wherever a hand's two first cards can pair, each pair level
they can have, and ask ``classify`` of every bet type of the catalogue.

``classify`` is asked of the coup as the engine's representatives are: through a wrapper
that keeps each value ``Coup`` and ``Hand`` compute (totals, winner...) once, since a plain
``Coup`` adds its cards up again for every question of every bet type, which would make
this test take minutes. The brute-force tests use plain coups.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from baccarat.analysis.exact.coup_table import NO_PAIR, coup_table, tableau_arrays
from baccarat.analysis.exact.signature import (
    _RememberedCoup,
    bet_events,
    coup_signature,
    feasible_levels,
)
from baccarat.bets import BET_TYPES
from baccarat.cards import Card, Rank, Suit
from baccarat.coup import Coup, deal

TENS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.JACK, Rank.QUEEN)
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)


def value_sequences() -> Iterator[tuple[int, ...]]:
    """Every coup as its card values in deal order, from the tableau itself."""
    player, banker = tableau_arrays()
    for p1, b1, p2, b2 in itertools.product(range(10), repeat=4):
        pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
        opening = (p1, b1, p2, b2)
        if pt >= 8 or bt >= 8:
            yield opening
            continue
        thirds = range(10) if player[pt] else (None,)
        for p3 in thirds:
            stood = 10 if p3 is None else p3
            for b3 in range(10) if banker[bt, stood] else (None,):
                yield opening + tuple(v for v in (p3, b3) if v is not None)


def realisations(values: tuple[int, ...]) -> Iterator[Coup]:
    """The coup of these values at every pair level each hand's first cards can have."""
    base = [Card(TENS[i] if v == 0 else Rank(v), SUITS[i]) for i, v in enumerate(values)]
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


def test_the_enumeration_matches_the_coup_table() -> None:
    sequences = list(value_sequences())
    assert len(sequences) == int(coup_table().row_count.sum()) == 339_400
    assert len(set(sequences)) == len(sequences)


@pytest.mark.slow
def test_every_coup_falls_on_the_event_of_its_signature() -> None:
    tables = {name: bet_events(bet).table for name, bet in BET_TYPES.items()}
    events = {name: bet.events for name, bet in BET_TYPES.items()}
    checked = 0
    for values in value_sequences():
        for dealt in realisations(values):
            coup = _RememberedCoup.of(dealt)
            sid, hp, hb = coup_signature(coup)
            for name, bet in BET_TYPES.items():
                index = tables[name][sid, hp, hb]
                assert index >= 0, f"{coup}: no representative for {(sid, hp, hb)}"
                assert bet.classify(coup) == events[name][index], f"{name} on {coup}"
            checked += 1
    assert checked > 339_400
